# No source can flood muxd's log: 2000 peers refused by a tcp-listen:
# line's allow= list write its first 100 lines, and once the window (10
# s) is over, one line says how many were left out; the room works on
# meanwhile and the other lines are written as usual.
. tests/integration/lib.sh

P=$(free_port)
muxd_start -s "$SOCK" --link "pty:$T/j" "tcp-listen:*:$P,allow=127.0.0.2"
wait_for "grep -q 'port link1-b: listening' '$T/muxd.log'" 5 || fail "no listener"
python3 - "$P" <<'EOP' || fail "the flood could not be sent"
import socket, sys
for i in range(2000):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.close()
EOP
wait_for "[ \$(grep -c 'not an allowed peer' '$T/muxd.log') -ge 100 ]" 10 ||
	fail "the first refusals were not logged: $(grep -c 'not an allowed peer' "$T/muxd.log")"
mctl status >/dev/null || fail "muxd does not answer during the flood"
sleep 1
n=$(grep -c 'not an allowed peer' "$T/muxd.log")
[ "$n" = 100 ] || fail "$n refusals were logged, not 100"
# The window over, the next line brings the summary.
sleep 10
python3 -c "import socket; socket.create_connection(('127.0.0.1', $P)).close()"
wait_for "grep -q 'more lines like \"port %s: refused %s: not an allowed peer\" were left out' '$T/muxd.log'" 5 ||
	fail "no summary of the lines left out: $(tail -3 "$T/muxd.log")"
grep 'were left out' "$T/muxd.log" | grep -Eq '\((1900|19[0-9][0-9]) more lines' ||
	fail "the summary does not count what was left out: $(grep 'left out' "$T/muxd.log")"
echo ok
