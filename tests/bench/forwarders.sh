#!/bin/sh
# Benchmark: muxd against its references, side by side in one run.  The
# probe (ptybench) makes the pty pairs, plays both ends of every
# link and watches the forwarder through /proc; fwd starts the forwarder:
#   baseline    no forwarder: one pty hop, the kernel's own cost
#   minifwd     the floor: a minimal poll() forwarder, two pty hops and
#               one wake-up per chunk (minifwd+log: a text line per byte;
#               minifwd+epoll, in the CPU rows: minifwd waiting with
#               epoll, level-triggered, as libevent's loop (muxd's) and
#               ser2net's do)
#   socat       socat between the two slaves
#   ser2net     ser2net with its defaults, a serial device on each side
#               (ser2net-now, in the CPU rows: with chardelay off, each
#               byte sent as it comes, as the contest's rules want,
#               where the default holds a byte 1 ms or more for more)
#   muxd quick  muxd --link a b
#   muxd room   muxd -f room.conf with a round started by muxctl: rules,
#               captures and transcripts on; the judges' programs draw
#               the 1996 convention themselves (comprog --local-echo,
#               rules convention = false), so muxd forwards each byte
#               once, as the others do
#   muxd room+echo  the same room with muxd echoing the judge (its
#               default, the 1996 convention), against its own floor
#               minifwd+echo: minifwd -e -l, which echoes a and logs
#   muxd links  500 links in one muxd, more than a room's 99 judge
#               stations hold: manual links made with muxctl, captured
#               and transcribed, without the rules
# Every figure is printed with its ratio to the floor (xfl) and to the
# baseline (xbl) measured in the same run; muxd's targets
# follow as "benchmark measured reference" lines.  A target
# missed is shown and makes the exit status 1; timing is never a test.
#   sh tests/bench/forwarders.sh BUILDDIR
# BENCH_FULL=1 for the full sizes (several times as long as the 11 minutes
# of the default);
# BENCH_SMOKE=1 checks the harness in two minutes, its figures meaningless
# (make check does, in the scenario bench-harness).
# BENCH_PHASES runs only the phases it names, of latency lockstep line bulk
# cpu idle scaling (all by default), and tells only their tables and
# targets: BENCH_PHASES=cpu for the CPU rows alone; BENCH_CPU_ROUNDS and
# BENCH_CPU_S change the CPU rows' rounds and their seconds.
set -u
B=${1:-build}
PB=$B/tests/bench/ptybench
. tests/bench/common
bench_start forwarders "$PB" "$B/tests/bench/minifwd" "$B/muxd/muxd" \
    "$B/muxctl/muxctl"
R=$T/results
: >"$R"

if [ -n "${BENCH_SMOKE:-}" ]; then	# the harness itself, figures meaningless
	NLAT=1000 NLAT_S2N=200 NLINE=4 BULK_S=0.5 CPU_S=0.5 IDLE_S=1 SCALE_S=0.5 SCALE_W=0.5
	LAT_ROUNDS=2 CPU_ROUNDS=3 BULK_ROUNDS=1 NLOCK=1000 NLOCK_S2N=100 LOCK_ROUNDS=2
	SCALE_ROUNDS=2
elif [ -n "${BENCH_FULL:-}" ]; then
	NLAT=100000 NLAT_S2N=20000 NLINE=100 BULK_S=5 CPU_S=5 IDLE_S=10 SCALE_S=10 SCALE_W=5
	LAT_ROUNDS=10 CPU_ROUNDS=7 BULK_ROUNDS=5 NLOCK=100000 NLOCK_S2N=5000 LOCK_ROUNDS=10
	SCALE_ROUNDS=5
else
	NLAT=20000 NLAT_S2N=4000 NLINE=40 BULK_S=2 CPU_S=1.5 IDLE_S=10 SCALE_S=2 SCALE_W=2
	LAT_ROUNDS=4 CPU_ROUNDS=5 BULK_ROUNDS=3 NLOCK=30000 NLOCK_S2N=1500 LOCK_ROUNDS=5
	SCALE_ROUNDS=3
fi
GAPS=20,300
TURN_CHARS=40	# turns: keys a line, each side
CPU_ROUNDS=${BENCH_CPU_ROUNDS:-$CPU_ROUNDS}
CPU_S=${BENCH_CPU_S:-$CPU_S}
PHASES=${BENCH_PHASES:-latency lockstep line bulk cpu idle scaling}
for p in $PHASES; do
	case $p in
	latency|lockstep|line|bulk|cpu|idle|scaling) ;;
	*) echo "forwarders: BENCH_PHASES: no phase $p (latency lockstep line bulk cpu idle scaling)"
	   exit 2 ;;
	esac
done
# Whether phase $1 runs.
ran() {
	case " $PHASES " in *" $1 "*) return 0 ;; esac
	return 1
}

command -v socat >/dev/null || { echo "forwarders: socat not installed"; exit 1; }
FWDS="minifwd socat ser2net muxd-quick muxd-room"
ECHOS="minifwd-echo muxd-echo"	# echoing the judge: latency, line, CPU
CPUX=ser2net-now		# in the CPU rows alone
if ! command -v ser2net >/dev/null; then
	FWDS="minifwd socat muxd-quick muxd-room"
	CPUX=
	echo "forwarders: ser2net not installed (apt-get install ser2net); its column is empty"
fi
started=$(date +%s)
phases=
# Note how long the phase that just ended took.
phase() {
	_now=$(date +%s)
	phases="$phases $1 $((_now - ${_last:-$started})) s,"
	_last=$_now
}
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# The rounds 1 to $1, one a line.
rounds() {
	_i=1
	while [ $_i -le "$1" ]; do
		echo $_i
		_i=$((_i + 1))
	done
}

