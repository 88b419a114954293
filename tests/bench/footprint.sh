#!/bin/sh
# Benchmark: what a byte forwarded touches.  On a machine shared with
# others, every wake-up of muxd finds its caches cold, so what a byte
# costs follows the memory it touches more than its instructions.  This
# runs muxd under valgrind's lackey (every instruction and data access
# traced), one link of muxd room driven by the probe at a slow rate in
# 1-byte writes, cuts the trace at each entry of port_read_cb (a cycle
# of the loop: the wake-up, the read and everything that follows until
# the next read) and prints, over the cycles after the first quarter,
# the median of the instructions run and of the distinct 64-byte lines
# and 4 KB pages of code and of data touched.  Figures that do not
# depend on the machine or what else runs on it.
#   sh tests/bench/footprint.sh BUILDDIR [KIND]
# KIND: muxd-room (the default), muxd-echo or muxd-quick.
# Needs valgrind and python3.
set -u
B=${1:-build}
KIND=${2:-muxd-room}
PB=$B/tests/bench/ptybench
for x in valgrind python3; do
	command -v $x >/dev/null || { echo "footprint: $x not installed"; exit 1; }
done
for x in "$PB" "$B/muxd/muxd" "$B/muxctl/muxctl"; do
	[ -x "$x" ] || { echo "footprint: $x not built"; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-foot.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

# valgrind loads a position-independent program at 0x108000.
off=$(nm "$B/muxd/muxd" | awk '$3 == "port_read_cb" { print $1 }')
[ -n "$off" ] || { echo "footprint: no port_read_cb in $B/muxd/muxd"; exit 1; }
entry=$(printf '%08x' $((0x108000 + 0x$off)))

# Traced, muxd is some fifty times slower: its start can outlast the
# probe's patience, so a failed run is tried again, twice at most.
n=0
until rm -rf "$T/run" "$T"/trace.* &&
    PTYBENCH_WAIT=120 MUXD_WRAP="valgrind --tool=lackey --trace-mem=yes --log-file=$T/trace.%p" \
    B=$B "$PB" rate -l 1 -x 1 -r 50 -w 1 -t 4 -W 2 \
    -- sh tests/bench/fwd "$KIND" "$T/run" >"$T/probe.out" 2>"$T/probe.err"; do
	n=$((n + 1))
	[ $n -lt 3 ] || { echo "footprint: the probe failed: $(tail -1 "$T/probe.err"); muxd: $(tail -3 "$T/run/muxd.log")"; exit 1; }
done
trace=$(ls -S "$T"/trace.* | head -1)
python3 - "$trace" "$entry" "$KIND" <<'PY'
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
if len(steady) < 100:
    sys.exit("footprint: only %d cycles traced" % len(cycles))
med = lambda k: statistics.median(len(c[k]) if k else c[0] for c in steady)
print("%s, a cycle of the loop (the median of %d): %d instructions; "
      "code %d lines in %d pages, data %d lines in %d pages"
      % (kind, len(steady), med(0), med(1), med(2), med(3), med(4)))
PY
