#!/bin/sh
# Debian's asciinema accepts our captures: `asciinema cat` prints exactly
# the "o" events (as jq reads them) and `asciinema play` plays them to the
# end, for captures written by the library (every byte value), by hand (the
# 1996 example) and for the judge's-screen export.  asciinema wants a
# terminal: it runs under script(1).
. tests/integration/lib.sh

TR=$ROOT/$B/transcripts/transcripts
DATA=$ROOT/tests/data/transcripts
command -v asciinema >/dev/null || fail "asciinema is not installed (sh mk/deps check installs it)"
command -v script >/dev/null || fail "script(1) is not installed (bsdutils)"

# Run a command on a pseudo-terminal, its exit status returned.
on_tty() {
	script -qec "$1" /dev/null </dev/null
}

# Check one capture with asciinema cat and play.
check_cast() {
	f=$1
	jq -rj 'select(type == "array" and .[1] == "o") | .[2]' <"$f" \
	    >"$T/want" || fail "jq cannot read $f"
	on_tty "asciinema cat '$f'" >"$T/cat" 2>"$T/cat.err" ||
	    fail "asciinema cat $f failed: $(tail -3 "$T/cat.err")"
	cmp -s "$T/want" "$T/cat" ||
	    fail "asciinema cat $f printed $(wc -c <"$T/cat") bytes, not the $(wc -c <"$T/want") bytes of its \"o\" events"
	on_tty "asciinema play -s 100 -i 0.5 '$f'" >"$T/play" 2>"$T/play.err" ||
	    fail "asciinema play $f exited non-zero: $(tail -3 "$T/play.err")"
	cmp -s "$T/want" "$T/play" ||
	    fail "asciinema play $f did not play every \"o\" event"
	echo "ok: asciinema cat and play $(basename "$f")"
}

check_cast "$DATA/allbytes.cast"
check_cast "$DATA/loebner1996.cast"

# The judge's screen, exported: a plain UTF-8 asciicast with no control
# bytes other than CR, LF, BS and TAB in what it prints.
"$TR" export --screen -o "$T/screen.cast" "$DATA/allbytes.cast" ||
	fail "transcripts export failed"
head -1 "$T/screen.cast" |
	jq -e '.muxd.screen == true and .muxd.encoding == "utf-8"' >/dev/null ||
	fail "export header does not say screen, utf-8"
[ "$(jq -r 'select(type == "array") | .[1]' <"$T/screen.cast" | sort -u | tr -d '\n')" = mo ] ||
	fail "export has events other than \"o\" and \"m\""
check_cast "$T/screen.cast"
# Text, CR, LF, BS, TAB, BEL and muxd's own moves (CUU, CUF, CUB, EL,
# ED): nothing an entity sent.
if LC_ALL=C sed 's/\x1b\[[0-9]*[ACDJK]//g' "$T/cat" |
    LC_ALL=C tr -d '\r\n\b\t\a' | LC_ALL=C grep -q '[[:cntrl:]]'; then
	fail "the exported screen prints control bytes"
fi
grep -q 'Hello, my name is Human3' "$T/cat" || fail "the exported screen lost the entity's text"
grep -q '>Every byte, judge side:' "$T/cat" || fail "the exported screen lost the judge's echo and prompt"
echo "ok: export --screen plays in asciinema"
