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
sleep 1
cpu() { awk '{ print $14 + $15 }' /proc/"$MUXD_PID"/stat; }
c0=$(cpu)
sleep 2
c1=$(cpu)
# Two seconds are 200 ticks: a muxd woken again and again for ever would
# use them all.
[ $((c1 - c0)) -lt 60 ] || fail "muxd spins out of descriptors: $((c1 - c0)) ticks of CPU in 2 s"
timeout 10 "$MUXCTL" -s "$SOCK" status >"$T/out" 2>"$T/err"
rc=$?
[ $rc != 124 ] || fail "muxctl status hung while muxd had no descriptor left"
[ $rc = 0 ] || grep -q 'try again' "$T/err" || fail "muxctl status failed without saying why: $(cat "$T/err")"
n=$(grep -c 'refusing clients' "$T/muxd.log")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$n refusal lines logged in 3 s"
kill $holders 2>/dev/null
wait_for "mctl -j status >'$T/status.json' 2>/dev/null" 10 || fail "muxd does not answer once clients went"
[ "$(jq '.control.refused > 0' "$T/status.json")" = true ] || fail "status does not count the refusals: $(jq .control "$T/status.json")"
jq -e '.control.refusal | test("Too many open files")' "$T/status.json" >/dev/null ||
	fail "status does not say why: $(jq .control "$T/status.json")"
"$TOOLS/typer" -q "$T/a" "$T/b" 'still forwarding\r' || fail "muxd stopped forwarding"
echo ok
