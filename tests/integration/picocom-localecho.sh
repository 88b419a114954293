# A station whose terminals echo the keys themselves (localecho):
# picocom --echo, in an 80-column tmux pane, as the judge's terminal.
# The prompt is on the screen before the judge types after an answer; a
# key typed after an answer left in mid-row is taken off the entity's row
# and written on the judge's line; the line is drawn again around the
# entity's text; an erase (picocom echoes the DEL of the Backspace key as
# a move left) leaves no letter behind, across the wrap too.  After the
# round, the screen's rows are the transcript's lines, row for row, and
# "transcripts export --screen" of the capture (the terminal's echo and
# muxd's bytes, through libvterm) shows the same screen as picocom.
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

for p in picocom tmux jq; do
	command -v $p >/dev/null 2>&1 || { echo "$p is not installed"; exit 77; }
done
export LANG=C.UTF-8 LC_ALL=C.UTF-8
TMUXL=muxd-localecho-$$
tmux() { command tmux -u -L "$TMUXL" "$@"; }
trap 'command tmux -L "$TMUXL" kill-server 2>/dev/null; cleanup' EXIT

# The rows of a pane, its history included, from after picocom's
# "Terminal ready" up to muxd's notice of the round's end, trailing
# blanks cut.
pane_all() {
	tmux capture-pane -p -S - -t "$1" | sed '1,/^Terminal ready/d' |
	    sed '/^\*\*\* round [0-9]* is over/,$d' | sed 's/[[:space:]]*$//'
}

# The same, blank rows and rows that are only the prompt left out, and
# the prompt before the judge's text: the transcript's lines.
pane_rows() {
	pane_all "$1" | sed 's/^>//' | grep -v '^$'
}

# Wait until TEXT is a whole row of the pane.
shows() {
	wait_for "tmux capture-pane -p -S - -t $S | grep -qxF '$1'" 10 ||
		fail "'$1' is not a row of picocom's screen:
$(tmux capture-pane -p -S - -t "$S")"
}

# Fail unless the cursor stands after the prompt on a row of its own.
prompted() {
	_r=$(tmux capture-pane -p -t "$S" | sed 's/[[:space:]]*$//' |
	    sed -n "$(($(tmux display -p -t "$S" '#{cursor_y}') + 1))p")
	[ "$_r" = ">" ] && [ "$(tmux display -p -t "$S" '#{cursor_x}')" = 1 ] ||
		fail "$1: the cursor is not after a prompt of its own (row [$_r]):
$(tmux capture-pane -p -t "$S")"
}

STATION='localecho = true;' ENTRY='eol = "lf";' room1
muxd_start -f "$T/room.conf"
wait_port e1 up
for side in l r; do
	tmux new-session -d -s $side -x 80 -y 100 "picocom --echo -b 9600 $T/j1$side; sleep 300"
	wait_for "tmux capture-pane -p -t $side | grep -q 'Terminal ready'" 10 ||
		fail "picocom did not start: $(tmux capture-pane -p -t $side)"
