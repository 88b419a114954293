#!/bin/sh
# Benchmark: `transcripts render` throughput on a large capture made of
# the fixtures' conversations repeated (keystroke events of one byte,
# entity bursts, every byte value), against the 50 MB/s reference.
#   sh tests/bench/transcripts-render.sh BUILDDIR
set -u
B=${1:-build}
TR=$B/transcripts/transcripts
D=tests/data/transcripts
REPEATS=${REPEATS:-4000}
REF=50
. tests/bench/common
bench_start "transcripts render" "$TR"

{
	head -1 "$D/loebner1996.cast"
	{ tail -n +2 "$D/loebner1996.cast"; tail -n +2 "$D/allbytes.cast"; } |
	awk -v n="$REPEATS" '
	{ i = index($0, ","); t[NR] = substr($0, 2, i - 2) + 0
	  rest[NR] = substr($0, i) }
	END {
		for (k = 1; k <= NR; k++) if (t[k] > span) span = t[k]
		for (r = 0; r < n; r++) {
			last = 0
			for (k = 1; k <= NR; k++) {
				tt = t[k] < last ? last : t[k]; last = tt
				printf("[%.6f%s\n", off + tt, rest[k])
			}
			off += span + 1
		}
	}'
} >"$T/big.cast"
bytes=$(wc -c <"$T/big.cast")
best=
for run in 1 2 3; do
	rm -rf "$T/out"
	start=$(date +%s%N)
	"$TR" render -o "$T/out" "$T/big.cast" >/dev/null ||
		{ echo "transcripts render: failed"; exit 1; }
	ns=$(( $(date +%s%N) - start ))
	[ -z "$best" ] || [ "$ns" -lt "$best" ] && best=$ns
done
mbs=$(( bytes * 1000 / best ))	# bytes per ns * 1000 = MB/s
verdict=ok
[ "$mbs" -lt "$REF" ] && verdict=BELOW
printf '%-34s %8s MB/s   reference %4s MB/s   %s (%s MB capture, best of 3)\n' \
	"transcripts render" "$mbs" "$REF" "$verdict" "$((bytes / 1000000))"
[ "$verdict" = ok ]
