# A tcp-listen entry whose port is held back (its judge does not read)
# and whose peer then resets the connection is not stuck: the next peer
# is taken (the reset noticed as it comes, the port marked down and up),
# not refused as "a second peer".
. tests/integration/lib.sh

cable judge
P=$(free_port)
muxd_start -s "$SOCK" --link "$T/judge.dev" "tcp-listen:127.0.0.1:$P"
wait_port link1-b waiting
# Nobody reads the judge's end: 600 kB from the peer fill its queue and
# hold the port back; only then does the peer reset (SO_LINGER 0 sends
# RST), so that the reset is not read before the port is held back.
python3 - "$P" "$T/reset" <<'EOP' &
import os, socket, struct, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.setblocking(False)
data, deadline = b"z" * 600000, time.monotonic() + 10
while data and not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:
    try:
        data = data[s.send(data):]
    except BlockingIOError:
        time.sleep(0.01)
while not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:
    time.sleep(0.01)
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
EOP
peer=$!
PIDS="$PIDS $peer"
wait_for "[ \"\$(port_field link1-b paused)\" = true ]" 5 ||
	fail "the port was not held back"
: >"$T/reset"
wait "$peer"
# A new peer comes: it is taken, not told the port is busy.
(printf 'hello from the new peer\r\n'; sleep 1) | socat - "TCP:127.0.0.1:$P" >"$T/new.out" 2>/dev/null
grep -q 'busy' "$T/new.out" && fail "the new peer was refused: $(cat "$T/new.out")"
grep -q 'refused a second peer' "$T/muxd.log" && fail "muxd refused the new peer as a second one"
grep -q 'port link1-b: peer connected from' "$T/muxd.log" || fail "no peer taken"
[ "$(grep -c 'port link1-b: peer connected from' "$T/muxd.log")" = 2 ] || fail "the new peer was not taken"
grep -q "noticed as a new peer came" "$T/muxd.log" || fail "the reset was not noticed: $(grep link1-b "$T/muxd.log")"
echo ok
