# comprog's judge side, in tmux.  On a pty pair with its own echo: the ">"
# prompt, each key echoed and sent at once, backspace, the entity's answer
# and a fresh prompt, C-] q; its transcript in muxd's format.  Through
# muxd with --remote-echo: muxd prompts and echoes, the entity gets the
# keys one by one, and comprog records the entity's words without muxd's
# echo.  A resize wraps the conversation again.  Through a room whose
# rules leave the convention to the judge's program (rules convention =
# false) with --local-echo: comprog prompts and echoes, muxd forwards each
# byte once, and the two transcripts have the same lines.
. tests/integration/lib.sh

cable line
mkdir -p "$T/rec"
cp_run judge "$COMPROG judge -r $T/rec -l $T/judge.log $T/line.dev"
cp_wait judge '^>' 5 "no prompt on the judge's screen"
cp_wait judge 'line.dev.* up' 5 "the status line does not show the line up"

# Each key reaches the other end before the next one is typed.
for key in H e l l o; do
	cp_type judge "$key"
	tty -t 2000 "$T/line" "expect:$key" >/dev/null || fail "key '$key' not sent at once"
done
cp_key judge BSpace
tty "$T/line" 'expect:\x7f' >/dev/null || fail "backspace not sent"
cp_type judge 'o there'
cp_key judge Enter
cp_wait judge '^>Hello there$' 5 "echo or backspace wrong on the screen"
cp_wait judge '^>$' 5 "no prompt for the turn's next line"
cp_key judge Enter
tty "$T/line" 'expect:o there\r\r' 'quiet:200' >/dev/null ||
	fail "the keys did not arrive as typed, Enter as CR"

# The entity answers; the judge's next key gets a fresh prompt.
tty "$T/line" 'send:Hi judge, I am\r\na program.\r\n' >/dev/null
cp_wait judge '^a program\.$' 5 "the answer is not on the judge's screen"
cp_type judge 'Really?'
cp_wait judge '^>Really\?$' 5 "no fresh prompt after the answer"
cp_key judge Enter Enter
# Control sequences from the entity do not reach the screen.
tty "$T/line" 'send:\r\n\e[2J\e]0;owned\x07plain\r\n' >/dev/null
cp_wait judge '^plain$' 5 "the entity's text after an escape sequence is missing"
cp_screen judge | grep -q 'Hi judge, I am' || fail "an escape sequence cleared the screen"

# A narrower terminal wraps everything again; then back.
tmux resize-window -t "judge-$$" -x 40 -y 20
cp_wait judge 'wants 80x24' 5 "a small terminal is not reported"
cp_type judge '1234567890123456789012345678901234567890'
cp_wait judge '^>123456789012345678901234567890123456789$' 5 "not wrapped at 40 columns"
cp_wait judge '^0$' 5 "the wrapped part is not on the next row"
tmux resize-window -t "judge-$$" -x 80 -y 24
cp_wait judge '^>1234567890123456789012345678901234567890$' 5 \
	"not wrapped again at 80 columns"

cp_key judge C-] q
cp_wait judge 'comprog-exit=0' 5 "C-] q did not end comprog"
tx=$(ls "$T"/rec/LP*.TXT) || fail "no transcript"
grep -q '^This transcript is in the public domain$' "$tx" || fail "no public-domain line"
grep -q '^JUDGE??\[[0-9:]*\]Hello there$' "$tx" || fail "the judge's line is not in the transcript: $(cat "$tx")"
grep -q '^PROGRAM\[[0-9:]*\]a program\.$' "$tx" || fail "the answer is not in the transcript: $(cat "$tx")"
"$ROOT/$B/transcripts/transcripts" render -o "$T/render" "$T"/rec/comprog-judge-*.cast >/dev/null ||
	fail "transcripts cannot render comprog's capture"
cmp "$tx" "$T/render/$(basename "$tx")" || fail "the transcript is not its capture rendered"

