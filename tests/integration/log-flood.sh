# No source can flood muxd's log: 2000 peers refused by a tcp-listen:
# line's allow= list write 100 lines a window of 10 s, and once a window
# is over, one line says how many were left out, so that what was written
# and what was counted add up to the 2000; the room works on meanwhile.
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
wait_for "[ \$(grep -c 'not an allowed peer$' '$T/muxd.log') -ge 100 ]" 10 ||
	fail "the first refusals were not logged: $(grep -c 'not an allowed peer$' "$T/muxd.log")"
mctl status >/dev/null || fail "muxd does not answer during the flood"
# At most 100 lines a window of 10 s, by muxd's own clock (its log's
# stamps, HH:MM:SS.mmm): the lines written so far span so many windows.
# (A machine under load makes the flood slower, never the bound wrong.)
grep 'not an allowed peer$' "$T/muxd.log" >"$T/refusals"
n=$(grep -c . "$T/refusals")
span=$(awk '{ split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
	if (NR == 1) first = s; last = s }
    END { d = last - first; if (d < 0) d += 86400; printf("%d\n", d) }' "$T/refusals")
most=$((100 * (span / 10 + 2)))
[ "$n" -ge 100 ] && [ "$n" -le "$most" ] ||
	fail "$n refusals were logged in $span s (100 a window of 10 s)"
# Once the flood is over and a window has passed, the next refusal
# brings the summary of the lines left out: the written and the left out
# add up to every refusal.  (muxd may still be working through the
# flood's backlog when the first window ends: a refusal a window until
# they add up, a few at most.)
k=0
while :; do
	sleep 10
	python3 -c "import socket; socket.create_connection(('127.0.0.1', $P)).close()"
	k=$((k + 1))
	wait_for "grep -q 'more lines like \"port %s: refused %s: not an allowed peer\" were left out' '$T/muxd.log'" 5 ||
		fail "no summary of the lines left out: $(tail -3 "$T/muxd.log")"
	wait_for "[ \$(grep -c 'not an allowed peer$' '$T/muxd.log') -ge \$(( $n + 1 )) ]" 5
	n=$(grep -c 'not an allowed peer$' "$T/muxd.log")
	left=$(grep 'were left out' "$T/muxd.log" | sed 's/.*(\([0-9]*\) more lines.*/\1/' |
	    awk '{ s += $1 } END { print s + 0 }')
	[ $((n + left)) -eq $((2000 + k)) ] && break
	[ "$k" -lt 4 ] ||
		fail "written ($n) and left out ($left) do not add up to the $((2000 + k)) refusals"
done
echo "ok: $n written, $left left out, $k refused after the flood"
