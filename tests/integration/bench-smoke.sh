# test: bench: it runs the benchmark, which measures (make bench runs it)
# The benchmark's harness (make bench) still measures what it claims, at
# its smallest sizes (BENCH_SMOKE=1): every forwarder runs in every table,
# every byte of every run is checked, and every target is judged.  Its
# figures mean nothing here and decide nothing: a target missed is not a
# failure of this scenario, a table or a forwarder missing is.  It is no
# part of make check (it needs the machine to itself): make bench runs it
# before the benchmarks; tests/run B=build -- bench-smoke runs it alone.
. tests/integration/lib.sh

for x in ptybench minifwd; do
	[ -x "$B/tests/bench/$x" ] || fail "$B/tests/bench/$x is not built"
done
command -v socat >/dev/null || fail "socat is not installed (apt-get install socat)"

TMPDIR=$T BENCH_SMOKE=1 sh tests/bench/forwarders.sh "$B" >"$T/bench" 2>"$T/bench.err"
st=$?
[ $st -le 1 ] || { cat "$T/bench" "$T/bench.err" >&2; fail "forwarders.sh exited with $st"; }
if grep -q 'failed' "$T/bench" "$T/bench.err"; then
	grep 'failed' "$T/bench" "$T/bench.err" >&2
	fail "a run of the benchmark failed"
fi

# Each table, and in it each forwarder.
for t in 'one-way latency per byte' 'lockstep: a byte written' '40 keys typed one at a time' \
    'bulk both ways at once' 'CPU at 960 bytes/s each way' 'CPU at 960 bytes/s in turns' \
    'wake-ups per second while idle' \
    'scaling in one process' 'targets for muxd room'; do
	grep -q "$t" "$T/bench" || fail "the table \"$t\" is missing"
done
fwds="minifwd socat muxd-quick muxd-room"
command -v ser2net >/dev/null && fwds="$fwds ser2net"
for f in $fwds; do
	n=$(echo "$f" | tr - ' ')
	# latency and lockstep (unpinned and pinned), line, bulk, CPU
	# byte by byte and in turns (twice each), idle
	c=$(grep -c "^ *\(unpinned \|pinned \)\? *$n  " "$T/bench")
	[ "$c" -ge 10 ] || fail "$n has $c rows in the tables, expected at least 10"
done

# Bulk: every forwarder's bytes arrived, each one checked, and its CPU
# per byte told.
sed -n '/^bulk both ways/,/^$/p' "$T/bench" >"$T/bulk"
# 6 rows (7 with ser2net) unpinned, as many split on 2 CPUs or more.
rows=6
command -v ser2net >/dev/null && rows=7
[ "$(nproc)" -ge 2 ] && rows=$((rows * 2))
[ "$(grep -c 'exact$' "$T/bulk")" -ge $rows ] || { cat "$T/bulk" >&2; fail "bulk: not every forwarder checked exact"; }
grep '^ *muxd quick' "$T/bulk" | awk '{ if ($8 + 0 <= 0) bad = 1 } END { exit bad }' ||
    { cat "$T/bulk" >&2; fail "bulk: no CPU per byte for muxd quick"; }

# CPU, byte by byte and in turns: every byte of every forwarder checked,
# muxd room+echo's echo and redraws too, none lost or wrong; the epoll
# floor beside the others.
sed -n '/^CPU at 960 bytes/,/^$/p' "$T/bench" >"$T/cpu"
[ "$(grep -c '^ *muxd room+echo  ' "$T/cpu")" = 4 ] || { cat "$T/cpu" >&2; fail "CPU: not 4 rows of muxd room+echo"; }
[ "$(grep -c '^ *minifwd+epoll  ' "$T/cpu")" = 4 ] || { cat "$T/cpu" >&2; fail "CPU: not 4 rows of minifwd+epoll"; }
! grep -q 'lost, [0-9]* wrong' "$T/cpu" || { cat "$T/cpu" >&2; fail "CPU: bytes lost or wrong"; }

# Scaling: nothing lost, in any row.
sed -n '/^scaling in one process/,/^$/p' "$T/bench" >"$T/scale"
awk '/ x +[0-9]+ B / && $(NF - 1) != 0 { bad = 1; print } END { exit bad }' "$T/scale" >&2 ||
    fail "scaling: bytes lost"
grep -q '^muxd links  *500 x 16 B ' "$T/scale" || { cat "$T/scale" >&2; fail "scaling: no row of muxd at 500 links"; }

# Every target judged, ok or MISSED, and the exit status says which; each
# against a peer (one-way, lockstep and typed line p50, CPU per byte
# in turns and byte by byte, unpinned and pinned, against socat and
# ser2net, and the CPU ones against ser2net-now; the 128- and 500-link
# rows against ser2net) with the spread of its rounds, in how many muxd
# was above the peer, and whether the verdict is beyond them.
n=$(grep -c ' \(ok\|MISSED\)$' "$T/bench")
peers=$(grep -Ec ': (socat|ser2net|ser2net-now) .* [0-9.]+-[0-9.]+ [0-9]+/[0-9]+ +(beyond|within) +(ok|MISSED)$' "$T/bench")
want=24 wantp=7
command -v ser2net >/dev/null && want=39 wantp=22
grep -q '^ *ser2net-now ' "$T/bench" || ! command -v ser2net >/dev/null ||
	fail "no CPU row of ser2net-now"
