# Real judge terminals show exactly the transcript: tio (the left
# terminal) and picocom (the right), each in an 80-column tmux pane, fed
# a corpus of what chatbots write (tests/tools/corpusbot.sh: typographic
# punctuation, emoji, CJK, combining marks, right-to-left text, invalid
# UTF-8, unterminated OSC and DCS, OSC 52, colours and clears, a wide
# character erased, lines longer than the row) and the judge's keys
# (typing past the wrap and erasing back across it, cursor and function
# keys and Ctrl-L, Ctrl-C in mid-word, tabs, wide characters typed and
# erased).  After the round, each terminal's rows of the conversation are
# the transcript's lines, row for row, and `transcripts render` of each
# capture is the live transcript, byte for byte.  Twice: in a utf-8 room,
# and in an iso-8859-1 room whose stations' terminals are utf-8 (the
# entity's UTF-8 read as Latin-1: C1 bytes removed, the others shown as
# their Latin-1 characters).
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

for p in tio picocom tmux; do
	command -v $p >/dev/null 2>&1 || { echo "$p is not installed"; exit 77; }
done
export LANG=C.UTF-8 LC_ALL=C.UTF-8
TMUXL=muxd-corpus-$$
tmux() { command tmux -u -L "$TMUXL" "$@"; }
trap 'command tmux -L "$TMUXL" kill-server 2>/dev/null; cleanup' EXIT

cp "$ROOT/tests/tools/corpusbot.sh" "$T/bot"
chmod 755 "$T/bot"

# The rows of a pane, its history included: from after the terminal
# program's own start (tio's "[hh:mm:ss.mmm] ..." messages, picocom's
# lines up to "Terminal ready") up to muxd's notice of the round's end;
# blank rows, rows that are only the prompt ">" and the prompt before the
# judge's text left out, trailing blanks cut.
pane_rows() {
	tmux capture-pane -p -S - -t "$1" >"$T/pane.raw"
	case $1 in
	l) grep -v '^\[[0-9:.]*\] ' "$T/pane.raw" ;;
	r) sed '1,/^Terminal ready/d' "$T/pane.raw" ;;
	esac | sed '/^\*\*\* round [0-9]* is over/,$d' |
	    sed -e 's/^>//' -e 's/[[:space:]]*$//' | grep -v '^$'
}

# The text of a transcript's lines (after "JUDGEnn[HH:MM:SS]" or
# "PROGRAM[HH:MM:SS]", "\\" made "\"), trailing blanks cut.
tx_rows() {
	sed -n 's/^\(JUDGE[0-9][0-9]\|PROGRAM\)\[[0-9:]*\]//p' "$1" |
	    sed -e 's/\\\\/\\/g' -e 's/[[:space:]]*$//'
}