# A list in the order for round $1: as given in odd rounds, reversed in
# even ones, so that a disturbance (another tenant holding a CPU for a
# while) does not fall on one forwarder alone.
inorder() {
	_r=$1
	shift
	if [ $((_r % 2)) = 1 ]; then
		echo "$@"
	else
		echo "$@" | tr ' ' '\n' | sed '1!G;h;$!d' | tr '\n' ' '
	fi
}

# Keep, as KEY, the figures of the round of KEY.1, KEY.2 ... whose METRIC
# is the median of them (bulk: MB/s both ways; cpu: CPU time per byte
# moved), so that a round in which another tenant held a CPU does not
# decide the figure; the bytes offered, delivered, lost and wrong are
# those of all the rounds added up.  Bulk also keeps the lowest and
# highest round (lo, hi: MB/s each way), to show how far apart they were.
median_round() {
	awk -v k="$1" -v metric="$2" '
	function value(r) {
		if (metric == "cpu")
			return (x[r, "moved"] > 0 ? x[r, "cpu_ns"] / x[r, "moved"] : -1)
		return (x[r, "ab"] + x[r, "ba"])
	}
	$1 ~ "^" k "\\.[0-9]+$" {
		x[$1, $2] = $3; t[$2] += $3
		if (!($1 in seen)) { seen[$1]; rk[++n] = $1 }
	}
	END {
		if (n == 0) exit
		for (i = 1; i <= n; i++) {
			v = value(rk[i])
			for (j = i - 1; j >= 1 && m[j] > v; j--) { m[j + 1] = m[j]; o[j + 1] = o[j] }
			m[j + 1] = v; o[j + 1] = rk[i]
		}
		r = o[int((n + 1) / 2)]
		if (metric == "cpu" && (r, "cpu_ns") in x) {
			printf("%s cpu_ns_per_byte %.1f\n", k, value(r))
			printf("%s cpu_pct %.2f\n", k, x[r, "cpu_pct"])
			if ((r, "probe_lag") in x)
				printf("%s probe_lag %s\n", k, x[r, "probe_lag"])
			if ((r, "lines") in x)
				printf("%s lines %s\n", k, x[r, "lines"])
			printf("%s share %.4f\n", k, t["offered"] > 0 ? t["delivered"] / t["offered"] : 0)
		} else if (metric == "bulk" && (r, "ab") in x) {
			printf("%s ab %s\n%s ba %s\n", k, x[r, "ab"], k, x[r, "ba"])
			printf("%s lo %.2f\n%s hi %.2f\n", k, m[1] / 2, k, m[n] / 2)
			if ((r, "cpu_ns_per_byte") in x)
				printf("%s cpu_ns_per_byte %s\n", k, x[r, "cpu_ns_per_byte"])
		}
		printf("%s lost %d\n%s errors %d\n", k, t["lost"] + t["failed"], k, t["errors"])
	}' "$R" >"$T/median"
	cat "$T/median" >>"$R"
}

# Pool the samples of KEY's rounds ($T/samples.KEY.ROUND, ns one a line)
# and keep their percentiles as KEY's figures.
pool() {
	[ -n "$(ls "$T/samples.$1".* 2>/dev/null)" ] || return 0
	cat "$T/samples.$1".* >"$T/samples.$1"
	"$PB" stats "$T/samples.$1" |
	    tr ' ' '\n' | sed -n "s/^\([a-z_0-9]*\)=\(.*\)/$1 \1 \2/p" >>"$R"
}

# Latency, in rounds that share the samples.
ran latency && for round in $(rounds $LAT_ROUNDS); do
	for pin in u p; do
		# shellcheck disable=SC2086
		for f in $(inorder "$round" baseline $FWDS $ECHOS); do
			n=$((NLAT / LAT_ROUNDS))
			[ "$f" = ser2net ] && n=$((NLAT_S2N / LAT_ROUNDS))
			bench_probe "lat.$pin.$f.$round" $pin lat "$f" 1 -n $n -g $GAPS \
			    -o "$T/samples.lat.$pin.$f.$round"
		done
	done
done
for pin in u p; do
	for f in baseline $FWDS $ECHOS; do
		pool "lat.$pin.$f"
	done
done
ran latency && phase latency

# Lockstep: a byte written at one end, the next once it has been read at
# the other, the directions alternating, no gap; in rounds that share
# the samples.
ran lockstep && for round in $(rounds $LOCK_ROUNDS); do
	for pin in u p; do
		# shellcheck disable=SC2086
		for f in $(inorder "$round" baseline $FWDS); do
			n=$((NLOCK / LOCK_ROUNDS))
			[ "$f" = ser2net ] && n=$((NLOCK_S2N / LOCK_ROUNDS))
			bench_probe "lock.$pin.$f.$round" $pin lock "$f" 1 -n $n \
			    -o "$T/samples.lock.$pin.$f.$round"
		done
	done
done
for pin in u p; do
	for f in baseline $FWDS; do
		pool "lock.$pin.$f"
	done
done
ran lockstep && phase lockstep

# A line typed key by key, each after its echo; in rounds that share the
# lines.
n=$((NLINE / LAT_ROUNDS))
[ $n -ge 1 ] || n=1
ran line && for round in $(rounds $LAT_ROUNDS); do
	for pin in u p; do
		# shellcheck disable=SC2086
		for f in $(inorder "$round" baseline $FWDS $ECHOS); do
			bench_probe "line.$pin.$f.$round" $pin line "$f" 1 -n $n \
			    -o "$T/samples.line.$pin.$f.$round"
		done
	done
done
for pin in u p; do
	for f in baseline $FWDS $ECHOS; do
		pool "line.$pin.$f"
	done
done
ran line && phase line

