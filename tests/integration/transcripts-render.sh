#!/bin/sh
# The transcripts tool on fixed captures: render gives the golden
# transcripts and never overwrites; bad captures are reported with file,
# line and offset; replay shows no control byte but the judge's screen's
# own moves, keeps to --speed and --max-gap, and copes with a closed
# pipe; export refuses to overwrite.
. tests/integration/lib.sh

TR=$ROOT/$B/transcripts/transcripts
DATA=$ROOT/tests/data/transcripts
[ -x "$TR" ] || fail "$TR not built"

# render: the golden transcripts, through the command line.
for n in loebner1996 allbytes; do
	"$TR" render -o - "$DATA/$n.cast" >"$T/$n.out" 2>"$T/$n.err" ||
		fail "render $n.cast failed: $(cat "$T/$n.err")"
	cmp -s "$T/$n.out" "$DATA/$n.txt" ||
		fail "render $n.cast differs from $n.txt: $(diff "$DATA/$n.txt" "$T/$n.out" | head -5)"
done
echo "ok: render gives the golden transcripts"

# render into a directory: LPyy-nn.TXT, the next number, never overwritten.
"$TR" render -o "$T/tx" "$DATA/loebner1996.cast" >"$T/names" ||
	fail "render -o dir failed"
"$TR" render -o "$T/tx" "$DATA/loebner1996.cast" "$DATA/allbytes.cast" \
	>>"$T/names" || fail "render -o dir (twice) failed"
[ "$(cat "$T/names")" = "$T/tx/LP04-01.TXT
$T/tx/LP04-02.TXT
$T/tx/LP04-03.TXT" ] || fail "render named its transcripts: $(cat "$T/names")"
cmp -s "$T/tx/LP04-01.TXT" "$DATA/loebner1996.txt" || fail "LP04-01.TXT changed"
cmp -s "$T/tx/LP04-03.TXT" "$DATA/allbytes.txt" || fail "LP04-03.TXT is not allbytes"
echo "ok: render -o dir takes the next cycle number"

# A torn capture: reported with file, line and offset; exit 1; the
# transcript still made from everything before.
if "$TR" render -o - "$DATA/edge.cast" >"$T/edge.out" 2>"$T/edge.err"; then
	fail "render of a torn capture exited 0"
fi
grep -q "edge.cast:83: offset 2104: last line (30 bytes) has no newline" "$T/edge.err" ||
	fail "torn line not reported with its line and offset: $(cat "$T/edge.err")"
cmp -s "$T/edge.out" "$DATA/edge.txt" || fail "torn capture: transcript differs from edge.txt"
# Missing file, not a capture, wrong version: named, exit 1.
printf '{"version": 1, "width": 80}\n' >"$T/v1.cast"
head -c 3000 /dev/urandom >"$T/junk.cast"
for f in "$T/none.cast" "$T/v1.cast" "$T/junk.cast"; do
	if "$TR" render -o - "$f" >/dev/null 2>"$T/err"; then
		fail "render of $f exited 0"
	fi
	grep -q "^transcripts: $f:" "$T/err" || fail "error does not name $f: $(cat "$T/err")"
done
"$TR" render -o - "$T/v1.cast" 2>&1 |
	grep -q "v1.cast:1: offset 0: header: asciicast version 1, expected 2" ||
	fail "wrong version not reported with its place"
"$TR" render 2>"$T/err" && fail "render without a capture exited 0"
grep -q "^usage: transcripts render" "$T/err" || fail "no usage line: $(cat "$T/err")"
echo "ok: bad captures are reported with file, line and offset"

# replay: nothing a terminal would interpret but CR, LF, BS and TAB.
"$TR" replay -s 1000 -g 0.001 "$DATA/allbytes.cast" >"$T/replay" ||
	fail "replay failed"
# The judge's screen: text, CR, LF, BS, TAB, BEL and the moves muxd
# draws the judge's line with (CUU, CUF, CUB, EL, ED), nothing else.
if LC_ALL=C sed 's/\x1b\[[0-9]*[ACDJK]//g' "$T/replay" |
    LC_ALL=C tr -d '\r\n\b\t\a' | LC_ALL=C grep -q '[[:cntrl:]]'; then
	fail "replay wrote a control byte"
fi
grep -q '^>Every byte, judge side:' "$T/replay" || fail "replay lost the judge's prompt and echo"
# What the filter kept from the judge is not shown, not even as text.
grep -q 'x1b' "$T/replay" && fail "replay showed a removed ESC as text"
grep -q 'Every byte, entity side:' "$T/replay" ||
	fail "replay lost the entity's text"
# --speed and --max-gap: 55 s of conversation, gaps of 0.3 s and more
# capped to 0.2 s, 10 times faster: a second or two, not less than 1.
start=$(date +%s%N)
"$TR" replay --speed 10 --max-gap 0.2 "$DATA/loebner1996.cast" >/dev/null ||
	fail "replay --speed --max-gap failed"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -ge 1000 ] && [ "$ms" -le 4000 ] ||
	fail "replay --speed 10 --max-gap 0.2 took $ms ms, expected about 1900"
# A reader that goes away: no error, exit 0.  A closed stdout: exit 1.
"$TR" replay -s 1000 "$DATA/allbytes.cast" 2>"$T/err" | head -c 10 >/dev/null
[ -s "$T/err" ] && fail "replay into a closed pipe complained: $(cat "$T/err")"
if "$TR" replay -s 1000 "$DATA/allbytes.cast" >&- 2>"$T/err"; then
	fail "replay with stdout closed exited 0"
fi
grep -q "standard output" "$T/err" || fail "closed stdout not reported: $(cat "$T/err")"
"$TR" replay --speed 0 "$DATA/allbytes.cast" 2>/dev/null && fail "replay --speed 0 accepted"
echo "ok: replay escapes, keeps time, survives its reader"

# export never overwrites.
: >"$T/exists.cast"
if "$TR" export --screen -o "$T/exists.cast" "$DATA/allbytes.cast" 2>"$T/err"; then
	fail "export overwrote a file"
fi
[ -s "$T/exists.cast" ] && fail "export wrote into an existing file"
grep -q "exists" "$T/err" || fail "export did not say the file exists: $(cat "$T/err")"
echo "ok: export refuses to overwrite"
