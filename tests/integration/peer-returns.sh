# A line that vanishes is marked down and reopened with backoff; what the
# surviving side types meanwhile is delivered when it returns.  The same
# for a serial cable pulled out and for a TCP peer that leaves; a second
# TCP peer is told the port is busy.
. tests/integration/lib.sh

cable j
cable e
cable k
P=$(free_port)
muxd_start -s "$SOCK" --link "$T/j.dev" "$T/e.dev" --link "$T/k.dev" "tcp-listen:127.0.0.1:$P"

tty "$T/j" 'send:before\r' >/dev/null
tty "$T/e" 'expect:before' >/dev/null || fail "no traffic before the fault"

# Pull the entity's cable; the judge types during the outage.
unplug e
wait_port link1-b down
tty "$T/j" 'type:typed while away\r\r' >/dev/null
wait_for "[ \"\$(port_field link1-b queued)\" = 18 ]" 5 ||
	fail "the judge's bytes were not queued for the absent line ($(port_field link1-b queued))"
[ "$(port_field link1-b downs)" = 1 ] || fail "the outage was not counted"

# Plug it back: muxd reopens it under the same name and delivers.
cable e
wait_port link1-b up 15
tty "$T/e" 'expect:typed while away\r\r' >/dev/null ||
	fail "bytes typed during the outage were lost"
tty "$T/e" 'send:back\r' >/dev/null
tty "$T/j" 'expect:back' >/dev/null || fail "no traffic after the line returned"

# TCP: a peer, a second one refused, the first leaves, the line types on.
wait_port link2-b waiting
tty "tcp:127.0.0.1:$P" 'send:hi from tcp' 'sleep:1500' >/dev/null &
first=$!
wait_port link2-b up
tty "tcp:127.0.0.1:$P" 'expect:is busy' >/dev/null ||
	fail "a second TCP peer was not told the port is busy"
tty "$T/k" 'expect:hi from tcp' >/dev/null || fail "TCP peer's bytes lost"
wait "$first"
wait_port link2-b waiting
tty "$T/k" 'send:while you were out\r\n' >/dev/null
wait_for "[ \"\$(port_field link2-b queued)\" = 20 ]" 5 ||
	fail "bytes for the absent TCP peer were not queued"
tty "tcp:127.0.0.1:$P" 'expect:while you were out\r\n' >/dev/null ||
	fail "bytes typed while the TCP peer was away were lost"
grep -q "port link2-b: down: peer closed the connection" "$T/muxd.log" ||
	fail "the TCP peer leaving was not logged"
echo ok
