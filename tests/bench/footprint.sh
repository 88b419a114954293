#!/bin/sh
# Benchmark: what a byte forwarded touches.  On a machine shared with
# others, every wake-up of muxd finds its caches cold, so what a byte
# costs follows the memory it touches more than its instructions.  This
# runs muxd under valgrind's lackey (every instruction and data access
# traced), one link driven by the probe at a slow rate in 1-byte writes,
# cuts the trace at each entry of port_read_cb (a cycle of the loop: the
# wake-up, the read and everything that follows until the next read) and
# prints, over the cycles after the first quarter, the median of the
# instructions run and of the distinct 64-byte lines and 4 KB pages of
# code and of data touched: figures that depend neither on the machine
# nor on what else runs on it.  muxd room (rules, captures, transcripts)
# is set beside muxd quick (the loop and the forwarding alone).
#   sh tests/bench/footprint.sh BUILDDIR
# Needs valgrind and python3 (without them it says so and skips).
# BENCH_SMOKE=1 checks the harness on shorter runs.
set -u
B=${1:-build}
PB=$B/tests/bench/ptybench
for x in valgrind python3; do
	command -v $x >/dev/null || {
		echo "footprint: $x not installed, skipped (apt-get install $x)"
		exit 0
	}
done
. tests/bench/common
bench_start footprint "$PB" "$B/muxd/muxd" "$B/muxctl/muxctl"
SECS=4
[ -n "${BENCH_SMOKE:-}" ] && SECS=2

# valgrind loads a position-independent program at 0x108000 (amd64).
off=$(nm "$B/muxd/muxd" | awk '$3 == "port_read_cb" { print $1 }')
[ -n "$off" ] || { echo "footprint: no port_read_cb in $B/muxd/muxd"; exit 1; }
entry=$(printf '%08x' $((0x108000 + 0x$off)))

# Trace one forwarder and tell its medians: "KIND N INSN CL CP DL DP".
trace() {
	# Traced, muxd is some fifty times slower: its start can outlast
	# the probe's patience, so a failed run is tried again, twice.
	n=0
	until rm -rf "$T/run" "$T"/trace.* &&
	    PTYBENCH_WAIT=120 MUXD_WRAP="valgrind --tool=lackey --trace-mem=yes --log-file=$T/trace.%p" \
	    B=$B "$PB" rate -l 1 -x 1 -r 50 -w 1 -t $SECS -W 2 \
	    -- sh tests/bench/fwd "$1" "$T/run" >"$T/probe.out" 2>"$T/probe.err"; do
		n=$((n + 1))
		[ $n -lt 3 ] || {
			echo "footprint: the probe failed: $(tail -1 "$T/probe.err"); muxd: $(tail -3 "$T/run/muxd.log")" >&2
			return 1
		}
	done
	python3 - "$(ls -S "$T"/trace.* | head -1)" "$entry" "$1" <<'PY'
import statistics, sys
path, entry, kind = sys.argv[1], sys.argv[2], sys.argv[3]
cycles, cur = [], None
with open(path, errors="replace") as f:
    for line in f:
        if line.startswith("I  "):
            addr = line[3:].split(",")[0]
            if addr == entry:
                if cur is not None:
                    cycles.append(cur)
                cur = [0, set(), set(), set(), set()]
            if cur is None:
                continue
            a = int(addr, 16)
            cur[0] += 1
            cur[1].add(a >> 6)
            cur[2].add(a >> 12)
        elif cur is not None and line[:2] in (" L", " S", " M"):
            a = int(line[3:].split(",")[0], 16)
            cur[3].add(a >> 6)
            cur[4].add(a >> 12)
steady = cycles[len(cycles) // 4:]
if len(steady) < 50:
    sys.exit("footprint: %s: %d cycles traced: port_read_cb, taken to be at "
             "0x%s, ran %d times (valgrind may have loaded muxd elsewhere)"
             % (kind, len(cycles), entry, len(cycles) + (cur is not None)))
med = lambda k: statistics.median(len(c[k]) if k else c[0] for c in steady)
print(kind, len(steady), *(int(med(k)) for k in range(5)))
PY
}

for k in muxd-room muxd-quick; do
	trace $k >>"$T/rows" || exit 1
done
awk '
{ name = $1 == "muxd-room" ? "muxd room" : "muxd quick"
  row[NR] = sprintf("%-12s %12d %9d (%d) %9d (%d)", name, $3, $4, $5, $6, $7) }
END {
	printf("\nfootprint: a cycle of the loop (a byte forwarded), traced with valgrind lackey\n")
	printf("%-12s %12s %14s %14s\n", "", "instructions", "code lines", "data lines")
	printf("%-12s %12s %14s %14s\n", "", "", "(4 KB pages)", "(4 KB pages)")
	for (i = 1; i <= NR; i++)
		print row[i]
}' "$T/rows"
