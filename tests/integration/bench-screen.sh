# The probe of the benchmarks (ptybench) checks the judge's screen as a
# room draws it, and nothing more: muxd room+echo's echo, with the judge's
# line taken off and drawn again whenever the entity writes while the
# judge types (byte by byte, past the 1024 letters where a line hands out
# its rows), and in turns of lines, checks exact; so does muxd room, whose
# judges' programs draw the convention (muxd writes them nothing of its
# own); a forwarder that draws the line again with
# one letter changed, or writes a control sequence no room writes, is
# caught.  It decides nothing by timing: every byte written must arrive,
# checked, however late.
. tests/integration/lib.sh

PB=$B/tests/bench/ptybench
[ -x "$PB" ] || fail "$PB is not built"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }

# Run the probe (its mode and options, then the forwarder), keeping its
# figures in $T/out.
probe() {
	rm -rf "$T/run"
	B=$B "$PB" "$@" >"$T/out" 2>"$T/err" || fail "ptybench $*: $(cat "$T/err")"
}

# The figure NAME of the last run.
figure() {
	tr ' ' '\n' <"$T/out" | sed -n "s/^$1=//p"
}

# The last run checked every byte and lost none.
exact() {
	[ "$(figure errors)" = 0 ] && [ "$(figure lost)" = 0 ] ||
		fail "$1: $(cat "$T/out")"
}

# Byte by byte, 1.2 s at 960 B/s a way: the judge's line passes 1024 letters.
probe rate -e -l 1 -x 1 -r 960 -w 1 -t 1.2 -W 0.3 -- sh tests/bench/fwd muxd-echo "$T/run"
exact "muxd room+echo, byte by byte"
[ "$(figure offered)" -gt 2048 ] || fail "the judge typed too little to pass 1024 letters: $(cat "$T/out")"
probe turn -e -x 1 -r 960 -t 0.5 -W 0.2 -- sh tests/bench/fwd muxd-echo "$T/run"
exact "muxd room+echo, in turns"
[ "$(figure lines)" -ge 2 ] || fail "muxd room+echo, in turns: $(figure lines) lines"
probe turn -x 1 -r 960 -t 0.5 -W 0.2 -- sh tests/bench/fwd muxd-room "$T/run"
exact "muxd room, in turns"
probe turn -e -r 960 -t 0.5 -W 0.2 -- sh tests/bench/fwd minifwd-echo "$T/run"
exact "minifwd+echo, in turns"

# A room of the probe's test's own (tests/bench/fakeroom.py), right and
# wrong.
probe rate -e -r 960 -w 1 -t 0.3 -W 0.2 -- python3 tests/bench/fakeroom.py
exact "fakeroom"
for f in "redraw:in the judge's line drawn again" \
    "csi:a control sequence the room does not write"; do
	probe rate -e -r 960 -w 1 -t 0.3 -W 0.2 -- python3 tests/bench/fakeroom.py -f "${f%%:*}"
	[ "$(figure errors)" -gt 0 ] && grep -q "${f#*:}" "$T/out" ||
		fail "fakeroom -f ${f%%:*}: not told as \"${f#*:}\": $(cat "$T/out")"
done

echo "ok: the probe checks a room's screen exact, its redraws and its turns, and catches a wrong redraw"