# Bulk both ways at once, every byte checked; in rounds, of which the
# median is kept.  Unpinned, and split (the probe and the forwarder each
# on a CPU of its own): unpinned, the figure also depends on how often the
# scheduler puts the forwarder on the probe's CPU.
BULK_PINS=u
[ "$(nproc)" -ge 2 ] && BULK_PINS="u s"
ran bulk && for round in $(rounds $BULK_ROUNDS); do
	for pin in $BULK_PINS; do
		# shellcheck disable=SC2086
		for f in $(inorder "$round" baseline minifwd-log $FWDS); do
			bench_probe "bulk.$pin.$f.$round" $pin bulk "$f" 1 -t $BULK_S
		done
	done
done
for pin in $BULK_PINS; do
	for f in baseline minifwd-log $FWDS; do
		median_round "bulk.$pin.$f" bulk
	done
done
ran bulk && phase bulk

# CPU per byte at 960 bytes/s (9600 baud), one link, unpinned and
# pinned, in rounds of which the median is kept, in two patterns: byte
# by byte (rate: each way at once, 1-byte writes, the streams
# interleaving, so that a room that draws the convention draws the
# judge's line again for every key of the judge's) and in turns (turn:
# the judge types a line of $TURN_CHARS keys and CR, the entity answers
# with as many and CR LF, each once the other's line has arrived, a key
# every 1/960 s: a prompt a line, as in a contest).  A round runs every forwarder in both.
ran cpu && for round in $(rounds $CPU_ROUNDS); do
	for pin in u p; do
		# shellcheck disable=SC2086
		for f in $(inorder "$round" minifwd-log minifwd-epoll $FWDS $CPUX $ECHOS); do
			bench_probe "cpu.$pin.$f.$round" $pin rate "$f" 1 -r 960 -w 1 \
			    -t $CPU_S -o "$T/cpu.$pin.$f.$round"
			[ "$f" = minifwd-log ] && continue
			bench_probe "turn.$pin.$f.$round" $pin turn "$f" 1 -r 960 \
			    -c $TURN_CHARS -t $CPU_S -o "$T/turn.$pin.$f.$round"
		done
	done
done
for pin in u p; do
	for f in minifwd-log minifwd-epoll $FWDS $CPUX $ECHOS; do
		for m in cpu turn; do
			k=$m.$pin.$f
			[ -s "$T/$k.$CPU_ROUNDS" ] || continue
			cat "$T/$k".* >"$T/$k"
			"$PB" stats "$T/$k" |
			    tr ' ' '\n' | sed -n "s/^\([a-z_0-9]*\)=\(.*\)/$k \1 \2/p" >>"$R"
			median_round "$k" cpu
			case $f in
			minifwd|minifwd-echo) ;;
			*-echo) bench_paired "$k" "$m.$pin.minifwd-echo" "$R" ;;
			*) bench_paired "$k" "$m.$pin.minifwd" "$R" ;;
			esac
		done
	done
done
ran cpu && phase cpu

# Idle, every forwarder at once (an idle process wakes only for itself).
ran idle && for f in $FWDS; do
	for l in 1 128; do
		bench_probe "idle.$l.$f" u idle "$f" $l -t $IDLE_S &
	done
done
wait
ran idle && phase idle

# Scaling in one process: 8, 32 and 128 links at 960 bytes/s each way;
# then 500 links in one room: a room has at most 99 judge stations, so
# these are manual links (muxd-links: captures and transcripts, no
# rules).  The rows with targets against ser2net (128 and 500 links of
# 16-byte writes) in rounds, the forwarders in turn; the latency of a
# row is that of its rounds' samples together, its CPU the median round.
scale_row() {
	_l=$1 _w=$2 _r=$3
	shift 3
	# shellcheck disable=SC2046
	for _f in $(inorder "$_r" "$@"); do
		case " $FWDS muxd-links " in *" $_f "*) ;; *) continue ;; esac
		bench_probe "scale.$_f.$_l.$_w.$_r" u rate "$_f" "$_l" -r 960 -w "$_w" \
		    -t $SCALE_S -W $SCALE_W -o "$T/samples.scale.$_f.$_l.$_w.$_r"
	done
}
ran scaling && for l in 8 32 128; do
	for w in 1 16; do
		scale_row $l $w 1 minifwd ser2net ${BENCH_FULL:+muxd-quick} muxd-room
	done
done
ran scaling && scale_row 500 16 1 minifwd ser2net muxd-links
ran scaling && for round in $(rounds $SCALE_ROUNDS); do
	[ "$round" = 1 ] && continue
	scale_row 128 16 "$round" minifwd ser2net muxd-room
	scale_row 500 16 "$round" minifwd ser2net muxd-links
done
for k in $(sed -n 's/^\(scale\.[^ ]*\)\.[0-9]* share .*/\1/p' "$R" | sort -u); do
	pool "$k"
	median_round "$k" cpu
done

ran scaling && phase scaling

# The spread of each of muxd room's targets against its peers over the
# rounds (bench_spread): OUT is "vs.MODE.PEER".
for peer in socat ser2net $CPUX; do
	bench_spread "vs.lat.$peer" lat.p.muxd-room "lat.p.$peer" p50 "$R"
	bench_spread "vs.lock.$peer" lock.p.muxd-room "lock.p.$peer" p50 "$R"
	bench_spread "vs.line.$peer" line.p.muxd-room "line.p.$peer" p50 "$R"
	bench_spread "vs.cpuu.$peer" cpu.u.muxd-room "cpu.u.$peer" cpu "$R"
	bench_spread "vs.cpup.$peer" cpu.p.muxd-room "cpu.p.$peer" cpu "$R"
	bench_spread "vs.turnu.$peer" turn.u.muxd-room "turn.u.$peer" cpu "$R"
	bench_spread "vs.turnp.$peer" turn.p.muxd-room "turn.p.$peer" cpu "$R"
