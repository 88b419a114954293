# Out of descriptors, muxd neither spins nor floods its log: a client it
# cannot take gets a quick error ("try again") instead of hanging, accept
# pauses, the refusals are counted in status and logged once in a while,
# and once clients go muxd answers as before.
. tests/integration/lib.sh

cable a
cable b
(ulimit -n 40; exec "$MUXD" -v -s "$SOCK" --link "$T/a.dev" "$T/b.dev") >>"$T/muxd.log" 2>&1 &
MUXD_PID=$!
wait_for "grep -q ' running, ' '$T/muxd.log'" 10 || fail "muxd did not start"
holders=
for i in $(seq 60); do
	(sleep 30) | socat -u - "UNIX-CONNECT:$SOCK" 2>/dev/null &
	holders="$holders $!"
done
PIDS="$PIDS $holders"
# Out of descriptors once it says so; then a muxd woken again and again
# for ever would use all its CPU: two seconds are 200 ticks.  A machine
# under load may lend muxd's work of the moment to any one window, never
# to every one: one window of 2 s under 60 ticks, of up to 5, is enough.
wait_for "grep -q 'refusing clients' '$T/muxd.log'" 30 ||
	fail "muxd did not say it refuses clients once out of descriptors"
cpu() { awk '{ print $14 + $15 }' /proc/"$MUXD_PID"/stat; }
w=0
while :; do
	c0=$(cpu)
	sleep 2
	c1=$(cpu)
	[ $((c1 - c0)) -lt 60 ] && break
	w=$((w + 1))
	[ "$w" -lt 5 ] || fail "muxd spins out of descriptors: $((c1 - c0)) ticks of CPU in 2 s, $w times in a row"
done
timeout 10 "$MUXCTL" -s "$SOCK" status >"$T/out" 2>"$T/err"
rc=$?
[ $rc != 124 ] || fail "muxctl status hung while muxd had no descriptor left"
[ $rc = 0 ] || grep -q 'try again' "$T/err" || fail "muxctl status failed without saying why: $(cat "$T/err")"
# Logged once in a while: 10 s apart at least (muxd's own clock, its
# log's stamps; time(2) seconds, so 9 s and more between two stamps).
grep 'refusing clients' "$T/muxd.log" >"$T/refusals"
awk '{ split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
	if (NR > 1) { d = s - last; if (d < 0) d += 86400; if (d < 9) bad = bad " " d }
	last = s }
    END { if (NR < 1 || bad != "") { printf("%d lines, gaps%s\n", NR, bad); exit 1 } }' \
    "$T/refusals" >"$T/gaps" ||
	fail "refusals logged more than once in 10 s: $(cat "$T/gaps")"
kill $holders 2>/dev/null
wait_for "mctl -j status >'$T/status.json' 2>/dev/null" 10 || fail "muxd does not answer once clients went"
[ "$(jq '.control.refused > 0' "$T/status.json")" = true ] || fail "status does not count the refusals: $(jq .control "$T/status.json")"
jq -e '.control.refusal | test("Too many open files")' "$T/status.json" >/dev/null ||
	fail "status does not say why: $(jq .control "$T/status.json")"
"$TOOLS/typer" -q "$T/a" "$T/b" 'still forwarding\r' || fail "muxd stopped forwarding"
echo ok
