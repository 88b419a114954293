# tcp-listen: binds loopback when no host is written, so a line is not
# open to the network by default; with "*" it binds every address, and
# allow= networks are the peers it takes: another is closed at once and
# logged, while an allowed one is linked as usual.
. tests/integration/lib.sh

P=$(free_port)
Q=$(free_port)
cable judge
muxd_start -s "$SOCK" --link "$T/judge.dev" "tcp-listen:$P" \
    --link "pty:$T/j2" "tcp-listen:*:$Q,allow=127.0.0.2/32"
wait_for "grep -q 'port link1-b: listening on 127.0.0.1:$P' '$T/muxd.log'" 5 ||
	fail "tcp-listen:$P does not listen on loopback: $(grep listening "$T/muxd.log")"
wait_for "grep -q 'port link2-b: listening on \*:$Q, for the allowed peers alone' '$T/muxd.log'" 5 ||
	fail "tcp-listen:*:$Q does not listen everywhere: $(grep listening "$T/muxd.log")"
# What the kernel says: the first on 127.0.0.1 alone, the second on all.
ss -ltnH "sport = :$P" | grep -q "127.0.0.1:$P" ||
	fail "the kernel does not show $P on 127.0.0.1: $(ss -ltnH "sport = :$P")"
ss -ltnH "sport = :$Q" | grep -Eq "(\*|0\.0\.0\.0|\[::\]):$Q" ||
	fail "the kernel does not show $Q on every address: $(ss -ltnH "sport = :$Q")"

# A peer from 127.0.0.1 is not in 127.0.0.2/32: closed, logged.
socat -u OPEN:/dev/null "TCP:127.0.0.1:$Q" 2>/dev/null
wait_for "grep -q 'port link2-b: refused 127.0.0.1:[0-9]*: not an allowed peer' '$T/muxd.log'" 5 ||
	fail "a peer not allowed was not refused: $(tail -3 "$T/muxd.log")"
[ "$(port_field link2-b state)" = up ] && fail "a peer not allowed brought the line up"
# From 127.0.0.2 it is taken, and carries bytes both ways.
bg socat "TCP:127.0.0.1:$Q,bind=127.0.0.2" "PTY,link=$T/peer,raw,echo=0"
wait_port link2-b up
relay "$T/j2" "$T/peer" 'hello from the judge\r'
relay "$T/peer" "$T/j2" 'hello from the entry\r'
echo ok
