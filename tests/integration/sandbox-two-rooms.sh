# Two rooms on one host (a rehearsal beside the contest, say), each with
# an exec: entry on a port named e1: the second room's entry is given a
# uid no process holds, not the first's, so that when the second room
# stops (and ends every process of its entries' uids) the first room's
# entry goes on answering.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
command -v bwrap >/dev/null || { echo "no bwrap (apt-get install bubblewrap)"; exit 77; }

mkdir -p "$T/bot"
chmod 755 "$T" "$T/bot"
cat >"$T/bot/bot" <<'EOB'
#!/bin/sh
while IFS= read -r line; do
	[ -z "$line" ] && continue
	printf '%s heard: %s\r\n' "$(id -u)" "$line"
done
EOB
chmod 755 "$T/bot/bot"
# room NAME: a room of one station, the entry on port e1.
room_of() {
	mkdir -p "$T/$1"
	cat >"$T/$1/room.conf" <<EOC
control = "$T/$1/ctl.sock"; state = "$T/$1/state";
ports = (
  { name = "jl"; address = "pty:$T/$1/jl"; }, { name = "jr"; address = "pty:$T/$1/jr"; },
  { name = "e1"; address = "exec:$T/bot/bot"; }, { name = "c1"; address = "pty:$T/$1/c1"; }
);
stations = ( { name = "J1"; judge = 1; left = "jl"; right = "jr"; } );
entities = (
  { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; eol = "lf"; },
  { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); } ); seed = 5; };
EOC
}
room_of a
room_of b
"$MUXD" -v -f "$T/a/room.conf" >"$T/a.log" 2>&1 &
A=$!
PIDS="$PIDS $A"
wait_for "grep -q 'port e1: started' '$T/a.log'" 10 || fail "room a's entry did not start: $(cat "$T/a.log")"
ua=$(sed -n 's/.*port e1: started.*uid \([0-9]*\).*/\1/p' "$T/a.log" | head -1)
"$MUXD" -v -f "$T/b/room.conf" >"$T/b.log" 2>&1 &
B=$!
PIDS="$PIDS $B"
wait_for "grep -q 'port e1: started' '$T/b.log'" 10 || fail "room b's entry did not start: $(cat "$T/b.log")"
ub=$(sed -n 's/.*port e1: started.*uid \([0-9]*\).*/\1/p' "$T/b.log" | head -1)
[ -n "$ua" ] && [ -n "$ub" ] || fail "the uids are not in the logs: $(grep 'e1: started' "$T/a.log" "$T/b.log")"
[ "$ua" != "$ub" ] || fail "both rooms' e1 run as uid $ua"
echo "room a's e1 runs as uid $ua, room b's as uid $ub"

# Room a's round, its entry answering; then room b stops.
"$MUXCTL" -s "$T/a/ctl.sock" round start 1 >/dev/null || fail "room a's round did not start"
J=$T/a/j$("$MUXCTL" -s "$T/a/ctl.sock" -j status | jq -r '.links[] | select(.entity == "E1") | .side' | cut -c1)
tty "$J" 'type:one\r' "expect:$ua heard: one" >/dev/null || fail "room a's entry did not answer before"
kill "$B"
wait "$B" 2>/dev/null
grep -q 'port e1: ended\|program ended' "$T/a.log" && fail "room a's entry ended with room b: $(grep e1 "$T/a.log" | tail -3)"
tty "$J" 'type:two\r' "expect:$ua heard: two" >/dev/null || fail "room a's entry did not answer after room b stopped"
echo ok
