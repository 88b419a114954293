# A reload that only reorders the configuration (stations, entities and
# ports listed in another order) changes nothing: every link keeps its
# station, side and entity, in status and in what it routes, and the
# round's links stay up; a manual link keeps them too.
. tests/integration/lib.sh

# The schedule names its stations and entities (a preset would take them
# in the order listed, which a reorder changes on purpose).
SCHEDULE='schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1"),
    ("J2", "E3", "C2"), ("J3", "E2", "C4") ); } ); seed = 2004; };'
room2004
muxd_start -f "$T/room.conf"
wait_port c4 up
round_start 1
mctl connect j4l c3 >/dev/null || fail "manual link j4l=c3 refused"
links() {
	mctl -j status | jq -r '.links[] | "\(.name) \(.station) \(.side) \(.entity) \(.since)"' | sort
}
links >"$T/before"
[ "$(wc -l <"$T/before")" = 7 ] || fail "round 1 and the manual link should make 7 links: $(cat "$T/before")"
grep -q '^j4l=c3 J4 left C3 ' "$T/before" || fail "manual link not given J4 and C3: $(cat "$T/before")"

# The same room with every list reversed.
ROOM_ORDER="4 3 2 1" room2004
grep -A1 'stations = (' "$T/room.conf" | grep -q 'J4' || fail "the stations were not reversed"
"$MUXD" -n -f "$T/room.conf" | grep -q 'configuration OK' ||
	fail "reversed room rejected: $("$MUXD" -n -f "$T/room.conf" 2>&1)"
mctl reload >/dev/null || fail "reload of the reordered room refused"
links >"$T/after"
diff "$T/before" "$T/after" >"$T/diff" ||
	fail "the links changed with the order of the configuration: $(cat "$T/diff")"

# Each terminal still reaches its own entity, and back.
while read -r name st side ent since; do
	case $name in *=*) tp=${name%=*} ;; *) tp=$(sport "$st" "$side") ;; esac
	ep=$(eport "$ent")
	relay "$T/$tp" "$T/$ep" "to $ent from $st $side\r\r" "$st $side did not reach $ent after the reload"
	relay "$T/$ep" "$T/$tp" "$ent answers $st\r\n" "$ent did not reach $st $side after the reload"
done <"$T/after"

# The recordings go on under the right names.
mctl round stop >/dev/null || fail "round stop failed"
for e in E1 E3 E2 C1 C2 C4; do
	ls "$T/state/transcripts/$e"/* >/dev/null 2>&1 || fail "no transcript for $e"
done
