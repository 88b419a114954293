# The judge is told: when a round ends (timed or stopped), a notice on
# lines of its own; when a judge types with no conversation, a notice, at
# most once every 10 seconds of typing; nothing reaches anyone else.
. tests/integration/lib.sh

SCHEDULE_EXTRA='duration = 2;' room1
muxd_start -f "$T/room.conf"
wait_port c1 up
round_start 1
J=$(facing E1)
TTY_TIMEOUT=6000 tty "$J" 'expect:\r\n*** round 1 is over: duration elapsed ***\r\n' >/dev/null ||
	fail "the end of the timed round was not announced to the judge"

tty "$J" 'send:anyone?' 'expect:*** no conversation on this terminal now: wait for the next round ***\r\n' >/dev/null ||
	fail "a judge typing between rounds was not told"
tty "$J" 'send:hello?' 'quiet:300' >/dev/null || fail "the notice came again within 10 seconds"
tty "$T/e1" 'quiet:200' >/dev/null || fail "the entity heard the judge between rounds"
tty "$T/c1" 'quiet:200' >/dev/null || fail "the confederate heard the judge between rounds"

round_start 2
mctl round stop >/dev/null
tty "$J" 'expect:*** round 2 is over: stopped by operator ***' >/dev/null ||
	fail "the stop of round 2 was not announced"
echo ok
