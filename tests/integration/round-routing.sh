# The 2004 Final Four room: starting a round links each participating
# station's left and right terminals to its entry and confederate, placed
# at random from the seed and shown; every conversation reaches only its
# own pair; excused and unrouted lines reach nobody; stopping ends it all.
. tests/integration/lib.sh

room2004
"$MUXD" -n -f "$T/room.conf" | grep -q 'configuration OK' || fail "room rejected"
muxd_start -f "$T/room.conf"
wait_port c4 up

mctl schedule | grep -q 'J4' || fail "schedule not shown"
mctl round start 1 >"$T/start.out" || fail "round 1 did not start"
grep -q 'J1 (judge 1): left' "$T/start.out" || fail "placements not shown: $(cat "$T/start.out")"

mctl -j status >"$T/status.json"
[ "$(jq '.round.placements | length' "$T/status.json")" = 3 ] ||
	fail "round 1 should place 3 judges"
[ "$(jq '.links | length' "$T/status.json")" = 6 ] || fail "round 1 should make 6 links"
jq -r '.round.placements[] | "\(.station) \(.left) \(.right)"' "$T/status.json" >"$T/pl"
# The placements are those of the schedule: J1 E1 C1, J2 E3 C2, J3 E2 C4.
sort "$T/pl" | awk '{ if ($2 < $3) print $1, $2, $3; else print $1, $3, $2 }' | tr '\n' ' ' >"$T/pairs"
[ "$(cat "$T/pairs")" = "J1 C1 E1 J2 C2 E3 J3 C4 E2 " ] || fail "round 1 pairs wrong: $(cat "$T/pairs")"

# Each terminal talks to exactly its own entity, both ways.
while read -r st left right; do
	for side in left right; do
		[ $side = left ] && ent=$left || ent=$right
		tp=$(sport "$st" $side)
		ep=$(eport "$ent")
		relay "$T/$tp" "$T/$ep" "to $ent from $st $side\r\r" \
		    "$st $side did not reach $ent"
		relay "$T/$ep" "$T/$tp" "$ent answers $st\r\n" \
		    "$ent did not reach $st $side"
	done
done <"$T/pl"

# Excused judge J4 types: it reaches nobody, and nobody else hears a thing.
tty "$T/j4l" 'send:anyone there?\r\r' >/dev/null
wait_for "[ \"\$(port_field j4l unrouted)\" = 15 ]" 5 || fail "J4's bytes not counted as unrouted"
for p in e1 e2 e3 e4 c1 c2 c3 c4 j1l j1r j2l j2r j3l j3r; do
	tty "$T/$p" 'quiet:100' >/dev/null || fail "$p heard bytes that were not its own"
done

# A second start is refused while a round runs; stop ends every link.
mctl round start 2 2>"$T/err" && fail "a second round started over the first"
grep -q 'round 1 is running' "$T/err" || fail "refusal not explained: $(cat "$T/err")"
mctl round stop >/dev/null || fail "round stop failed"
[ "$(mctl -j status | jq '.links | length')" = 0 ] || fail "links left after the round"
tty "$T/j1l" 'send:after the round' >/dev/null
for p in e1 e2 e3 e4 c1 c2 c3 c4; do
	tty "$T/$p" 'quiet:100' >/dev/null || fail "$p heard J1 after the round"
done

# Round 6 has one pair only: J1 E4 C4.
mctl round start 6 >/dev/null || fail "round 6 did not start"
[ "$(mctl -j status | jq -r '[.links[].name] | sort | join(" ")')" = "J1-left J1-right" ] ||
	fail "round 6 links wrong"
mctl -j status | jq -e '.round.seed == 2004' >/dev/null || fail "the configured seed was not used"
mctl round start 9 2>/dev/null && fail "a round not in the schedule started"
echo ok