done
round_start 1
J=$(facing E1)
S=${J##*j1}
# The entity: the greeting, then an answer to each of the judge's turns,
# one left in mid-row; it waits for the judge's keys each time.
TTY_TIMEOUT=30000 tty "$T/e1" 'send:Hello, my name is Ada and I am the human\r\n' \
    'expect:Hi\n\n' 'send:Yes.\r\n' \
    'expect:ab' 'send:Interrupting you!\r\n' \
    'expect:c\n\n' 'send:Because.' \
    'expect:ok\n\n' 'send:Bye.\r\n' \
    'expect:~\n\n' 'sleep:300' >"$T/entity.out" 2>&1 &
ENTITY=$!

# The judge types as a judge does, not faster than muxd answers a key:
# a terminal that echoes by itself shows a key at once, and a key typed
# before muxd's answer to the last one (a prompt, an erase) would come
# before it on the screen.
# The judge's line on the screen: from the last row that begins with the
# prompt to the cursor's row, joined, trailing blanks cut.
line() {
	tmux capture-pane -p -t "$S" | sed 's/[[:space:]]*$//' |
	    sed -n "1,$(($(tmux display -p -t "$S" '#{cursor_y}') + 1))p" |
	    awk '/^>/ { l = "" } { l = l $0 } END { print l }'
}
# Wait until the judge's line is TEXT.
line_is() {
	wait_for "[ \"\$(line)\" = '$1' ]" 10 ||
		fail "$2: the judge's line is [$(line)], not [$1]:
$(tmux capture-pane -p -t "$S")"
}
# Type KEYS (or erase, with BSpace), and wait until the line is TEXT.
typed() {
	case $1 in
	BSpace)	tmux send-keys -t "$S" BSpace ;;
	*)	tmux send-keys -t "$S" -l "$1" ;;
	esac
	line_is "$2" "$3"
}
# Enter, and the prompt of the next line (within a turn, or at its end).
enter() {
	tmux send-keys -t "$S" Enter
	wait_for "[ \"\$(line)\" = '>' ] &&
	    [ \"\$(tmux display -p -t $S '#{cursor_x}')\" = 1 ]" 10 ||
		fail "$1: no prompt after Enter:
$(tmux capture-pane -p -t "$S")"
}

shows 'Hello, my name is Ada and I am the human'
prompted "after the greeting"
typed Hi '>Hi' "typing"
enter "a line"
tmux send-keys -t "$S" Enter	# the turn's end: the entity answers
shows 'Yes.'
prompted "after an answer that ends its row"
tmux send-keys -t "$S" -l 'ab'
shows 'Interrupting you!'
line_is '>ab' "the line drawn again below the entity's row"
typed x '>abx' "typing on the line drawn again"
typed BSpace '>ab' "an erase"
typed c '>abc' "typing after an erase"
enter "a line"
tmux send-keys -t "$S" Enter	# the turn's end: the entity answers
shows 'Because.'
typed o '>o' "a key after an answer left in mid-row"
shows 'Because.'
typed k '>ok' "typing"
enter "a line"
tmux send-keys -t "$S" Enter	# the turn's end: the entity answers
shows 'Bye.'
# Across the wrap: 90 letters after the prompt, 20 erased.
typed "$(printf '%090d' 0 | tr 0 w)" ">$(printf '%090d' 0 | tr 0 w)" \
    "a line past the wrap"
i=89
while [ $i -ge 70 ]; do
	typed BSpace ">$(printf "%0${i}d" 0 | tr 0 w)" \
	    "erasing back across the wrap"
	i=$((i - 1))
done
tmux send-keys -t "$S" -l '~'
enter "a line"
enter "the turn's end, no answer"
wait "$ENTITY" || fail "the entity did not get the judge's keys: $(cat "$T/entity.out")"
mctl round stop >/dev/null || fail "round stop failed"
wait_for "tmux capture-pane -p -S - -t $S | grep -q '^\*\*\* round 1 is over'" 10 ||
	fail "the round's end is not on picocom's screen"

# The screen's rows are the transcript's lines.
cap=$(ls "$T"/state/captures/round01-J1-*.cast | while read -r c; do
	grep -q '"E1"' "$c" && echo "$c"; done)
[ -n "$cap" ] || fail "no capture of E1's conversation"
live=$T/state/transcripts/E1/$(head -n 1 "$cap" | jq -r '.muxd.transcript')
[ -f "$live" ] || fail "no live transcript $live"
sed -n 's/^\(JUDGE[0-9][0-9]\|PROGRAM\)\[[0-9:]*\]//p' "$live" |
    sed 's/[[:space:]]*$//' >"$T/tx.rows"
pane_rows "$S" >"$T/screen.rows"
cmp -s "$T/tx.rows" "$T/screen.rows" ||
	fail "picocom's rows are not the transcript's lines (< transcript, > screen):
$(diff "$T/tx.rows" "$T/screen.rows")"
grep -qx "$(printf '%070d' 0 | tr 0 w)~" "$T/screen.rows" ||
	fail "the line erased across the wrap is not whole: $(cat "$T/screen.rows")"

# export --screen shows what picocom showed, row for row.
export_screen E1 "$T/export.screen"
sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$T/export.screen" >"$T/export.rows"
pane_all "$S" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$T/pane.rows"
diff "$T/export.rows" "$T/pane.rows" >"$T/diff" ||
	fail "export --screen differs from picocom's screen (< export, > picocom):
$(cat "$T/diff")"
echo "ok: a terminal that echoes by itself shows the prompts, the judge's line and the erases where the record has them"
