#!/bin/sh
# The README's first command, make demo, as it runs without a terminal:
# the scripted conversation through muxd on the embedded demo room (the
# judge's two terminals, the entry muxd runs, the confederate), checked by
# the demo itself, then the transcripts rendered back and verified.  Its
# directory is under $T, so nothing is left behind.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

TMPDIR=$T sh contrib/demo/run "$B" </dev/null >"$T/demo.out" 2>&1 ||
	fail "make demo failed: $(grep -m1 'FAILED' "$T/demo.out" || tail -3 "$T/demo.out")"
grep -q '^demo OK' "$T/demo.out" ||
	fail "make demo did not say it was OK: $(tail -3 "$T/demo.out")"
grep -q 'verdict PASS judge 01 link J1-[a-z]*: assertion E1' "$T/demo.out" ||
	fail "the entry's opening assertion did not pass: $(grep -m2 verdict "$T/demo.out")"
grep -q 'renders to C1/LP[0-9]*-01.TXT, identical' "$T/demo.out" ||
	fail "the confederate's transcript was not rendered back identical"
echo "ok: the demo's conversation went through, its transcripts render back and verify"
