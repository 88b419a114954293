# With "ready_wait" in the schedule, a round whose lines are not all up
# waits for them instead of being refused: it starts the moment the last
# one comes up, or is given up when the time is over (told on watch, with
# the lines still down); status names the lines it waits for, station by
# station; "round stop" cancels the wait.
. tests/integration/lib.sh

for c in j1l j1r e1 c1; do cable $c; done
write_room() {
	CABLES=1 SCHEDULE_EXTRA="ready_wait = $1;" room1
}
write_room 20
muxd_start -f "$T/room.conf"
wait_port e1 up
watch_events
unplug e1
wait_port e1 down

mctl round start 1 >"$T/out" || fail "round start with ready_wait was refused: $(cat "$T/out")"
grep -q 'round 1 waits for its lines until' "$T/out" || fail "muxctl does not say the round waits: $(cat "$T/out")"
# Status names the lines it waits for, station by station.
mctl status >"$T/status"
grep -q '^round 1 waits for its lines until [0-9:]*: J1 e1 (down: [^)]*)$' "$T/status" ||
	fail "status does not name the line the round waits for: $(grep round "$T/status")"
[ "$(mctl -j status | jq -c '.round.waiting.lines | map([.station, .port, .state])')" = '[["J1","e1","down"]]' ] ||
	fail "status -j: $(mctl -j status | jq -c .round.waiting)"
wait_for "grep -q '\"event\":\"round.wait\".*e1 (down' '$T/events'" 5 || fail "no round.wait event naming e1"
[ "$(mctl -j status | jq '.links | length')" = 0 ] || fail "links made before the lines were up"
mctl round start 1 2>"$T/err" && fail "a second start was taken while round 1 waits"
grep -q 'waits for its lines' "$T/err" || fail "the second start's refusal: $(cat "$T/err")"
cable e1
wait_for "[ \"\$(mctl -j status | jq '.round.active')\" = true ]" 15 ||
	fail "round 1 did not start when e1 came up"
[ "$(mctl -j status | jq '.links | length')" = 2 ] || fail "round 1 should make 2 links"
wait_for "grep -q '\"event\":\"round.start\"' '$T/events'" 5 || fail "no round.start event"
mctl round stop >/dev/null

# Given up when the time is over; cancelled by round stop.
write_room 1
mctl reload >/dev/null || fail "reload refused"
unplug e1
wait_port e1 down
mctl round start 1 >/dev/null || fail "round start refused"
wait_for "grep -q '\"event\":\"round.refused\".*lines still not up.*e1 (down' '$T/events'" 5 ||
	fail "the wait was not given up, naming e1: $(grep round. "$T/events")"
[ "$(mctl -j status | jq '.round.active')" = false ] || fail "round 1 runs after its wait was given up"
write_room 30
mctl reload >/dev/null || fail "reload refused"
mctl round start 1 >/dev/null || fail "round start refused"
mctl round stop >"$T/stop" || fail "round stop did not cancel the wait"
grep -q 'no longer waits' "$T/stop" || fail "round stop: $(cat "$T/stop")"
cable e1
wait_port e1 up 15
sleep 0.3
[ "$(mctl -j status | jq '.round.active')" = false ] || fail "a cancelled round started when e1 came up"
echo ok
