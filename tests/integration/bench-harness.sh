# The benchmark's harness (make bench) computes what it claims: the
# paired CPU-per-byte ratio, the spread of the rounds and its sign test,
# the paired rows of tests/bench/paired told whole, and a forwarder that
# exits at once is reported without leaving its processes behind.  No
# figure is looked at: the benchmark run at its smallest sizes is the
# scenario bench-smoke, which make bench runs first.
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

# The sign test of the paired rows: 2 rounds of 15 on one side, 0.7% by
# luck (242 / 32768); 0 of 6, 3.1%; 3 of 6, no sign at all.
(. tests/bench/common && [ "$(bench_sign 2 15) $(bench_sign 13 15) $(bench_sign 0 6) $(bench_sign 3 6)" = "0.7 0.7 3.1 100.0" ]) ||
	fail "bench_sign: $(. tests/bench/common && bench_sign 2 15), expected 0.7"

# The paired rows (tests/bench/paired) tell each of their four pairs with
# its rounds, the count above and that chance, whatever the figures, and
# each forwarder's latency a byte over its rounds.
if command -v socat >/dev/null; then
	BENCH_PEER=socat BENCH_ROUNDS=2 BENCH_S=0.3 BENCH_PIN=u \
	    sh tests/bench/paired "$B" >"$T/paired" 2>&1 ||
		fail "tests/bench/paired failed: $(cat "$T/paired")"
	[ "$(grep -cE '^(muxd room|muxd quick|socat) / (socat|muxd quick|minifwd) +[0-9.]+ +[0-9.]+-[0-9.]+ +[0-2] of 2 +[0-9.]+%$' "$T/paired")" = 4 ] ||
		fail "tests/bench/paired did not tell its four pairs: $(cat "$T/paired")"
	[ "$(grep -cE '^(muxd room|socat|muxd quick|minifwd) +p50 +[0-9.]+ +p99 +[0-9.]+$' "$T/paired")" = 4 ] ||
		fail "tests/bench/paired did not tell each forwarder's latency: $(cat "$T/paired")"
fi

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