done
bench_spread vs.s128p99.ser2net scale.muxd-room.128.16 scale.ser2net.128.16 p99 "$R"
bench_spread vs.s128cpu.ser2net scale.muxd-room.128.16 scale.ser2net.128.16 cpu_pct "$R"
bench_spread vs.s500p99.ser2net scale.muxd-links.500.16 scale.ser2net.500.16 p99 "$R"
bench_spread vs.s500cpu.ser2net scale.muxd-links.500.16 scale.ser2net.500.16 cpu_pct "$R"
took=$(( $(date +%s) - started ))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)

awk -v fwds="$FWDS" -v cpux="$CPUX" -v echos="$ECHOS" -v phasesrun="$PHASES" -v turnc=$TURN_CHARS -v nlat=$NLAT -v nlat2=$NLAT_S2N -v gaps=$GAPS \
    -v nlock=$NLOCK -v nlock2=$NLOCK_S2N -v lockr=$LOCK_ROUNDS -v scaler=$SCALE_ROUNDS \
    -v nline=$NLINE -v bulks=$BULK_S -v bulkr=$BULK_ROUNDS -v cpus=$CPU_S -v cpur=$CPU_ROUNDS -v latr=$LAT_ROUNDS -v idles=$IDLE_S \
    -v scales=$SCALE_S -v scalew=$SCALE_W -v took=$took -v phases="${phases%,}" -v load0="$load0" -v load1="$load1" \
    -v machine="$(nproc) CPUs, $cpu, Linux $(uname -r)" '