[ "$(nproc)" -ge 2 ] && want=$((want + 1))
[ "$peers" -ge $wantp ] || fail "$peers targets against a peer with their rounds' spread, expected $wantp"
[ "$n" -ge $want ] || fail "$n targets judged, expected $want"
if grep -q 'MISSED$' "$T/bench"; then
	[ $st = 1 ] || fail "a target missed, yet the exit status is $st"
else
	[ $st = 0 ] || fail "every target met, yet the exit status is $st"
fi

# The watchers' benchmark: the three rows measured (none, watchers, web
# viewers on muxweb), both targets judged, every stream taken.
TMPDIR=$T BENCH_SMOKE=1 sh tests/bench/watchers.sh "$B" >"$T/watch" 2>"$T/watch.err"
st=$?
[ $st -le 1 ] && ! grep -q '^watchers:' "$T/watch.err" ||
	{ cat "$T/watch" "$T/watch.err" >&2; fail "watchers.sh failed ($st)"; }
for row in 'none attached' '20 watchers' '20 web viewers'; do
	grep -Eq "^$row +[0-9.]+ +[0-9.]+$" "$T/watch" || fail "watchers: no row '$row': $(cat "$T/watch")"
done
grep -Eq '^watchers: 20 attached, p50 .* (ok|MISSED)$' "$T/watch" ||
	fail "watchers: the target was not judged: $(cat "$T/watch")"
grep -Eq '^web viewers: 20 on muxweb, p50 .* (ok|MISSED)$' "$T/watch" ||
	fail "watchers: the web viewers' target was not judged: $(cat "$T/watch")"
# The screens' benchmark: both rows measured, screens answered while the
# room forwards, the target judged.
TMPDIR=$T BENCH_SMOKE=1 sh tests/bench/screens.sh "$B" >"$T/screens" 2>"$T/screens.err"
st=$?
[ $st -le 1 ] && ! grep -q '^screens:' "$T/screens.err" ||
	{ cat "$T/screens" "$T/screens.err" >&2; fail "screens.sh failed ($st)"; }
for row in 'nothing asked' 'screens asked 10 a second'; do
	grep -Eq "^$row +[0-9.]+ +[0-9.]+ +[0-9.]+$" "$T/screens" ||
		fail "screens: no row '$row': $(cat "$T/screens")"
done
grep -Eq '^\([1-9][0-9]* screens answered\)$' "$T/screens" ||
	fail "screens: no screens answered: $(cat "$T/screens")"
grep -Eq '^screens asked: p99 .* (ok|MISSED)$' "$T/screens" ||
	fail "screens: the target was not judged: $(cat "$T/screens")"
# The flame graph, where perf can sample here: its stacks, its picture
# and what the samples fell on.  32 links for 2 s give some 600 samples,
# tens of them in muxd's own files (8 links for 1 s gave 120, and at
# times none there).
if command -v perf >/dev/null && perf record -q -e cpu-clock -o "$T/p.data" true 2>/dev/null; then
	TMPDIR=$T sh tests/bench/flame.sh "$B" 32 2 >"$T/flame" 2>&1 ||
		fail "flame.sh failed: $(tail -3 "$T/flame")"
	grep -q '^samples by part' "$T/flame" && grep -q 'muxd: ' "$T/flame" ||
		fail "flame: no parts told: $(cat "$T/flame")"
	grep -q '^muxd;.*;main;.*_\[k\] [0-9]*$' "$B/bench/flame-32.folded" ||
		fail "flame: no stack from main down to the kernel: $(head -3 "$B/bench/flame-32.folded")"
	grep -q '<title>main: ' "$B/bench/flame-32.svg" || fail "flame: main is not in the picture"
	flame="; the flame graph drawn"
else
	flame="; perf cannot sample here, no flame graph"
fi
# What a cycle of the loop touches, where valgrind is installed (make
# bench installs it): a row for muxd room, muxd quick and the floor, the
# room touching more than quick and quick more than the floor, and each
# row's own code lines a part of its code lines.  valgrind cannot run a
# muxd built with AddressSanitizer (make check-asan).
if nm "$B/muxd/muxd" 2>/dev/null | grep -q __asan_init; then
	flame="$flame; muxd built with -fsanitize=address, no footprint"
elif command -v valgrind >/dev/null && command -v python3 >/dev/null &&
    command -v objdump >/dev/null && command -v readelf >/dev/null; then
	TMPDIR=$T BENCH_SMOKE=1 sh tests/bench/footprint.sh "$B" >"$T/foot" 2>&1 ||
		fail "footprint.sh failed: $(tail -3 "$T/foot")"
	awk '/^(muxd (room|quick)|minifwd) / { n++; k = $1 == "muxd" ? $2 : $1
		v[k] = $(NF - 5) + $(NF - 4) + $(NF - 1)
		if ($(NF - 2) <= 0 || $(NF - 2) > $(NF - 4)) bad = 1 }
	    END { exit !(n == 3 && !bad && v["room"] > v["quick"] && v["quick"] > v["minifwd"] && v["minifwd"] > 0) }' "$T/foot" ||
		fail "footprint: no rows for muxd room, muxd quick and minifwd, each touching less than the one before, their own code a part of their code: $(cat "$T/foot")"
	flame="$flame; the footprint traced"
else
	flame="$flame; no valgrind, no footprint"
fi
echo "ok: the benchmark harness ran every forwarder in every table ($n targets judged$flame)"
