# muxctl watch streams events live: a round starting, lines going down and
# up, and bytes dropped past the queue limit while a line is away, which
# are counted, announced and marked in the link's capture, never silent.  SIGTERM then stops muxd
# cleanly: it exits 0 and removes its socket and its pty links.
. tests/integration/lib.sh

cable judge
cable entity
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state"; queue_limit = 256;
ports = (
  { name = "judge"; address = "$T/judge.dev"; },
  { name = "entity"; address = "$T/entity.dev"; },
  { name = "spare"; address = "pty:$T/spare"; }
);
EOC
muxd_start -f "$T/room.conf"
mctl -j watch >"$T/events" &
watcher=$!
PIDS="$PIDS $watcher"
wait_for "[ -s '$T/events' ] || mctl -j status | jq -e '.ports | length == 3'" 5
sleep 0.2
mctl connect judge entity >/dev/null || fail "connect failed"
wait_for "grep -q '\"event\":\"link.up\"' '$T/events'" 5 || fail "no link.up event: $(cat "$T/events")"

unplug entity
wait_for "grep -q '\"event\":\"port.down\".*\"port\":\"entity\"' '$T/events'" 5 ||
	fail "no port.down event for the pulled cable"
# 300 bytes for a line that is away, whose queue holds 256.
head -c 300 /dev/zero | tr '\0' 'k' >"$T/300"
tty "$T/judge" "send:$(cat "$T/300")" >/dev/null
wait_for "[ \"\$(port_field entity dropped)\" = 44 ]" 5 ||
	fail "expected 44 bytes dropped, status says $(port_field entity dropped)"
[ "$(port_field entity queued)" = 256 ] || fail "queue does not hold its limit"
wait_for "grep '\"event\":\"drop\"' '$T/events' | grep -q '\"port\":\"entity\"'" 5 ||
	fail "no drop event"
grep -q 'port entity: queue full (256 bytes), dropping' "$T/muxd.log" || fail "drop not logged"
wait_for "cat '$T'/state/captures/*.cast 2>/dev/null | grep -q '\"drop entity [0-9]* '" 5 ||
	fail "no drop marker in the link's capture: $(ls "$T"/state/captures)"

cable entity
wait_for "grep -q '\"event\":\"port.up\".*\"port\":\"entity\"' '$T/events'" 15 || fail "no port.up event"
tty "$T/entity" "expect:$(head -c 256 "$T/300")" 'quiet:200' >/dev/null ||
	fail "the 256 queued bytes were not delivered, exactly"
wait_for "grep -q '44 bytes were dropped while it was full' '$T/muxd.log'" 5 ||
	fail "the end of the drop episode was not logged with its count"

# A clean stop on SIGTERM.
[ -L "$T/spare" ] || fail "pty link missing"
kill -TERM "$MUXD_PID"
wait "$MUXD_PID"
rc=$?
MUXD_PID=
[ "$rc" = 0 ] || fail "muxd exited $rc on SIGTERM"
[ ! -e "$SOCK" ] || fail "control socket left behind"
[ ! -e "$T/spare" ] || fail "pty link left behind"
wait_for "! kill -0 $watcher" 5 || fail "the watcher was not told muxd stopped"
grep -q '"event":"link.down"' "$T/events" || fail "no link.down event at the stop"
echo ok