# Through muxd, which prompts and echoes: --remote-echo.
room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
mkdir -p "$T/rec2"
cp_run rj "$COMPROG judge --remote-echo -r $T/rec2 $J"
cp_wait rj '^>' 5 "muxd's prompt is not on the screen"
for key in W h o; do
	cp_type rj "$key"
	tty -t 2000 "$T/e1" "expect:$key" >/dev/null || fail "key '$key' not sent through muxd at once"
done
cp_type rj ' are you?'
cp_key rj Enter Enter
tty "$T/e1" 'expect: are you?\r\r' >/dev/null || fail "the turn did not reach the entity"
cp_wait rj '^>Who are you\?$' 5 "muxd's echo is not on the screen"
tty "$T/e1" 'send:I am Ada.\r\n' >/dev/null
cp_wait rj '^I am Ada\.$' 5 "the entity's answer is not on the screen"
cp_type rj 'ok'
cp_wait rj '^>ok$' 5 "no fresh prompt from muxd"
cp_key rj C-] q
cp_wait rj 'comprog-exit=0' 5 "C-] q did not end comprog"
tx=$(ls "$T"/rec2/LP*.TXT) || fail "no transcript through muxd"
grep -q '^JUDGE??\[[0-9:]*\]Who are you?$' "$tx" || fail "the judge's line is missing: $(cat "$tx")"
grep -q '^PROGRAM\[[0-9:]*\]I am Ada\.$' "$tx" || fail "the entity's line is missing: $(cat "$tx")"
[ "$(grep -c '^PROGRAM' "$tx")" = 1 ] || fail "muxd's echo was recorded as the entity's: $(cat "$tx")"

# A room that leaves the convention to the judge's program.
muxd_stop
rm -rf "$T/state"
RULES='rules = { convention = false; };' room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
mkdir -p "$T/rec3"
cp_run lj "$COMPROG judge --local-echo -r $T/rec3 $J"
cp_wait lj '^>' 5 "comprog's prompt is not on the screen"
cp_type lj 'Hi'
tty "$T/e1" 'expect:Hi' 'quiet:200' >/dev/null || fail "the keys did not reach the entity once each"
cp_key lj Enter
cp_wait lj '^>$' 5 "no prompt for the turn's next line"
cp_key lj Enter
tty "$T/e1" 'expect:\r\r' >/dev/null || fail "the turn did not reach the entity"
tty "$T/e1" 'send:Hello, my name is Ada and I am the human\r\n' >/dev/null
cp_wait lj '^Hello, my name is Ada and I am the human$' 5 "the answer is not on the screen"
cp_type lj 'Why?'
cp_wait lj '^>Why\?$' 5 "no fresh prompt after the answer"
cp_key lj Enter Enter
tty "$T/e1" 'expect:Why?\r\r' >/dev/null || fail "the second turn did not reach the entity"
tty "$T/e1" 'send:Because.\r\n' >/dev/null
cp_wait lj '^Because\.$' 5 "the second answer is not on the screen"
cp_key lj C-] q
cp_wait lj 'comprog-exit=0' 5 "C-] q did not end comprog"
mctl round stop >/dev/null || fail "round stop failed"
cp_screen lj | grep -q '^>>' && fail "two prompts on a row: $(cp_screen lj)"
lines() { sed -n 's/^\(JUDGE[0-9?][0-9?]\|PROGRAM\)\[[0-9:]*\]//p' "$1"; }
mine=$(ls "$T"/rec3/LP*.TXT) || fail "no transcript of comprog's"
muxds=$T/state/transcripts/E1/$(ls "$T/state/transcripts/E1")
lines "$mine" >"$T/mine.lines"
lines "$muxds" >"$T/muxd.lines"
printf '%s\n' Hi 'Hello, my name is Ada and I am the human' 'Why?' Because. |
    cmp -s - "$T/muxd.lines" || fail "muxd's transcript: $(cat "$muxds")"
cmp -s "$T/mine.lines" "$T/muxd.lines" ||
	fail "comprog's and muxd's transcripts differ (< comprog, > muxd): $(diff "$T/mine.lines" "$T/muxd.lines")"
echo ok
