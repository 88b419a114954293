# comprog judge finds out by itself who echoes: on a muxd judge line
# (muxd answers its ENQ, between rounds too) it shows muxd's echo alone,
# never ">abcabc"; on a line with no muxd it echoes the keys itself,
# those typed before it knew included.  muxd's records leave the ENQ out.
. tests/integration/lib.sh

# A line with nobody answering: comprog echoes, after its question.
cable plain
cp_run p "$COMPROG judge --no-record $T/plain.dev"
tty "$T/plain" 'expect:\x05' >/dev/null || fail "comprog did not ask with ENQ"
cp_type p 'hi'
cp_wait p '^>hi$' 5 "keys typed before the answer are not echoed here"
cp_wait p 'echo here' 5 "the status line does not say comprog echoes"
cp_type p ' there'
cp_wait p '^>hi there$' 5 "comprog does not echo on a plain line"

# Through muxd: comprog starts between rounds, and is answered then.
room1
muxd_start -f "$T/room.conf"
mkdir -p "$T/rec"
cp_run rj "$COMPROG judge -r $T/rec $T/j1l"
cp_wait rj 'echo by muxd' 5 "muxd's answer between rounds was not taken"
cp_screen rj | grep -q 'muxd' && ! cp_screen rj | grep -q 'echo by muxd' &&
	fail "muxd's answer shows on the screen"
round_start 1
J=$(facing E1)
[ "$J" = "$T/j1l" ] || fail "the judge is not facing E1"
cp_wait rj '^>' 5 "muxd's prompt is not on the screen"
cp_type rj 'abc'
tty "$T/e1" 'expect:abc' >/dev/null || fail "the keys did not reach the entity"
cp_key rj Enter Enter
# The entity answers once the judge's line has ended (at the entity's
# end), so that the answer cannot land on the judge's line.
tty "$T/e1" 'expect:\r' >/dev/null || fail "the judge's Enter did not reach the entity"
cp_wait rj '^>abc$' 5 "the keys are not shown once: $(cp_screen rj | grep abc)"
cp_screen rj | grep -q 'abcabc' && fail "the keys are shown twice"
tty "$T/e1" 'send:Hello.\r\n' >/dev/null
cp_wait rj '^Hello\.$' 5 "the entity's answer is not on the screen"
# Asked again in mid-round (the line back up): answered, nothing shown.
cp_key rj C-] q
cp_wait rj 'comprog-exit=0' 5 "C-] q did not end comprog"
cp_run rj2 "$COMPROG judge --no-record $T/j1l"
cp_wait rj2 'echo by muxd' 5 "muxd's answer in a conversation was not taken"
cp_type rj2 'xyz'
cp_wait rj2 '^>?xyz$' 5 "keys after the answer are not shown once"
cp_screen rj2 | grep -q 'xyzxyz' && fail "the keys are shown twice after a restart"
mctl round stop >/dev/null || fail "round stop failed"
wait_for "ls '$T'/state/transcripts/E1/*.TXT >/dev/null 2>&1" 5 ||
	fail "no transcript of E1"
grep -q 'x05' "$T"/state/transcripts/E1/*.TXT &&
	fail "the ENQ is in the transcript: $(cat "$T"/state/transcripts/E1/*.TXT)"
grep -q 'JUDGE.*abc$' "$T"/state/transcripts/E1/*.TXT ||
	fail "the judge's line is not in the transcript: $(cat "$T"/state/transcripts/E1/*.TXT)"
grep -q 'x05' "$T"/rec/LP*.TXT && fail "comprog recorded its ENQ"
echo ok
