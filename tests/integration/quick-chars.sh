# Quick mode forwards each byte the moment it arrives, both ways: between
# two serial lines (pty cables), and between a serial line and TCP.
. tests/integration/lib.sh

cable judge
cable entity
cable term
P=$(free_port)
muxd_start -s "$SOCK" --link "$T/judge.dev,baud=9600" "$T/entity.dev,19200,8N1" \
    --link "$T/term.dev" "tcp-listen:127.0.0.1:$P"
wait_port link2-b waiting

# Every byte value, one at a time, each delivered before the next is sent.
"$TOOLS/typer" "$T/judge" "$T/entity" 'Hello?\r\rIs it you\x08\x7f\x00\xff\xe9\r\n' ||
	fail "judge to entity: not delivered byte by byte"
"$TOOLS/typer" "$T/entity" "$T/judge" 'Hello, my name is Ada and I am the human\r\n' ||
	fail "entity to judge: not delivered byte by byte"

# Over TCP, both ways; the listener takes the test as its one peer.
"$TOOLS/typer" "$T/term" "tcp:127.0.0.1:$P" 'judge types\r\r' ||
	fail "line to TCP: not delivered byte by byte"
"$TOOLS/typer" "tcp:127.0.0.1:$P" "$T/term" 'entity answers\r\n' ||
	fail "TCP to line: not delivered byte by byte"
[ "$(port_field link1-a bytes_in)" -gt 10 ] || fail "status counts no bytes in"
echo "ok"
