#!/bin/sh
# Benchmark: where muxd room spends its CPU with captures on, as a flame
# graph.  The probe (ptybench rate) drives LINKS links at 960 bytes/s each
# way in 1-byte writes through muxd room (tests/bench/fwd muxd-room: rules,
# captures and transcripts on); after the warm-up, perf samples muxd for
# SECS seconds (cpu-clock, DWARF call stacks, kernel and user space).
#   sh tests/bench/flame.sh BUILDDIR [LINKS [SECS]]
# It writes BUILDDIR/bench/flame-LINKS.folded (one line a call stack,
# root first, and its samples: the form of flamegraph.pl and inferno) and
# BUILDDIR/bench/flame-LINKS.svg (open it in a browser; each frame tells
# its samples when pointed at), and prints what the samples fell on: by
# part (the kernel's tty and pty layer, its event polling, the rest of
# the kernel; libevent, libc, libsodium, muxd by file) and the functions
# with the most samples of their own.  Needs perf (Debian linux-perf).
set -u
B=${1:-build}
LINKS=${2:-128}
SECS=${3:-5}
PB=$B/tests/bench/ptybench
command -v perf >/dev/null || {
	echo "flame: perf not installed (apt-get install linux-perf)"
	exit 1
}
. tests/bench/common
bench_start flame "$PB" "$B/muxd/muxd" "$B/muxctl/muxctl"
mkdir -p "$B/bench"
out=$B/bench/flame-$LINKS

# The room, driven for the warm-up, the sampling and a second more.
B=$B "$PB" rate -l "$LINKS" -r 960 -w 1 -t "$((SECS + 1))" -W 3 \
    -- sh tests/bench/fwd muxd-room "$T/run" >"$T/probe.out" 2>"$T/probe.err" &
probe=$!
n=0
pid=
while [ -z "$pid" ] && [ $n -lt 100 ]; do
	sleep 0.1
	pid=$(pgrep -o -f "muxd/muxd -f $T/run/room.conf")
	n=$((n + 1))
done
[ -n "$pid" ] || { echo "flame: muxd did not start: $(tail -1 "$T/probe.err")"; exit 1; }
sleep 2.5
perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -p "$pid" \
    -o "$T/perf.data" -- sleep "$SECS" 2>"$T/perf.err" ||
	{ echo "flame: perf record failed: $(tail -1 "$T/perf.err")"; exit 1; }
wait $probe || { echo "flame: the probe failed: $(tail -1 "$T/probe.err")"; exit 1; }

# perf script prints a sample as a header line and its frames, leaf first,
# "address symbol+offset (object)"; fold each into "root;...;leaf count".
perf script -i "$T/perf.data" -F comm,ip,sym,dso 2>/dev/null | awk '
function flush(   s, i, o) {
	if (n == 0) return
	# an inlined frame is of the object of its caller
	for (i = n; i >= 1; i--) {
		if (fo[i] == "inlined") fo[i] = o
		o = fo[i]
		if (!(fr[i] in from)) {
			from[fr[i]] = o
			print fr[i], o >objs
		}
	}
	s = comm
	for (i = n; i >= 1; i--) s = s ";" fr[i]
	count[s]++
	n = 0
}
/^[^ \t]/ { flush(); comm = $1; next }
/^[ \t]*$/ { flush(); next }
{
	sym = $2
	obj = $NF
	gsub(/[()]/, "", obj)
	sub(/.*\//, "", obj)
	if (sym == "[unknown]") sym = "[" obj "]"
	sub(/\+0x[0-9a-f]+$/, "", sym)
	if (obj == "[kernel.kallsyms]") sym = sym "_[k]"
	fr[++n] = sym
	fo[n] = obj
}
END { flush(); for (s in count) print s, count[s] }' objs="$T/objs" |
    LC_ALL=C sort >"$out.folded"
[ -s "$out.folded" ] || { echo "flame: no samples"; exit 1; }

# The SVG: frames laid out as flamegraph.pl does, the widest at the bottom.
awk -v title="muxd room, $LINKS links at 960 B/s each way, 1-byte writes" '
function emit(name, depth, x0, x1) {
	nr++; rn[nr] = name; rd[nr] = depth; rx0[nr] = x0; rx1[nr] = x1
	if (depth > maxd) maxd = depth
}
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}
{
	c = $NF
	st = substr($0, 1, length($0) - length(c) - 1)
	n = split(st, f, ";")
	for (i = 1; i <= n && i <= pn && f[i] == p[i]; i++)
		;
	for (j = pn; j >= i; j--) emit(p[j], j, start[j], x)
	for (j = i; j <= n; j++) start[j] = x
	for (j = 1; j <= n; j++) p[j] = f[j]
	pn = n
	x += c
}
END {
	for (j = pn; j >= 1; j--) emit(p[j], j, start[j], x)
	W = 1200; H = 16; top = 40
	h = top + (maxd + 1) * H + 10
	printf("<?xml version=\"1.0\" standalone=\"no\"?>\n")
	printf("<svg version=\"1.1\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"monospace\" font-size=\"11\">\n", W + 20, h)
	printf("<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n")
	printf("<text x=\"10\" y=\"20\" font-size=\"14\">%s: %d samples</text>\n", esc(title), x)
	for (r = 1; r <= nr; r++) {
		w = (rx1[r] - rx0[r]) * W / x
		if (w < 0.2) continue
		y = h - 10 - rd[r] * H
		k = rn[r] ~ /_\[k\]$/
		g = 0
		for (i = 1; i <= length(rn[r]) && i <= 8; i++)
			g = (g * 31 + index("abcdefghijklmnopqrstuvwxyz_0123456789", substr(rn[r], i, 1))) % 97
		printf("<g><title>%s: %d samples, %.2f%%</title>", esc(rn[r]), rx1[r] - rx0[r], 100 * (rx1[r] - rx0[r]) / x)
		printf("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>", 10 + rx0[r] * W / x, y, w, H - 1, k ? 200 + g % 55 : 205 + g % 50, k ? 120 + g : 60 + g, k ? 40 : 50)
		if (w > 40)
			printf("<text x=\"%.1f\" y=\"%d\">%s</text>", 13 + rx0[r] * W / x, y + 11, esc(substr(rn[r], 1, int((w - 6) / 7))))
		printf("</g>\n")
	}
	printf("</svg>\n")
}' "$out.folded" >"$out.svg"

