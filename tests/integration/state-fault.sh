# A state that cannot be saved is a fault the operator sees: a "fault"
# event on watch, the error in status (and in muxctl status), one log
# line; round start refuses, naming it, unless --force; once the state
# saves again, the fault is cleared the same ways.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
wait_port e1 up
watch_events
# A directory where the temporary state file goes: every save fails.
mkdir "$T/state/state.json.tmp"
touch "$T/state/state.json.tmp/keep"
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

rm -r "$T/state/state.json.tmp"
mctl round start 1 >/dev/null || fail "round 1 refused once the state saves again"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"state\",\"error\":null' '$T/events'" 5 ||
	fail "the end of the fault was not told: $(grep fault "$T/events")"
[ "$(mctl -j status | jq '.state.error')" = null ] || fail "status still shows the fault"
jq -e '.round.active' "$T/state/state.json" >/dev/null || fail "the state was not saved again"
echo ok
