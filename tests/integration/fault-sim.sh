# Fault injection (tests/tools/faultsim.so, LD_PRELOAD): muxd runs a
# round while one kind of system call fails at a chosen point, and each
# fault has its outcome: the conversation still flows whole, muxd lives,
# and the fault is told (a fault event on watch, status, the log) or
# absorbed with nothing lost.  The matrix this prints is README's.
. tests/integration/lib.sh

faultsim_use

# Start muxd afresh with FAULTSIM=$1, a round running, watched.
start() {
	log_reset
	rm -rf "$T/state" "$T/events"
	room1
	FAULTSIM="$1" LD_PRELOAD="$SO" "$MUXD" -v -f "$T/room.conf" >>"$T/muxd.log" 2>&1 &
	MUXD_PID=$!
	wait_for "grep -q ' running, ' '$T/muxd.log'" 10 || fail "$1: muxd did not start"
	watch_events
}

# The conversation: each side's line reaches the other, whole.
talk() {
	J=$(facing E1)
	relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "$1: E1's greeting did not reach the judge"
	relay "$J" "$T/e1" 'How are you?\r' "$1: the judge's line did not reach E1"
	relay "$T/e1" "$J" 'Fine, thanks.\r\n' "$1: E1's answer did not reach the judge"
}

stop() {
	kill -0 "$MUXD_PID" 2>/dev/null || fail "$1: muxd died"
	muxd_stop
}

row() { printf '%-36s %s\n' "$1" "$2" >>"$T/matrix"; }
: >"$T/matrix"

# Captures are written through a mapping while fallocate(2) gives room;
# without it (a full disk) they go on with write(2), here failing too.
f='fallocate:*.cast:ENOSPC:1:0,write:*.cast:ENOSPC:5'
start "$f"; round_start 1; talk "$f"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"record\".*No space left' '$T/events'" 5 || fail "$f: no fault event"
[ "$(grep -c 'No space left' "$T/muxd.log")" = 1 ] || fail "$f: not logged once: $(grep -c 'No space left' "$T/muxd.log")"
stop "$f"; row "$f" "flows; no mapping, then a capture not made: fault event (record), logged once"

f='write:*.TXT:EIO:1:0'
start "$f"; round_start 1; talk "$f"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"record\"' '$T/events'" 5 || fail "$f: no fault event"
stop "$f"; row "$f" "flows; fault event (record)"

for f in 'open:state.json.tmp:ENOSPC:1:0' 'fsync:state.json.tmp:EIO:1:0'; do
	start "$f"
	mctl round start 1 2>"$T/err" && fail "$f: round start went ahead without its state"
	grep -q 'the state cannot be saved' "$T/err" || fail "$f: the refusal: $(cat "$T/err")"
	mctl round start 1 --force >/dev/null || fail "$f: round start --force refused"
	talk "$f"
	mctl -j status | jq -e '.state.error != null' >/dev/null || fail "$f: status does not show it"
	wait_for "grep -q '\"event\":\"fault\".*\"what\":\"state\"' '$T/events'" 5 || fail "$f: no fault event"
	stop "$f"; row "$f" "round start refused (--force: flows); fault event (state); status"
done

for f in 'write:ptmx:EAGAIN:4:3' 'write:ptmx:EINTR:4:3'; do
	start "$f"; round_start 1; talk "$f"
	stop "$f"; row "$f" "flows, nothing lost (queued, written again)"
done

f='accept:*:EMFILE:3:2'
start "$f"; round_start 1; talk "$f"
for i in 1 2 3; do mctl -j status >/dev/null 2>&1 || true; done
mctl -j status >"$T/st" || fail "$f: muxd does not answer after the faults"
jq -e '.control.refused >= 1' "$T/st" >/dev/null || fail "$f: refusals not counted: $(jq .control "$T/st")"
stop "$f"; row "$f" "client told to try again; counted in status"

f='write:compliance.txt:ENOSPC:1:0'
start "$f"; round_start 1; talk "$f"
wait_for "grep -q '\"event\":\"verdict\"' '$T/events'" 5 || fail "$f: the verdict was not told"
grep -q 'compliance.txt: not written: No space left' "$T/muxd.log" || fail "$f: not logged"
wait_for "grep -q '\"what\":\"compliance\"' '$T/events'" 5 || fail "$f: no fault event"
stop "$f"; row "$f" "flows; verdict on watch; fault event (compliance); logged"

cat "$T/matrix"
# README shows this very matrix.
while IFS= read -r line; do
	grep -qxF "    $line" "$ROOT/README.txt" || fail "README's fault matrix lacks: $line"
done <"$T/matrix"
echo ok