# What the samples fell on; muxd's functions by their source file.
nm -l --defined-only "$B/muxd/muxd" 2>/dev/null |
    awk 'NF == 4 && $2 ~ /^[tT]$/ { f = $4; sub(/:[0-9]+$/, "", f); sub(/.*\//, "", f); print $3, f }' >"$T/srcs"
awk -v secs="$SECS" -v links="$LINKS" '
# The part a frame belongs to, by its name and its object.
function part(s,   o, n, w, k, i) {
	if (s ~ /_\[k\]$/) {
		if (s ~ /^(tty|n_tty|pty|ldsem|__tty|tty_)/) return "kernel: tty and pty"
		if (s ~ /(epoll|ep_|poll)/) return "kernel: event polling"
		return "kernel: the rest"
	}
	o = from[s]
	if (o ~ /^libevent/) return "libevent"
	if (o ~ /^libsodium/) return "libsodium"
	if (o ~ /^(libc|ld-linux)/ || s ~ /@plt$/ || s ~ /^__(GI_|mem|str|vdso)/) return "libc"
	if (o != "muxd") return o
	if (s in src) return "muxd: " src[s]
	# a function nm gave no line: the file its name begins with
	n = split(s, w, "_")
	for (k = n - 1; k >= 1; k--) {
		o = w[1]
		for (i = 2; i <= k; i++) o = o "-" w[i]
		if ((o ".c") in files) return "muxd: " o ".c"
	}
	return "muxd: " s "()"
}
FILENAME == objs { from[$1] = $2; next }
FILENAME == srcs { src[$1] = $2; files[$2] = 1; next }
{
	c = $NF
	st = substr($0, 1, length($0) - length(c) - 1)
	n = split(st, f, ";")
	leaf = f[n]
	self[leaf] += c
	byp[part(leaf)] += c
	total += c
}
END {
	printf("flame: %d samples of muxd in %s s (%d links, 960 B/s each way, 1-byte writes)\n", total, secs, links)
	printf("\nsamples by part (self)\n")
	for (p in byp) printf("  %6.1f%%  %s\n", 100 * byp[p] / total, p) | "sort -rn"
	close("sort -rn")
	printf("\nfunctions with the most samples of their own\n")
	for (s in self) printf("  %6.1f%%  %s\n", 100 * self[s] / total, s) | "sort -rn | head -25"
	close("sort -rn | head -25")
}' objs="$T/objs" srcs="$T/srcs" "$T/objs" "$T/srcs" "$out.folded"
echo
echo "flame: $out.svg, $out.folded"
sed -n 's/^/flame: probe: /p' "$T/probe.out" | tr ' ' '\n' |
    grep -E '^(flame: probe: )?(cpu_pct|share|p50|p99|lost)=' | tr '\n' ' '
echo
