#!/bin/sh
# Benchmark: what watchers and web viewers cost the room.  The one-way
# latency of a typed stream through muxd's room (its rules, captures and
# transcripts on), with no watcher, with 500 watchers attached to its
# control socket (each gets every event: a text event a key), and with
# 500 browsers' event streams open on muxweb(8) attached to the room, in
# rounds that take the three in turn; the target is a p50 within 10% of
# none for each.
#   sh tests/bench/watchers.sh BUILDDIR
# BENCH_SMOKE=1 checks the harness with 20 of each, its figures
# meaningless.
set -u
B=${1:-build}
PB=$B/tests/bench/ptybench
. tests/bench/common
bench_start watchers "$PB" "$B/muxweb/muxweb"
NW=500 NLAT=20000 ROUNDS=4
[ -n "${BENCH_SMOKE:-}" ] && NW=20 NLAT=400 ROUNDS=2

# Run the probe with KIND (none, watchers, web) attached: its latency
# samples in $T/samples.KIND.ROUND.
probe() {
	_k=$1 _r=$2 _w=0 _v=0
	case $_k in
	watchers) _w=$NW ;;
	web) _v=$NW ;;
	esac
	_ok="$T/run.$_k.$_r/ctl.sock.watching"
	# Measured once the watchers or viewers are all attached.
	_ready=$_ok
	[ "$_k" = none ] && _ready=
	if ! PTYBENCH_READY=$_ready FWD_WATCHERS=$_w FWD_WEBVIEWERS=$_v \
	    FWD_CONF="control_clients = $((NW + 16));
	    control_clients_per_user = $((NW + 16));" \
	    B=$B "$PB" lat -l 1 -x 1 -n $((NLAT / ROUNDS)) -g 20,300 \
	    -o "$T/samples.$_k.$_r" -- sh tests/bench/fwd muxd-room \
	    "$T/run.$_k.$_r" >"$T/out" 2>"$T/err"; then
		# With the last words of the helpers that attach them.
		echo "watchers: the run with $_k failed: $(tail -1 "$T/err")" \
		    "$(cd "$T/run.$_k.$_r" && tail -qn1 watchers.log \
		    viewers.log muxweb.log 2>/dev/null | tr '\n' ' ')" >&2
		return 1
	fi
	if [ "$_k" = web ] && [ "$(cat "$_ok")" != "open $NW refused 0" ]; then
		echo "watchers: muxweb took $(cat "$_ok") of $NW streams" >&2
		return 1
	fi
}

status=0
bench_rounds $ROUNDS none watchers web || status=1
awk -v nw=$NW -v st=$status '
{ v[$1 " " $2] = $3 }
function row(k, label) {
	printf("%-16s %10.1f %10.1f\n", label, v[k " p50"], v[k " p99"])
}
function target(k, label,	p0, pw, ok) {
	p0 = v["none p50"]; pw = v[k " p50"]
	ok = p0 > 0 && pw > 0 && pw <= 1.10 * p0
	printf("%-34s %-17s %-17s %s\n", label ", p50", sprintf("%.2fx", p0 > 0 ? pw / p0 : 0), "<= 1.10x none", ok ? "ok" : "MISSED")
	return ok
}
END {
	printf("\nwatchers: one-way latency of a typed stream through muxd room, us\n")
	printf("%-16s %10s %10s\n", "", "p50", "p99")
	row("none", "none attached")
	row("watchers", nw " watchers")
	row("web", nw " web viewers")
	a = target("watchers", "watchers: " nw " attached")
	b = target("web", "web viewers: " nw " on muxweb")
	exit (a && b && st == 0) ? 0 : 1
}' "$T/stats"