function has(k, f) { return ((k, f) in r) }
# Whether phase p ran (BENCH_PHASES).
function ran(p) { return index(" " phasesrun " ", " " p " ") > 0 }
# The forwarders with minifwd+log after minifwd.
function with_log(l) { sub(/minifwd/, "minifwd minifwd-log", l); return (l) }
# The forwarders with minifwd+epoll after minifwd.
function with_epoll(l) { sub(/minifwd/, "minifwd minifwd-epoll", l); return (l) }
# The forwarders with ser2net-now after ser2net (in the CPU rows).
function with_now(l) { if (cpux != "") sub(/ser2net/, "ser2net " cpux, l); return (l) }
function v(k, f) { return has(k, f) ? r[k, f] + 0 : -1 }
# The floor of a forwarder: minifwd, or minifwd+echo for one that echoes.
function floor(f) { return f ~ /-echo$/ ? "minifwd-echo" : "minifwd" }
# CPU per byte against the floor: the median of the ratios of the rounds (xfl,
# bench_paired), or the ratio of the median rounds for the floor itself.
function cpu_ratio(k, fk) {
	if (has(k, "xfl")) return v(k, "xfl")
	if (v(k, "cpu_ns_per_byte") < 0 || v(fk, "cpu_ns_per_byte") <= 0) return -1
	return v(k, "cpu_ns_per_byte") / v(fk, "cpu_ns_per_byte")
}
function cpu_xfl(k, fk) { return cpu_ratio(k, fk) < 0 ? sprintf("%6s", "-") : sprintf("%6.2f", cpu_ratio(k, fk)) }
# A figure in 7 columns, with 3 significant digits or so.
function num(x) {
	if (x < 0) return sprintf("%7s", "-")
	if (x < 10) return sprintf("%7.2f", x)
	if (x < 1000) return sprintf("%7.1f", x)
	return sprintf("%7.0f", x)
}
# A ratio in 6 columns.
function rat(x, y) {
	if (x < 0 || y <= 0) return sprintf("%6s", "-")
	if (x / y >= 100) return sprintf("%6.0f", x / y)
	return sprintf("%6.2f", x / y)
}
function name(f) {
	if (f == "muxd-quick") return "muxd quick"
	if (f == "muxd-room") return "muxd room"
	if (f == "minifwd-log") return "minifwd+log"
	if (f == "minifwd-echo") return "minifwd+echo"
	if (f == "minifwd-epoll") return "minifwd+epoll"
	if (f == "muxd-echo") return "muxd room+echo"
	if (f == "muxd-links") return "muxd links"
	return f
}
# One target line: what, measured text, reference text, met.
function target(what, got, ref, ok) {
	printf("%-44s %-22s %-20s %-17s %-7s %s\n", what, got, ref, "", "", ok ? "ok" : "MISSED")
	if (!ok) missed++
}
# A figure in its unit: us, ms (kept in us), cpu (ns a byte, told in us), %.
function fig(x, u) {
	if (x < 0) return "-"
	if (u == "ms") return sprintf("%.2f ms", x / 1000)
	if (u == "cpu") return sprintf("%.1f us/B", x / 1000)
	if (u == "%") return sprintf("%.1f%%", x)
	return sprintf("%.1f us", x)
}
# A target of muxd room at or below a peer: METRIC of KEY against PEER,
# the ratio of the whole run deciding, those of the rounds (bench_spread, OUT)
# telling whether it is beyond their noise.
function vs(what, k, pk, metric, out, peer, u,    x, y, ok, lo, hi, noise) {
	x = v(k, metric); y = v(pk, metric)
	ok = x >= 0 && y > 0 && x <= y
	lo = v(out, "spread_lo"); hi = v(out, "spread_hi")
	if (lo < 0) noise = "-"
	else if ((ok && hi <= 1) || (!ok && lo > 1)) noise = "beyond"
	else noise = "within"
	printf("%-44s %-22s %-20s %-17s %-7s %s\n", what ": " peer, sprintf("%s %s", fig(x, u), y > 0 && x >= 0 ? sprintf("%.2fx", x / y) : "-"), peer " " fig(y, u), lo < 0 ? "-" : sprintf("%.2f-%.2f %d/%d", lo, hi, v(out, "spread_above"), v(out, "spread_n")), noise, ok ? "ok" : "MISSED")
	if (!ok) missed++
}
{ r[$1, $2] = $3 }
END {
	nf = split(fwds " " echos, F, " ")
	printf("\nforwarders: muxd against its references, one run: %s\n", machine)
	printf("  load average %s at the start, %s at the end; %d s:%s\n", load0, load1, took, phases)
	printf("  xfl: ratio to the floor (minifwd; for a forwarder that echoes the judge, minifwd+echo: minifwd -e -l, which also\n")
	printf("  echoes and logs each byte); xbl: ratio to the baseline (no forwarder, one pty hop); minifwd+epoll (CPU rows):\n")
	printf("  minifwd waiting with epoll, level-triggered, as libevent'"'"'s loop (muxd'"'"'s) and ser2net'"'"'s do, in place of poll\n")
	printf("  muxd room: rules and recording on, the judges'"'"' programs drawing the 1996 convention (comprog --local-echo), so muxd\n")
	printf("  forwards each byte once, as the others do; muxd room+echo: muxd draws the convention (its default): prompts, the\n")
	printf("  echo of the judge'"'"'s bytes (one more pty write for each), the judge'"'"'s line again when the entity interrupts it\n")

	if (ran("latency")) {
	printf("\none-way latency per byte, us: %d samples (ser2net %d) in %d rounds, gaps uniform in %s us, directions alternating every 50\n", nlat, nlat2, latr, gaps)
	printf("pinned: taskset -c 0 for everything\n")
	printf("%-24s", "")
	split("p50 p90 p99 p999", P, " ")
	split("p50 p90 p99 p99.9", PN, " ")
	for (i = 1; i <= 4; i++) printf("  %-19s", PN[i])
	printf("\n%-24s", "")
	for (i = 1; i <= 4; i++) printf("  %7s%6s%6s", "us", "xfl", "xbl")
	printf("\n")
	for (pi = 1; pi <= 2; pi++) {
		pin = pi == 1 ? "u" : "p"
		for (j = 0; j <= nf; j++) {
			f = j == 0 ? "baseline" : F[j]
			k = "lat." pin "." f
			printf("%-9s %-14s", j == 0 ? (pi == 1 ? "unpinned" : "pinned") : "", name(f))
			for (i = 1; i <= 4; i++)
				printf("  %s%s%s", num(v(k, P[i]) ), rat(v(k, P[i]), v("lat." pin "." floor(f), P[i])), rat(v(k, P[i]), v("lat." pin ".baseline", P[i])))
			printf("\n")
		}
	}

	}

	if (ran("lockstep")) {
	printf("\nlockstep: a byte written at one end, the next once it has been read at the other, directions alternating, no gap;\n")
	printf("us per byte, %d samples (ser2net %d) in %d rounds, the forwarders in turn; pinned: taskset -c 0 for everything\n", nlock, nlock2, lockr)
	printf("%-24s", "")
	for (i = 1; i <= 4; i++) printf("  %-19s", PN[i])
	printf("\n%-24s", "")
	for (i = 1; i <= 4; i++) printf("  %7s%6s%6s", "us", "xfl", "xbl")
	printf("\n")
	nfw = split(fwds, FW, " ")
	for (pi = 1; pi <= 2; pi++) {
		pin = pi == 1 ? "u" : "p"
		for (j = 0; j <= nfw; j++) {
			f = j == 0 ? "baseline" : FW[j]
			k = "lock." pin "." f
			printf("%-9s %-14s", j == 0 ? (pi == 1 ? "unpinned" : "pinned") : "", name(f))
			for (i = 1; i <= 4; i++)
				printf("  %s%s%s", num(v(k, P[i]) ), rat(v(k, P[i]), v("lock." pin ".minifwd", P[i])), rat(v(k, P[i]), v("lock." pin ".baseline", P[i])))
			printf("\n")
		}
	}

	}

	if (ran("line")) {
	printf("\n40 keys typed one at a time, each after its echo, ms from the first key to the last echo (median of %d lines in %d rounds)\n", nline, latr)
	printf("echo: by the far end of the link (the probe), by the forwarder itself in the +echo rows\n")
	printf("%-24s  %-19s  %-19s\n", "", "unpinned", "pinned")
	printf("%-24s  %7s%6s%6s  %7s%6s%6s\n", "", "ms", "xfl", "xbl", "ms", "xfl", "xbl")
	for (j = 0; j <= nf; j++) {
		f = j == 0 ? "baseline" : F[j]
		printf("%-24s", name(f))
		for (pi = 1; pi <= 2; pi++) {
			pin = pi == 1 ? "u" : "p"
			x = v("line." pin "." f, "p50")
			printf("  %s%s%s", num(x < 0 ? x : x / 1000), rat(x, v("line." pin "." floor(f), "p50")), rat(x, v("line." pin ".baseline", "p50")))
		}
		printf("\n")
	}

	}

	if (ran("bulk")) {
	printf("\nbulk both ways at once for %s s, MB/s each way, every byte checked; the median of %d rounds\n", bulks, bulkr)
	printf("rounds: the lowest and highest round, MB/s each way; ns/byte: CPU time of the forwarder per byte moved\n")
	if (has("bulk.s.baseline", "ab"))
		printf("split: the probe on CPU 0, the forwarder on CPU 1 (unpinned, the scheduler may put them on one CPU)\n")
	printf("%-10s%-18s  %7s %7s%6s%6s  %-13s %7s%6s  %s\n", "", "", "a->b", "b->a", "xfl", "xbl", "rounds", "ns/byte", "xfl", "check")
	nb = split("baseline " with_log(fwds), BF, " ")
	for (pi = 1; pi <= 2; pi++) {
		pin = pi == 1 ? "u" : "s"
		if (!has("bulk." pin ".baseline", "ab"))
			continue
		cfl = v("bulk." pin ".minifwd", "cpu_ns_per_byte")
		fl = (v("bulk." pin ".minifwd", "ab") + v("bulk." pin ".minifwd", "ba")) / 2
		bl = (v("bulk." pin ".baseline", "ab") + v("bulk." pin ".baseline", "ba")) / 2
		for (j = 1; j <= nb; j++) {
			f = BF[j]
			k = "bulk." pin "." f
			lab = j == 1 ? (pi == 1 ? "unpinned" : "split") : ""
			if (!has(k, "ab")) { printf("%-10s%-18s  failed\n", lab, name(f)); continue }
			x = (v(k, "ab") + v(k, "ba")) / 2
			chk = v(k, "lost") == 0 && v(k, "errors") == 0 ? "exact" : sprintf("%d bytes lost, %d wrong", v(k, "lost"), v(k, "errors"))
			c = f == "baseline" ? "" : sprintf("%7.2f%s", v(k, "cpu_ns_per_byte"), rat(v(k, "cpu_ns_per_byte"), cfl))
			printf("%-10s%-18s  %s %s%s%s  %-13s %13s  %s\n", lab, name(f), num(v(k, "ab")), num(v(k, "ba")), rat(x, fl), rat(x, bl), sprintf("%.1f-%.1f", v(k, "lo"), v(k, "hi")), c, chk)
		}
	}

	}

	if (ran("cpu")) {
	printf("\nCPU at 960 bytes/s each way (9600 baud), one link, 1-byte writes, median of %d rounds of %s s; latency from when each byte was due\n", cpur, cpus)
	printf("us/byte: the median round; its xfl: the median of the ratios of each round to the floor run in the same round\n")
	printf("the two streams of the link write half an interval apart: every byte is a wake-up of its own, and the streams\n")
	printf("interleave byte by byte, so muxd room+echo draws the judge'"'"'s line again for each of the judge'"'"'s keys: a worst\n")
	printf("case for a room that draws the convention, no contest'"'"'s pattern (turns, below, are)\n")
	printf("%-24s  %7s%6s %6s   %7s %7s %7s%6s  %s\n", "", "us/byte", "xfl", "CPU %", "p50 us", "p99", "p99.9", "xfl", "delivered")
	nc = split(with_now(with_epoll(with_log(fwds))) " " echos, CF, " ")
	for (pi = 1; pi <= 2; pi++) for (j = 1; j <= nc; j++) {
		pin = pi == 1 ? "u" : "p"
		f = CF[j]
		k = "cpu." pin "." f
		fk = "cpu." pin "." floor(f)
		lab = sprintf("%-9s %-14s", j == 1 ? (pi == 1 ? "unpinned" : "pinned") : "", name(f))
		if (!has(k, "cpu_ns_per_byte")) { printf("%-24s  failed\n", lab); continue }
		printf("%-24s  %s%s %6.2f   %s %s %s%s  %.2f%%%s\n", lab, num(v(k, "cpu_ns_per_byte") / 1000), cpu_xfl(k, fk), v(k, "cpu_pct"), num(v(k, "p50")), num(v(k, "p99")), num(v(k, "p999")), rat(v(k, "p99"), v(fk, "p99")), 100 * v(k, "share"), v(k, "lost") + v(k, "errors") > 0 ? sprintf(", %d lost, %d wrong", v(k, "lost"), v(k, "errors")) : "")
	}

	printf("\nCPU at 960 bytes/s in turns: the judge types a line of %d keys and CR, the entity answers with as many and CR LF,\n", turnc)
	printf("each once the other'"'"'s line has arrived, a key every 1/960 s; one link, median of %d rounds of %s s (the rounds of\n", cpur, cpus)
	printf("the table above); muxd room+echo draws a prompt once a line, as in a contest; latency from when each key was due\n")
	printf("%-24s  %7s%6s %6s   %7s %7s %7s%6s  %-9s  %s\n", "", "us/byte", "xfl", "CPU %", "p50 us", "p99", "p99.9", "xfl", "delivered", "lines")
	nc = split(with_now(with_epoll(fwds)) " " echos, CF, " ")
	for (pi = 1; pi <= 2; pi++) for (j = 1; j <= nc; j++) {
		pin = pi == 1 ? "u" : "p"
		f = CF[j]
		k = "turn." pin "." f
		fk = "turn." pin "." floor(f)
		lab = sprintf("%-9s %-14s", j == 1 ? (pi == 1 ? "unpinned" : "pinned") : "", name(f))
		if (!has(k, "cpu_ns_per_byte")) { printf("%-24s  failed\n", lab); continue }
		printf("%-24s  %s%s %6.2f   %s %s %s%s  %8.2f%%  %5d%s\n", lab, num(v(k, "cpu_ns_per_byte") / 1000), cpu_xfl(k, fk), v(k, "cpu_pct"), num(v(k, "p50")), num(v(k, "p99")), num(v(k, "p999")), rat(v(k, "p99"), v(fk, "p99")), 100 * v(k, "share"), v(k, "lines"), v(k, "lost") + v(k, "errors") > 0 ? sprintf(", %d lost, %d wrong", v(k, "lost"), v(k, "errors")) : "")
	}
	}

	if (ran("idle")) {
	printf("\nwake-ups per second while idle (context switches of the forwarder'"'"'s processes over %s s)\n", idles)
	printf("%-20s  %8s  %8s\n", "", "1 link", "128 links")
	for (j = 1; j <= nf; j++) {
		if (index(" " fwds " ", " " F[j] " ") == 0) continue
		f = F[j]
		printf("%-20s  %8s  %8s%s\n", name(f), has("idle.1." f, "per_s") ? sprintf("%.2f", v("idle.1." f, "per_s")) : "failed", has("idle.128." f, "per_s") ? sprintf("%.2f", v("idle.128." f, "per_s")) : "failed", f == "socat" ? "   (one process per link)" : f == "muxd-room" ? "   (1 link: a station, 2 links)" : "")
	}

	}

	if (ran("scaling")) {
	printf("\nscaling in one process: links at 960 bytes/s each way, %s s after %s s of warm-up; latency (us) from when each byte was due\n", scales, scalew)
	printf("128 and 500 links x 16 B: %d rounds, the forwarders in turn, latency of the rounds together, CPU of the median round\n", scaler)
	printf("xfl: minifwd with the same load; delivered: bytes due in the window that arrived in it; probe late: bytes the probe\n")
	printf("itself wrote over 1 ms late (then the machine, not the forwarder, is the limit)\n")
	printf("%-24s  %7s %7s %7s %7s%6s  %6s %7s%6s  %9s %6s %6s\n", "", "p50", "p90", "p99", "p99.9", "xfl", "CPU %", "us/byte", "xfl", "delivered", "lost", "probe late")
	ns = split("minifwd ser2net muxd-quick muxd-room muxd-links", SF, " ")
	for (l = 8; l <= 500; l = l == 128 ? 500 : l * 4) for (w = 1; w <= 16; w += 15) for (j = 1; j <= ns; j++) {
		f = SF[j]
		if (index(" " fwds " muxd-links ", " " f " ") == 0) continue
		k = "scale." f "." l "." w
		fk = "scale.minifwd." l "." w
		lab = sprintf("%-11s %3d x %2d B", name(f), l, w)
		if (!has(k, "share")) {
			if (has(k, "failed")) printf("%-24s  failed\n", lab)
			continue
		}
		printf("%-24s  %s %s %s %s%s  %6.1f %s%s  %8.2f%% %6d %5.1f%%%s\n", lab, num(v(k, "p50")), num(v(k, "p90")), num(v(k, "p99")), num(v(k, "p999")), rat(v(k, "p99"), v(fk, "p99")), v(k, "cpu_pct"), num(v(k, "cpu_ns_per_byte") / 1000), rat(v(k, "cpu_ns_per_byte"), v(fk, "cpu_ns_per_byte")), 100 * v(k, "share"), v(k, "lost") + v(k, "errors"), 100 * v(k, "probe_lag"), v(k, "errors") > 0 ? " wrong bytes" : "")
	}

	}

	printf("\ntargets for muxd room (rules, captures and transcripts on; the judges'"'"' programs draw the convention)\n")
	printf("against a peer: the ratio of the whole run (pooled samples; CPU: the median round), then the lowest and highest\n")
	printf("ratio of the rounds (each round runs the forwarders in turn) and in how many of them muxd was above the peer;\n")
	printf("noise says whether every round agrees with the verdict (beyond) or the rounds fall on both sides of it (within)\n")
	printf("%-44s %-22s %-20s %-17s %-7s %s\n", "benchmark", "measured", "reference", "rounds", "noise", "")
	for (q = 1; q <= 3; q++) {
		peer = q == 1 ? "socat" : q == 2 ? "ser2net" : cpux
		if (peer == "" || index(" " fwds " " cpux " ", " " peer " ") == 0) continue
		if (ran("latency") && peer != cpux)
			vs("one-way p50, pinned", "lat.p.muxd-room", "lat.p." peer, "p50", "vs.lat." peer, peer, "us")
		if (ran("lockstep") && peer != cpux)
			vs("lockstep p50, pinned", "lock.p.muxd-room", "lock.p." peer, "p50", "vs.lock." peer, peer, "us")
		if (ran("line") && peer != cpux)
			vs("typed line p50, pinned", "line.p.muxd-room", "line.p." peer, "p50", "vs.line." peer, peer, "ms")
		if (!ran("cpu"))
			continue
		vs("CPU/B 960 B/s turns, unpinned", "turn.u.muxd-room", "turn.u." peer, "cpu_ns_per_byte", "vs.turnu." peer, peer, "cpu")
		vs("CPU/B 960 B/s turns, pinned", "turn.p.muxd-room", "turn.p." peer, "cpu_ns_per_byte", "vs.turnp." peer, peer, "cpu")
		vs("CPU/B byte by byte, unpinned", "cpu.u.muxd-room", "cpu.u." peer, "cpu_ns_per_byte", "vs.cpuu." peer, peer, "cpu")
		vs("CPU/B byte by byte, pinned", "cpu.p.muxd-room", "cpu.p." peer, "cpu_ns_per_byte", "vs.cpup." peer, peer, "cpu")
	}
	if (ran("scaling") && index(" " fwds " ", " ser2net ") != 0) {
		vs("128 links x 16 B: p99", "scale.muxd-room.128.16", "scale.ser2net.128.16", "p99", "vs.s128p99.ser2net", "ser2net", "us")
		vs("128 links x 16 B: CPU", "scale.muxd-room.128.16", "scale.ser2net.128.16", "cpu_pct", "vs.s128cpu.ser2net", "ser2net", "%")
		vs("500 links x 16 B: p99", "scale.muxd-links.500.16", "scale.ser2net.500.16", "p99", "vs.s500p99.ser2net", "ser2net", "us")
		vs("500 links x 16 B: CPU", "scale.muxd-links.500.16", "scale.ser2net.500.16", "cpu_pct", "vs.s500cpu.ser2net", "ser2net", "%")
	}
	if (ran("latency"))
		target("unpinned latency p99, one-way", sprintf("%.1f us", v("lat.u.muxd-room", "p99")), "< 1000 us (a byte at 9600)", v("lat.u.muxd-room", "p99") >= 0 && v("lat.u.muxd-room", "p99") < 1000)
	if (ran("lockstep"))
		target("unpinned latency p99, lockstep", sprintf("%.1f us", v("lock.u.muxd-room", "p99")), "< 1000 us (a byte at 9600)", v("lock.u.muxd-room", "p99") >= 0 && v("lock.u.muxd-room", "p99") < 1000)
	m = "lat.p.muxd-room"; fl = "lat.p.minifwd"
	if (ran("latency"))
		target("pinned latency p99, one-way", sprintf("%.1f us %.2fx", v(m, "p99"), v(m, "p99") / v(fl, "p99")), "<= 1.3x floor", v(m, "p99") >= 0 && v(m, "p99") <= 1.3 * v(fl, "p99"))
	if (ran("cpu"))
		target("no coalescing: p50 of a 960 B/s stream", sprintf("%.1f us", v("cpu.u.muxd-room", "p50")), "< 1042 us (a byte time)", v("cpu.u.muxd-room", "p50") >= 0 && v("cpu.u.muxd-room", "p50") < 1042)
	for (pi = 1; pi <= 2 && ran("bulk"); pi++) {
		pin = pi == 1 ? "u" : "s"
		bm = "bulk." pin ".muxd-quick"; bs = "bulk." pin ".socat"
		if (pin == "s" && !has(bs, "ab"))
			continue
		x = (v(bm, "ab") + v(bm, "ba")) / 2; y = (v(bs, "ab") + v(bs, "ba")) / 2
		target("bulk, muxd quick, " (pi == 1 ? "unpinned" : "split CPUs"), sprintf("%.1f MB/s %.2fx (%.1f-%.1f)", x, y > 0 ? x / y : 0, v(bm, "lo"), v(bm, "hi")), sprintf(">= 1.05x socat %.1f (%.1f-%.1f)", y, v(bs, "lo"), v(bs, "hi")), x >= 1.05 * y && v(bm, "lost") == 0)
	}
	bm = "bulk.u.muxd-room"
	x = v(bm, "ab") < v(bm, "ba") ? v(bm, "ab") : v(bm, "ba")
	y = (v("bulk.u.minifwd-log", "ab") + v("bulk.u.minifwd-log", "ba")) / 2
	if (ran("bulk"))
		target("bulk, muxd room, slower direction", sprintf("%.2f MB/s", x), sprintf(">= minifwd+log %.1f MB/s", y), x >= y && v(bm, "lost") == 0)
	if (ran("idle"))
		target("idle wake-ups, 1 link", sprintf("%.2f /s", v("idle.1.muxd-room", "per_s")), "0 (< 1 in the window)", has("idle.1.muxd-room", "per_s") && v("idle.1.muxd-room", "wakeups") < 1)
	if (ran("idle"))
		target("idle wake-ups, 128 links", sprintf("%.2f /s", v("idle.128.muxd-room", "per_s")), "0 (< 1 in the window)", has("idle.128.muxd-room", "per_s") && v("idle.128.muxd-room", "wakeups") < 1)
	k = "scale.muxd-room.128.16"
	if (ran("scaling"))
		target("128 links x 16 B: delivered", sprintf("%.2f%%, %d lost", 100 * v(k, "share"), v(k, "lost") + v(k, "errors")), "all, in time (>= 99%)", v(k, "share") >= 0.99 && v(k, "lost") == 0 && v(k, "errors") == 0)
	k = "scale.muxd-links.500.16"
	if (ran("scaling"))
		target("500 links x 16 B: delivered", sprintf("%.2f%%, %d lost", 100 * v(k, "share"), v(k, "lost") + v(k, "errors")), "all, in time (>= 99%)", v(k, "share") >= 0.99 && v(k, "lost") == 0 && v(k, "errors") == 0)
	k = "scale.muxd-room.32.1"
	if (ran("scaling"))
		target("32 links x 1 B: loss", sprintf("%d lost, %.2f%%", v(k, "lost") + v(k, "errors"), 100 * v(k, "share")), "none", has(k, "lost") && v(k, "lost") == 0 && v(k, "errors") == 0)
	m = "lat.p.muxd-echo"; fl = "lat.p.minifwd-echo"
	if (ran("latency"))
		target("muxd room+echo: pinned latency p50", sprintf("%.1f us %.2fx", v(m, "p50"), v(m, "p50") / v(fl, "p50")), "<= 1.2x minifwd+echo", v(m, "p50") >= 0 && v(m, "p50") <= 1.2 * v(fl, "p50"))
	if (ran("latency"))
		target("muxd room+echo: pinned latency p99", sprintf("%.1f us %.2fx", v(m, "p99"), v(m, "p99") / v(fl, "p99")), "<= 1.5x minifwd+echo", v(m, "p99") >= 0 && v(m, "p99") <= 1.5 * v(fl, "p99"))
	for (pi = 1; pi <= 4 && ran("cpu"); pi++) {
		pin = pi % 2 == 1 ? "u" : "p"
		m = pi <= 2 ? "turn" : "cpu"
		x = v(m "." pin ".muxd-echo", "cpu_ns_per_byte"); y = cpu_ratio(m "." pin ".muxd-echo", m "." pin ".minifwd-echo")
		target("room+echo: CPU/B " (m == "turn" ? "turns" : "byte by byte") ", " (pin == "u" ? "unpinned" : "pinned"), sprintf("%.1f us %.2fx", x / 1000, y), "<= 1.3x minifwd+echo", x >= 0 && y >= 0 && y <= 1.3)
	}
	exit(missed > 0)
}' "$R" >"$T/table"
status=$?
sed 's/[[:space:]]*$//' "$T/table"
exit $status
