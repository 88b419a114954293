# A state that cannot be saved is a fault the operator sees: a "fault"
# event on watch, the error in status (and in muxctl status), one log
# line; round start refuses, naming it, unless --force; once the state
# saves again, the fault is cleared the same ways.  The status line
# for systemctl status (sd_notify) shows the faults that last while they
# last: a recording fault that comes and clears meanwhile does not take
# the state's off it, and the last fault told stays with its time.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
wait_port e1 up
watch_events
state_block
mctl round start 1 >"$T/out" 2>"$T/err" && fail "round 1 started while the state cannot be saved"
grep -q 'the state cannot be saved (.*state.json.tmp: File exists): a restart would not resume round 1; start it anyway with --force' "$T/err" ||
	fail "the refusal does not say why: $(cat "$T/err")"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"state\".*File exists' '$T/events'" 5 ||
	fail "no fault event on watch: $(cat "$T/events")"
mctl -j status | jq -e '.state.error | test("state.json.tmp")' >/dev/null || fail "status does not show the fault"
mctl status | grep -q '^FAULT: the state cannot be saved' || fail "muxctl status does not show the fault"
mctl round start 1 --force >/dev/null || fail "round start --force refused"
mctl round stop >/dev/null
[ "$(grep -c 'state: cannot be saved' "$T/muxd.log")" = 1 ] ||
	fail "the fault was logged $(grep -c 'state: cannot be saved' "$T/muxd.log") times, not once"

state_unblock
mctl round start 1 >/dev/null || fail "round 1 refused once the state saves again"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"state\",\"error\":null' '$T/events'" 5 ||
	fail "the end of the fault was not told: $(grep fault "$T/events")"
[ "$(mctl -j status | jq '.state.error')" = null ] || fail "status still shows the fault"
jq -e '.round.active' "$T/state/state.json" >/dev/null || fail "the state was not saved again"
mctl round stop >/dev/null
muxd_stop

# The status line, with a recording fault (the transcript's first write
# refused, tests/tools/faultsim.so) coming and going during the state's.
faultsim_use
notify_listen
state_block
log_reset
NOTIFY_SOCKET=$T/notify.sock FAULTSIM='write:LP*.TXT:ENOSPC:1' \
    LD_PRELOAD="$SO" muxd_start -f "$T/room.conf"
wait_port e1 up
rm -f "$T/events"
watch_events
mctl round start 1 --force >/dev/null || fail "round start --force refused"
wait_for "notify_last | grep -q 'FAULT: the state cannot be saved: .*File exists'" 5 ||
	fail "the status line does not show the state's fault: $(notify_last)"
J=$(facing E1)
relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n'
relay "$J" "$T/e1" 'judge line\r'
relay "$T/e1" "$J" 'entry line\r\n'
wait_for "grep -q '\"what\":\"record\",.*\"error\":null' '$T/events'" 10 ||
	fail "no recording fault came and cleared: $(grep fault "$T/events")"
s=$(notify_last)
echo "$s" | grep -q '; FAULT: the state cannot be saved: .*File exists' ||
	fail "a recording fault's end took the state's fault off the status line: $s"
echo "$s" | grep -q 'FAULT: .*(and ' && fail "a cleared fault is counted: $s"
echo "$s" | grep -Eq '; last fault [0-9]{2}:[0-9]{2}:[0-9]{2} (record|state): ' ||
	fail "the status line does not tell the last fault: $s"
state_unblock
mctl round stop >/dev/null
wait_for "! notify_last | grep -q 'FAULT:'" 5 ||
	fail "the status line still shows a fault once the state saves: $(notify_last)"
notify_last | grep -q '; last fault ' || fail "the last fault is no longer told: $(notify_last)"
echo ok
