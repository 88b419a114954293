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
# hold the port back; then the peer resets (linger=0 sends RST).
head -c 600000 /dev/zero | tr '\0' 'z' >"$T/bulk"
socat -u "OPEN:$T/bulk" "TCP:127.0.0.1:$P,linger=0" 2>/dev/null
wait_for "[ \"\$(port_field link1-b paused)\" = true ] || grep -q 'down' '$T/muxd.log'" 5 ||
	fail "the port was not held back"
# A new peer comes: it is taken, not told the port is busy.
(printf 'hello from the new peer\r\n'; sleep 1) | socat - "TCP:127.0.0.1:$P" >"$T/new.out" 2>/dev/null
grep -q 'busy' "$T/new.out" && fail "the new peer was refused: $(cat "$T/new.out")"
grep -q 'refused a second peer' "$T/muxd.log" && fail "muxd refused the new peer as a second one"
grep -q 'port link1-b: peer connected from' "$T/muxd.log" || fail "no peer taken"
[ "$(grep -c 'port link1-b: peer connected from' "$T/muxd.log")" = 2 ] || fail "the new peer was not taken"
grep -q "noticed as a new peer came" "$T/muxd.log" || fail "the reset was not noticed: $(grep link1-b "$T/muxd.log")"
echo ok
