# A sync that comes while the last one's pass is still handing the
# captures over is not lost: the pass that follows at once takes again
# the captures written since the first took them.  Here each handover
# (a dup, F_DUPFD_CLOEXEC) is made to take 200 ms (strace's delay
# injection), so that a pass over 16 unrouted captures of some 40 KB
# each lasts over three seconds; in the middle of it every port is sent a
# line, which arms the next sync a second later, within the pass.
# Nothing is sent after: every capture must still be handed over after
# its port's last line, and verify.
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
room2004
MUXD_TRACED=1
muxd_start -f "$T/room.conf"
# The loop's handovers, from now on, each held 200 ms.
strace -p "$MUXD_PID" -qq -ttt -y -e trace=fcntl \
    -e inject=fcntl:delay_exit=200000 -o "$T/strace" &
PIDS="$PIDS $!"
wait_for "grep -q TracerPid:.[1-9] /proc/$MUXD_PID/status" 5 ||
	fail "strace did not attach to muxd"
# The start-up's own syncs, if any, are done: no handover for 2 s.
n=-1
while [ "$n" != "$(grep -c F_DUPFD "$T/strace")" ]; do
	n=$(grep -c F_DUPFD "$T/strace")
	sleep 2
done

PORTS="j1l j1r e1 c1 j2l j2r e2 c2 j3l j3r e3 c3 j4l j4r e4 c4"
# No round: every port's bytes go to its own unrouted capture.
# shellcheck disable=SC2086
send_bulk $PORTS
# The sync a second after those bytes is under way: a line to each port.
sleep 1.5
for p in $PORTS; do
	printf 'last line of %s\n' "$p" >"$T/$p"
done
sent=$(date +%s.%N)
# Every capture handed over after its line was sent: the pass under way
# (over three seconds) and the one that follows it; a slow machine makes
# them slower, so wait for them, a minute at most.
handed() {
	for p in $PORTS; do
		cap=$(ls "$T"/state/captures/unrouted-"$p"*.cast | head -1)
		last=$(grep "F_DUPFD_CLOEXEC.*$(basename "$cap")>" "$T/strace" |
		    awk '{ t = $1 } END { print t }')
		awk -v a="${last:-0}" -v b="$sent" 'BEGIN { exit !(a > b) }' || return 1
	done
}
wait_for handed 60
grep -c 'F_DUPFD_CLOEXEC.*unrouted-.*\.cast>' "$T/strace" >"$T/ndups" ||
	fail "no capture was handed over: $(grep -c . "$T/strace") lines traced"
# Every capture, handed over after its last line was sent.
for p in $PORTS; do
	cap=$(ls "$T"/state/captures/unrouted-"$p"*.cast | head -1)
	grep -q "last line of $p" "$cap" || fail "$p's last line is not in its capture"
	last=$(grep "F_DUPFD_CLOEXEC.*$(basename "$cap")>" "$T/strace" |
	    awk '{ t = $1 } END { print t }')
	awk -v a="${last:-0}" -v b="$sent" 'BEGIN { exit !(a > b) }' ||
		fail "$p's capture was not handed over after its last line (last at ${last:-never}, the line sent at $sent; $(cat "$T/ndups") handovers in all)"
done
muxd_stop
for cap in "$T"/state/captures/unrouted-*.cast; do
	# Alone, without a manifest: intact, but unverified (3).
	"$TX" verify "$cap" >"$T/verify" 2>&1
	[ $? = 3 ] || fail "$(basename "$cap") does not verify: $(cat "$T/verify")"
done
echo "ok: $(cat "$T/ndups") handovers"
