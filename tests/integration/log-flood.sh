# No source can flood muxd's log: 2000 peers refused by a tcp-listen:
# line's allow= list write 100 lines a window of 10 s, and once a window
# is over, one line says how many were left out, so that what was written
# and what was counted add up to the 2000; the room works on meanwhile.
. tests/integration/lib.sh

P=$(free_port)
muxd_start -s "$SOCK" --link "pty:$T/j" "tcp-listen:*:$P,allow=127.0.0.2"
wait_for "grep -q 'port link1-b: listening' '$T/muxd.log'" 5 || fail "no listener"
t0=$(date +%s)
python3 - "$P" <<'EOP' || fail "the flood could not be sent"
import socket, sys
for i in range(2000):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.close()
EOP
t1=$(date +%s)
wait_for "[ \$(grep -c 'not an allowed peer' '$T/muxd.log') -ge 100 ]" 10 ||
	fail "the first refusals were not logged: $(grep -c 'not an allowed peer' "$T/muxd.log")"
mctl status >/dev/null || fail "muxd does not answer during the flood"
sleep 1
# One window when the flood is quick, a few on a loaded machine.
n=$(grep -c 'not an allowed peer' "$T/muxd.log")
most=$((100 * ((t1 - t0) / 10 + 2)))
[ "$n" -ge 100 ] && [ "$n" -le "$most" ] && [ "$n" -lt 1000 ] ||
	fail "$n refusals were logged in $((t1 - t0)) s (100 a window of 10 s)"
# The window over, the next line brings the summary.
sleep 10
python3 -c "import socket; socket.create_connection(('127.0.0.1', $P)).close()"
wait_for "grep -q 'more lines like \"port %s: refused %s: not an allowed peer\" were left out' '$T/muxd.log'" 5 ||
	fail "no summary of the lines left out: $(tail -3 "$T/muxd.log")"
n=$(grep -c 'not an allowed peer$' "$T/muxd.log")
left=$(grep 'were left out' "$T/muxd.log" | sed 's/.*(\([0-9]*\) more lines.*/\1/' |
    awk '{ s += $1 } END { print s + 0 }')
[ $((n + left)) -eq 2001 ] ||
	fail "written ($n) and left out ($left) do not add up to the 2001 refusals"
echo ok
