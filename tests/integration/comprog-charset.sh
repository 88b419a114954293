# comprog judge takes its charset from the room: muxd's answer to its ENQ
# names it ("ESC _ muxd echo charset=utf-8 ESC \"), so in a utf-8 room a
# judge started without --charset shows "”" and the rest of the line,
# and its own echo; CJK and emoji take two columns each (the text after
# them lands in the right column, a line wraps where they fill it, the
# cursor follows), a combining mark joins the character before it.  An
# explicit --charset wins, with a warning naming both charsets.  The old
# answer, with no charset, is still taken (comprog's default, utf-8),
# and so is a charset on a line with no muxd.
. tests/integration/lib.sh

export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmux() { command tmux -u -L "cpcs-$$" "$@"; }
trap 'command tmux -L "cpcs-$$" kill-server 2>/dev/null; cleanup' EXIT
cursor_x() { tmux display -p -t "$1-$$" '#{cursor_x}'; }

RULES='charset = "utf-8";' room1
muxd_start -f "$T/room.conf"
mkdir -p "$T/rec"
round_start 1
J=$(facing E1)
cp_run judge "$COMPROG judge -r $T/rec -l $T/judge.log $J"
cp_wait judge 'echo by muxd' 5 "muxd's answer was not taken"
cp_wait judge '^>' 5 "muxd's prompt is not on the judge's screen"
cp_type judge 'don”t stop'
cp_wait judge '^>don”t stop$' 5 "the judge's own echo after ” is not shown whole"
cp_key judge Enter Enter
tty "$T/e1" 'expect:don\xe2\x80\x9dt stop' >/dev/null ||
	fail "the judge's line did not reach the entity"
tty "$T/e1" 'send:He said “yes” and left.\r\n' >/dev/null
cp_wait judge '^He said “yes” and left\.$' 5 "the entity's line after ” is not shown whole"

# Wide characters: two columns each; what follows them lands after them.
tty "$T/e1" 'send:日本語|😀|end\r\n' >/dev/null
cp_wait judge '^日本語\|😀\|end$' 5 "CJK and emoji are not drawn whole"
# 40 CJK fill a row of 80 columns; after a narrow one, the 40th wraps.
W=$(printf '日%.0s' $(seq 40))
tty "$T/e1" "send:${W}Z\\r\\na${W}\\r\\n" >/dev/null
cp_wait judge "^${W}\$" 5 "40 CJK do not fill one row of 80 columns"
cp_screen judge | grep -A1 "^${W}\$" | tail -1 | grep -q '^Z$' ||
	fail "the Z after 40 CJK is not at the start of the next row: $(cp_screen judge)"
cp_screen judge | grep -A1 "^a$(printf '日%.0s' $(seq 39))\$" | tail -1 |
	grep -q '^日$' || fail "the CJK that does not fit is not wrapped whole: $(cp_screen judge)"
E=$(printf '😀%.0s' $(seq 40))
tty "$T/e1" "send:${E}Z\\r\\n" >/dev/null
cp_wait judge "^${E}\$" 5 "40 emoji do not fill one row of 80 columns"
# A combining mark joins the character before it: no column of its own.
tty "$T/e1" 'send:cafe\xcc\x81|x\r\n' >/dev/null
cp_wait judge "^cafe$(printf '\314\201')\\|x\$" 5 "the combining acute is not on the e"
# The judge types CJK: echoed whole, the cursor two columns a character.
cp_type judge '日本'
cp_wait judge '^>日本$' 5 "the judge's CJK are not echoed whole"
[ "$(cursor_x judge)" = 5 ] || fail "the cursor is at column $(cursor_x judge), not 5, after >日本"
cp_key judge BSpace
cp_wait judge '^>日$' 5 "Backspace did not erase a CJK whole"
[ "$(cursor_x judge)" = 3 ] || fail "the cursor is at column $(cursor_x judge), not 3, after >日"
cp_key judge Enter Enter
cp_key judge C-] q
cp_wait judge 'comprog-exit=0' 5 "C-] q did not end comprog"
tx=$(ls "$T"/rec/LP*.TXT) || fail "no transcript"
grep -q '^JUDGE..\[[0-9:]*\]don”t stop$' "$tx" ||
	fail "the judge's line is not whole in the transcript: $(cat "$tx")"
cap=$(ls "$T"/rec/*.cast) || fail "no capture"
head -1 "$cap" | grep -q '"charset": *"utf-8"' ||
	fail "the capture does not name the room's charset: $(head -1 "$cap")"
grep -qi 'warn\|mismatch' "$T/judge.log" && fail "a warning with the room's own charset: $(cat "$T/judge.log")"

# An explicit charset wins, with a warning naming both.
cp_run lat "$COMPROG judge --charset iso-8859-1 --no-record -l $T/lat.log $J"
cp_wait lat 'echo by muxd' 5 "muxd's answer was not taken"
cp_wait lat 'as iso-8859-1; the room.s charset is utf-8' 5 "the screen does not warn of the mismatch"
grep -q 'iso-8859-1.*utf-8' "$T/lat.log" ||
	fail "the log does not warn of the mismatch: $(cat "$T/lat.log")"
cp_key lat C-] q
cp_wait lat 'comprog-exit=0' 5 "C-] q did not end comprog"
muxd_stop

# A line with no muxd: the old answer (echo, no charset), and one that
# names a charset; with no answer at all, utf-8.
cable plain
cp_run old "$COMPROG judge --no-record $T/plain.dev"
tty "$T/plain" 'expect:\x05' 'send:\e_muxd echo\e\\' 'sleep:300' \
	'send:caf\xc3\xa9 \xe2\x80\x94 ok\r\n' >/dev/null || fail "comprog did not ask"
cp_wait old 'echo by muxd' 5 "the old answer was not taken"
cp_wait old '^café — ok$' 5 "with the old answer the line does not read as utf-8"
cp_key old C-] q
cp_wait old 'comprog-exit=0' 5 "C-] q did not end comprog"
mkdir -p "$T/rec1"
cp_run l1 "$COMPROG judge -r $T/rec1 -l $T/l1.log $T/plain.dev"
tty "$T/plain" 'expect:\x05' 'send:\e_muxd charset=iso-8859-1\e\\' 'sleep:300' \
	'send:caf\xe9\r\n' >/dev/null || fail "comprog did not ask"
cp_wait l1 'echo here' 5 "the answer without echo was not taken"
cp_wait l1 '^>?café$' 5 "the room's iso-8859-1 is not taken"
grep -qi 'warn' "$T/l1.log" && fail "a warning without --charset: $(cat "$T/l1.log")"
cp_key l1 C-] q
cp_wait l1 'comprog-exit=0' 5 "C-] q did not end comprog"
cap=$(ls "$T"/rec1/*.cast) || fail "no capture with the room's iso-8859-1"
head -1 "$cap" | grep -q '"encoding": *"iso-8859-1"' ||
	fail "the capture does not name the room's iso-8859-1: $(head -1 "$cap")"
grep -q '"o", *"café' "$cap" || fail "the line's text is not in the capture: $(cat "$cap")"
cp_run none "$COMPROG judge --no-record $T/plain.dev"
tty "$T/plain" 'expect:\x05' 'sleep:1500' 'send:“hi” 日本\r\n' >/dev/null ||
	fail "comprog did not ask"
cp_wait none 'echo here' 5 "with no answer comprog does not echo"
cp_wait none '^>?“hi” 日本$' 5 "with no answer the line does not read as utf-8"
echo ok
