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
# is set beside muxd quick (the loop and the forwarding alone) and the
# floor, minifwd, whose trace is cut at its call of poll(2) instead.
# "its own code" counts the code lines in the program itself, the rest
# being the libraries' (libevent's loop, libc).
#   sh tests/bench/footprint.sh BUILDDIR
# Needs valgrind, python3, objdump and readelf (without them it says so
# and skips).
# BENCH_SMOKE=1 checks the harness on shorter runs.
set -u
B=${1:-build}
PB=$B/tests/bench/ptybench
for x in valgrind:valgrind python3:python3 objdump:binutils readelf:binutils; do
	command -v "${x%%:*}" >/dev/null || {
		echo "footprint: ${x%%:*} not installed, skipped (apt-get install ${x#*:})"
		exit 0
	}
done
if nm "$B/muxd/muxd" 2>/dev/null | grep -q __asan_init; then
	echo "footprint: $B/muxd/muxd is built with -fsanitize=address, which valgrind cannot run; skipped"
	exit 0
fi
. tests/bench/common
bench_start footprint "$PB" "$B/muxd/muxd" "$B/muxctl/muxctl" \
    "$B/tests/bench/minifwd"
SECS=4
[ -n "${BENCH_SMOKE:-}" ] && SECS=2

# valgrind loads a position-independent program at 0x108000 (amd64).
# The address, so loaded, of muxd's port_read_cb and of minifwd's call
# of poll: where a cycle begins.
off=$(nm "$B/muxd/muxd" | awk '$3 == "port_read_cb" { print $1 }')
[ -n "$off" ] || { echo "footprint: no port_read_cb in $B/muxd/muxd"; exit 1; }
muxd_entry=$(printf '%08x' $((0x108000 + 0x$off)))
off=$(objdump -d --no-show-raw-insn "$B/tests/bench/minifwd" |
    awk '/call.*<poll@plt>/ { sub(":", "", $1); print $1; exit }')
[ -n "$off" ] || { echo "footprint: no call of poll in $B/tests/bench/minifwd"; exit 1; }
minifwd_entry=$(printf '%08x' $((0x108000 + 0x$off)))

# The program's own code, as valgrind loads it (at 0x108000): the
# range of its executable segment, "LO HI"; what a cycle runs outside it
# is the libraries' (libevent, libc, libsodium).
own() {
	readelf -lW "$1" |
	    awk '$1 == "LOAD" && $7 == "R" && $8 == "E" { print $3, $6; exit }' |
	    { read -r va sz && printf '%x %x\n' $((0x108000 + va)) \
		$((0x108000 + va + sz)); }
}
muxd_own=$(own "$B/muxd/muxd")
minifwd_own=$(own "$B/tests/bench/minifwd")
if [ -z "$muxd_own" ] || [ -z "$minifwd_own" ]; then
	echo "footprint: readelf found no executable segment"
	exit 1
fi

# Trace one forwarder (KIND ENTRY OWN), its cycles cut at ENTRY, and tell
# its medians: "KIND N INSN CL CP DL DP OWNCL".
trace() {
	entry=$2
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
	python3 - "$(ls -S "$T"/trace.* | head -1)" "$entry" "$1" "$3" <<'PY'
import statistics, sys
path, entry, kind = sys.argv[1], sys.argv[2], sys.argv[3]
lo, hi = (int(x, 16) >> 6 for x in sys.argv[4].split())
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
    sys.exit("footprint: %s: %d cycles traced: the start of a cycle, taken "
             "to be at 0x%s, ran %d times (valgrind may have loaded the "
             "program elsewhere)"
             % (kind, len(cycles), entry, len(cycles) + (cur is not None)))
med = lambda k: statistics.median(len(c[k]) if k else c[0] for c in steady)
own = statistics.median(sum(lo <= x < hi for x in c[1]) for c in steady)
print(kind, len(steady), *(int(med(k)) for k in range(5)), int(own))
PY
}

trace muxd-room "$muxd_entry" "$muxd_own" >>"$T/rows" || exit 1
trace muxd-quick "$muxd_entry" "$muxd_own" >>"$T/rows" || exit 1
trace minifwd "$minifwd_entry" "$minifwd_own" >>"$T/rows" || exit 1
awk '
{ name = $1 == "muxd-room" ? "muxd room" : $1 == "muxd-quick" ? "muxd quick" : "minifwd"
  row[NR] = sprintf("%-12s %12d %9d (%d) %9d %9d (%d)", name, $3, $4, $5,
      $8, $6, $7) }
END {
	printf("\nfootprint: a cycle of the loop (a byte forwarded), traced with valgrind lackey\n")
	printf("%-12s %12s %14s %9s %14s\n", "", "instructions", "code lines", "its own",
	    "data lines")
	printf("%-12s %12s %14s %9s %14s\n", "", "", "(4 KB pages)", "code", "(4 KB pages)")
	for (i = 1; i <= NR; i++)
		print row[i]
}' "$T/rows"
