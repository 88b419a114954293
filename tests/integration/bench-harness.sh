# The benchmark's harness (make bench) computes what it claims: the
# paired CPU-per-byte ratio, and a forwarder that exits at once is
# reported without leaving its processes behind.  It measures nothing:
# the benchmark run at its smallest sizes is the scenario bench-smoke,
# which make bench runs first.
. tests/integration/lib.sh

[ -x "$B/tests/bench/ptybench" ] || fail "$B/tests/bench/ptybench is not built"

# CPU per byte against the floor is paired: the median of the rounds'
# ratios (1.1, 1.5 and 1.0 here: 1.1; round 4 has no floor run), not the
# ratio of the median rounds (1.5).
printf '%s\n' 'c.f.1 cpu_ns 1000' 'c.f.1 moved 100' 'c.m.1 cpu_ns 1100' \
    'c.m.1 moved 100' 'c.f.2 cpu_ns 2000' 'c.f.2 moved 100' \
    'c.m.2 cpu_ns 3000' 'c.m.2 moved 100' 'c.f.3 cpu_ns 4000' \
    'c.f.3 moved 100' 'c.m.3 cpu_ns 4000' 'c.m.3 moved 100' \
    'c.m.4 cpu_ns 9000' 'c.m.4 moved 100' 'c.m cpu_ns_per_byte 30' >"$T/rounds"
(. tests/bench/common && bench_paired c.m c.f "$T/rounds")
[ "$(grep -c '^c\.m xfl ' "$T/rounds")" = 1 ] && grep -qx 'c.m xfl 1.1000' "$T/rounds" ||
	fail "bench_paired: $(grep xfl "$T/rounds"), expected c.m xfl 1.1000"

# A target against a peer is judged with the spread of its rounds: the
# ratios of the rounds that both ran (0.5, 1.5 and 2; round 4 has no
# run of the peer), lowest, median and highest, and how many are above 1.
printf '%s\n' 'a.m.1 p50 10' 'a.m.2 p50 30' 'a.m.3 p50 20' 'a.s.1 p50 20' \
    'a.s.2 p50 20' 'a.s.3 p50 10' 'a.s.4 p50 5' 'a.m p50 99' \
    'c.m.1 cpu_ns 100' 'c.m.1 moved 10' 'c.s.1 cpu_ns 400' 'c.s.1 moved 20' >"$T/spread"
(. tests/bench/common && bench_spread x a.m a.s p50 "$T/spread" &&
    bench_spread y c.m c.s cpu "$T/spread")
[ "$(grep '^x spread' "$T/spread" | tr '\n' ' ')" = "x spread_n 3 x spread_lo 0.5000 x spread_med 1.5000 x spread_hi 2.0000 x spread_above 2 " ] ||
	fail "bench_spread: $(grep '^x' "$T/spread" | tr '\n' ' '), expected 3 rounds 0.5 1.5 2, 2 above 1"
grep -qx 'y spread_med 0.5000' "$T/spread" ||
	fail "bench_spread: CPU per byte $(grep '^y spread_med' "$T/spread"), expected 0.5"

# A forwarder that exits at once is reported, and what it left in its
# process group does not outlive the probe.
mark=300.$$
"$B/tests/bench/ptybench" idle -t 2 -- sh -c "sleep $mark & sleep 0.2" \
    >/dev/null 2>"$T/early.err" && fail "ptybench did not fail when its forwarder exited"
grep -q 'the forwarder exited' "$T/early.err" ||
	fail "ptybench did not say the forwarder exited: $(cat "$T/early.err")"
wait_for "! pgrep -f 'sleep $mark'" 5 || {
	pkill -f "sleep $mark"
	fail "what the forwarder left behind outlived ptybench"
}

echo "ok: the harness pairs its rounds and reports a forwarder gone"