# Wait until answer N of the bot is whole on a side's screen: its last
# line "~ N ~" shown and the cursor at the start of the next row.
answered() {
	wait_for "tmux capture-pane -p -S - -t $1 | grep -qx '~ $2 ~' &&
	    [ \"\$(tmux display -p -t $1 '#{cursor_x}')\" = 0 ]" 20 ||
		fail "answer $2 is not on the $1 screen:
$(tmux capture-pane -p -S - -t "$1")"
}

# Wait until the last rows of a side's screen (blank rows left out) are
# the lines of $2.
shows() {
	_n=$(printf '%s\n' "$2" | wc -l)
	printf '%s\n' "$2" >"$T/shows.want"
	wait_for "tmux capture-pane -p -S - -t $1 | grep -v '^\$' | tail -n $_n |
	    cmp -s - '$T/shows.want'" 20 ||
		fail "the $1 screen does not end with the rows:
$2
--- it shows:
$(tmux capture-pane -p -S - -t "$1")"
}

# A judge's turn on side S: the keys (tmux send-keys words: "-l TEXT" is
# typed literally, other words are key names), then Enter Enter; the
# bot's answer waited for.
TURN=0
turn() {
	_s=$1; shift
	while [ $# -gt 0 ]; do
		if [ "$1" = -l ]; then
			tmux send-keys -t "$_s" -l "$2"
			shift 2
		else
			tmux send-keys -t "$_s" "$1"
			shift
		fi
	done
	tmux send-keys -t "$_s" Enter Enter
	answered "$_s" "$TURN"
}

X79=$(printf '%079d' 0 | tr 0 a)
X78=$(printf '%078d' 0 | tr 0 b)
X77=$(printf '%077d' 0 | tr 0 a)

# The judge's turns, the same at both terminals.
conversation() {
	TURN=1; turn "$1" -l 'Hi there'
	# Past the wrap (the prompt and 79 characters fill the first row),
	# erased back across it, and typed again.
	TURN=2; turn "$1" -l "${X79}cdefgh" BSpace BSpace BSpace BSpace \
	    BSpace BSpace BSpace BSpace -l 'XYZ and more'
	# Cursor and function keys, Ctrl-L and Ctrl-C in mid-word: dropped.
	TURN=3; turn "$1" -l 'wo' Left -l 'rd' Right Up F5 -l ' ne' Down \
	    -l 'xt' C-l -l ' cle' C-c -l 'ar' Home End -l ' end'
	TURN=4; turn "$1" -l 'a' Tab -l 'b' Tab Tab -l 'c'
	# Wide characters typed, one erased whole, and one crossing the wrap
	# (the prompt and 78 characters leave one column), erased and typed
	# again.
	TURN=5; turn "$1" -l 'café 日本' BSpace -l '語 😀!'
	TURN=6; turn "$1" -l "${X78}日本" BSpace BSpace -l '語x'
	# The first row filled to its last column, the last character erased
	# there, and the line typed on past the wrap.
	TURN=7; turn "$1" -l "$X79" BSpace -l 'Z!' BSpace -l 'next row'
	# Two lines in a turn.
	TURN=8; turn "$1" -l 'line one' Enter -l 'line two'
	t=9
	while [ $t -le 15 ]; do
		TURN=$t; turn "$1" -l "question $t?"
		t=$((t + 1))
	done
	# The judge types while the answer comes, each step waited for on
	# the screen: the judge's line goes below the entity's unfinished
	# row, is taken off while the entity writes, is drawn again below
	# with the judge's next key, and ended, ends that row; the rest of
	# the answer goes below the judge's line.
	tmux send-keys -t "$1" -l 'question 16?'
	tmux send-keys -t "$1" Enter Enter
	shows "$1" 'Let me think'
	tmux send-keys -t "$1" -l "ab$X79"
	shows "$1" "Let me think
>ab$X77
aa"
	touch "$T/go.1"
	shows "$1" "Second line
partial"
	tmux send-keys -t "$1" -l 'cd'
	shows "$1" "partial
>ab$X77
aacd"
	tmux send-keys -t "$1" Enter
	shows "$1" "partial
>ab$X77
aacd
>"
	touch "$T/go.2"
	answered "$1" 16
	# The second line end of the turn.
	tmux send-keys -t "$1" Enter
	answered "$1" 17
	TURN=18; turn "$1" -l 'bye'
	# Characters whose width terminals count otherwise than Unicode's
	# tables alone: a Devanagari spacing vowel sign (a column of its
	# own), U+1FAE8 (two columns to the model, none to glibc 2.36's
	# wcwidth, which tmux uses) erased by BS, a Korean syllable in jamo
	# (the vowel and final join) erased by BS.  See corpusbot.sh, 19-21.
	TURN=19; turn "$1" -l 'hindi?'
	TURN=20; turn "$1" -l 'ab🫨' BSpace -l 'c'
	TURN=21; turn "$1" -l 'korean?'
	rm -f "$T/go.1" "$T/go.2"
}

# The screen has every row given (so that the screen and the transcript
# do not agree by both missing the corpus).
has_rows() {
	_f=$1; shift
	for _row; do
		grep -qxF -- "$_row" "$_f" ||
			fail "$_f has no row '$_row':
$(cat "$_f")"
	done
}

# run_room NAME ROOM_SETTING STATION_SETTING ROW...: both entities the
# bot, a round with tio and picocom, and the comparisons; each screen has
# the ROWs.
run_room() {
	_name=$1
	_room=$2
	_station=$3
	shift 3
	[ -n "$MUXD_PID" ] && muxd_stop
	rm -rf "$T/state"
	tmux kill-server 2>/dev/null
	RULES=$_room STATION=$_station ENTRY='eol = "lf";' CONFED='eol = "lf";' room1
	sed -i -e 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot Ada '"$T"'/go"|' \
	    -e 's|address = "pty:'"$T"'/c1"|address = "exec:'"$T"'/bot Bob '"$T"'/go"|' \
	    "$T/room.conf"
	muxd_start -f "$T/room.conf"
	wait_port e1 up
	wait_port c1 up
	tmux new-session -d -s l -x 80 -y 200 "tio --baudrate 9600 $T/j1l; sleep 300"
	tmux new-session -d -s r -x 80 -y 200 "picocom -b 9600 $T/j1r; sleep 300"
	wait_for "tmux capture-pane -p -t l | grep -qi 'connected'" 10 ||
		fail "tio did not connect: $(tmux capture-pane -p -t l)"
	wait_for "tmux capture-pane -p -t r | grep -q 'Terminal ready'" 10 ||
		fail "picocom did not start: $(tmux capture-pane -p -t r)"
	round_start 1
	wait_for "tmux capture-pane -p -t l | grep -qx '>'" 10 ||
		fail "no prompt on tio's screen: $(tmux capture-pane -p -t l)"
	wait_for "tmux capture-pane -p -t r | grep -qx '>'" 10 ||
		fail "no prompt on picocom's screen: $(tmux capture-pane -p -t r)"
	conversation l
	conversation r
	mctl round stop >/dev/null || fail "round stop failed"
	for side in l r; do
		wait_for "tmux capture-pane -p -S - -t $side | grep -q '^\*\*\* round 1 is over'" 10 ||
			fail "the round's end is not on the $side screen"
		cap=$(ls "$T"/state/captures/round01-J1-$side*.cast)
		[ -f "$cap" ] || fail "no capture of J1's $side terminal: $(ls "$T/state/captures")"
		ent=$(head -n 1 "$cap" | jq -r '.muxd.entity')
		live=$T/state/transcripts/$ent/$(head -n 1 "$cap" | jq -r '.muxd.transcript')
		[ -f "$live" ] || fail "no live transcript $live"
		pane_rows $side >"$T/$_name.$side.screen"
		tx_rows "$live" >"$T/$_name.$side.tx"
		has_rows "$T/$_name.$side.screen" "$@" '~ 18 ~'
		cmp -s "$T/$_name.$side.tx" "$T/$_name.$side.screen" ||
			fail "$_name room, $side terminal ($ent): the screen's rows are not the transcript's lines
--- the transcript's lines:
$(cat "$T/$_name.$side.tx")
--- the screen's rows:
$(cat "$T/$_name.$side.screen")
--- diff (< transcript, > screen):
$(diff "$T/$_name.$side.tx" "$T/$_name.$side.screen")"
		rm -rf "$T/render"
		mkdir "$T/render"
		"$TX" render -o "$T/render" "$cap" >/dev/null ||
			fail "$_name room: render of $cap failed"
		cmp "$live" "$T/render/$(basename "$live")" ||
			fail "$_name room, $side terminal: render differs from the live transcript:
$(diff "$live" "$T/render/$(basename "$live")")"
	done
}

run_room utf8 '' '' 'word next clear end' 'a      b               c' \
    'café 日語 😀!' 'Sure 😀👍 that works 🎉 ok' '日本語のテキスト and 中文 and 한국어' \
    "$(printf 'cafe\314\201 re\314\201sume\314\201 man\314\203ana')" \
    'Hebrew: שלום עולם, Arabic: مرحبا بالعالم' 'bad  byte, cut (off) and' \
    'still visible two' 'after the DCS' 'clipboard done' 'red plain cleared? no' \
    '日x and y and z' 'Let me think about it.'
run_room latin1 'charset = "iso-8859-1";' 'charset = "utf-8";' \
    'word next clear end' 'café 日語 😀!' 'bad ÿ byte, cut Ã(off) and Ã' \
    'still visible two' 'Let me think about it.'
echo ok
