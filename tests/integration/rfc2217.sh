# A serial port on another host, through ser2net's telnet(rfc2217)
# accepter: rfc2217:HOST:PORT sets the line's speed on the remote port,
# carries every byte value exactly both ways (0xFF, which telnet escapes,
# and the telnet commands' own bytes included), goes down saying why when
# the server goes away and comes back up when it returns, and a server
# that is not there is said so.
. tests/integration/lib.sh

command -v ser2net >/dev/null 2>&1 || fail "ser2net is not installed (apt-get install ser2net)"
# The remote serial port: one end of a pty pair for ser2net, the far end
# for the test, as the entity's machine.
bg socat "pty,link=$T/dev,raw,echo=0" "pty,link=$T/far,raw,echo=0"
wait_for "[ -e '$T/dev' ] && [ -e '$T/far' ]" 5 || fail "no pty pair"
DEV=$(readlink -f "$T/dev")
P=$(free_port)
ser2net_start() {
	ser2net -n -u -P "$T/ser2net.pid" -Y "connection: &c1" \
	    -Y "  accepter: telnet(rfc2217),tcp,127.0.0.1,$P" \
	    -Y "  connector: serialdev,$DEV,9600n81,local" \
	    >>"$T/ser2net.log" 2>&1 &
	SER2NET=$!
	PIDS="$PIDS $SER2NET"
	wait_for "ss -ltnH 'sport = :$P' | grep -q $P" 10 ||
		fail "ser2net does not listen on $P: $(cat "$T/ser2net.log"; ss -tanH "sport = :$P")"
}
ser2net_start
cable judge
muxd_start -s "$SOCK" --link "$T/judge.dev" "rfc2217:127.0.0.1:$P,19200"
wait_port link1-b up
grep -q "port link1-b: connected to 127.0.0.1:$P (RFC 2217)" "$T/muxd.log" ||
	fail "the connection is not logged"
wait_for "stty -F '$DEV' speed | grep -qx 19200" 5 ||
	fail "the remote port's speed was not set: $(stty -F "$DEV" speed)"

# Every byte value, both ways at once, exactly.
"$TOOLS/xfer" -n 200000 -s 7 -t 60 "$T/judge=$T/far" ||
	fail "the bytes through RFC 2217 are not exact"

# The server goes away: the line goes down saying so, then comes back.
kill "$SER2NET"
wait_port link1-b down
port_field link1-b error | grep -Eq 'connection lost|connect to' ||
	fail "no reason for the line down: $(port_field link1-b error)"
ser2net_start
wait_port link1-b up 20
relay "$T/judge" "$T/far" 'back again\r'
relay "$T/far" "$T/judge" 'welcome back\r'
muxd_stop

# Nobody there: down, saying where it tried.
Q=$(free_port)
muxd_start -s "$SOCK" --link "pty:$T/j2" "rfc2217:127.0.0.1:$Q"
wait_for "port_field link1-b error | grep -q 'connect to 127.0.0.1:$Q'" 10 ||
	fail "a missing server is not said: $(port_field link1-b error)"
echo ok
