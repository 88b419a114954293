#!/bin/sh
# Benchmark: what watchers cost the room.  The one-way latency of a typed
# stream through muxd's room (its rules, captures and transcripts on),
# with no watcher and with 500 watchers attached to its control socket
# (each gets every event: a text event a key), in alternating rounds;
# the target is a p50 within 10% of none.
#   sh tests/bench/watchers.sh BUILDDIR
# BENCH_SMOKE=1 checks the harness with 20 watchers, its figures
# meaningless.
set -u
B=${1:-build}
PB=$B/tests/bench/ptybench
. tests/bench/common
bench_start watchers "$PB"
NW=500 NLAT=20000 ROUNDS=4
[ -n "${BENCH_SMOKE:-}" ] && NW=20 NLAT=400 ROUNDS=2

# Run the probe with w watchers: its latency samples in $T/samples.w.r.
probe() {
	_w=$1 _r=$2
	if ! FWD_WATCHERS=$_w FWD_CONF="control_clients = $((NW + 16));" \
	    B=$B "$PB" lat -l 1 -x 1 -n $((NLAT / ROUNDS)) -g 20,300 \
	    -o "$T/samples.$_w.$_r" -- sh tests/bench/fwd muxd-room \
	    "$T/run.$_w.$_r" >"$T/out" 2>"$T/err"; then
		echo "watchers: the run with $_w watchers failed: $(tail -1 "$T/err")" >&2
		return 1
	fi
	if [ "$_w" -gt 0 ] && ! [ -e "$T/run.$_w.$_r/ctl.sock.watching" ]; then
		echo "watchers: the $_w watchers were not attached" >&2
		return 1
	fi
}

status=0
r=1
while [ $r -le $ROUNDS ]; do
	# Alternate which goes first, so that neither gets the warmer start.
	if [ $((r % 2)) = 1 ]; then order="0 $NW"; else order="$NW 0"; fi
	for w in $order; do
		probe "$w" "$r" || status=1
	done
	r=$((r + 1))
done
for w in 0 $NW; do
	cat "$T"/samples.$w.* >"$T/samples.$w" 2>/dev/null
	"$PB" stats "$T/samples.$w" | tr ' ' '\n' |
	    sed -n "s/^\(p50\|p99\)=\(.*\)/$w \1 \2/p" >>"$T/stats"
done
awk -v nw=$NW -v st=$status '
{ v[$1 " " $2] = $3 }
END {
	p0 = v["0 p50"]; pw = v[nw " p50"]
	printf("\nwatchers: one-way latency of a typed stream through muxd room, us\n")
	printf("%-14s %10s %10s\n", "", "p50", "p99")
	printf("%-14s %10.1f %10.1f\n", "no watcher", p0, v["0 p99"])
	printf("%-14s %10.1f %10.1f\n", nw " watchers", pw, v[nw " p99"])
	ok = p0 > 0 && pw > 0 && pw <= 1.10 * p0
	printf("%-34s %-17s %-17s %s\n", "watchers: " nw " attached, p50", sprintf("%.2fx", p0 > 0 ? pw / p0 : 0), "<= 1.10x none", ok ? "ok" : "MISSED")
	exit (ok && st == 0) ? 0 : 1
}' "$T/stats"
