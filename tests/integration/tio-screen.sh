# What a real judge terminal shows is what the record says: tio, in tmux,
# as the judge's terminal of a room shows, row for row, what "transcripts
# export --screen" of the capture shows (through libvterm, vtscreen): an
# entity's erase (DEL), bare LF and bare CR line ends, a tab, the prompts
# and echo.  And the screen of a whole 2012 conversation (its import,
# exported) is the same in tio as in libvterm.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

S0=muxd-tios-$$
S=$S0
V=muxd-tiov-$$
trap 'for s in "${S0}l" "${S0}r" "$V"; do tmux kill-session -t "$s" 2>/dev/null; done; cleanup' EXIT
# The rows tio shows, its own messages ("[hh:mm:ss.mmm] ...") left out,
# trailing blank rows cut, the history included.
tio_rows() {
	tmux capture-pane -p -S - -t "$1" | grep -v '^\[[0-9:.]*\] ' |
	    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# The entry, copied where the entries' user can run it.
cp "$ROOT/tests/tools/screenbot.sh" "$T/bot"
chmod 755 "$T/bot"
ENTRY='eol = "lf";' room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot Ada"|' "$T/room.conf"
muxd_start -f "$T/room.conf"
wait_port e1 up
# The judge's terminals run before the round, as in the room (tio, as it
# connects, flushes what waited on the line).
for side in l r; do
	tmux new-session -d -s "$S0$side" -x 80 -y 60 "tio --baudrate 9600 $T/j1$side; sleep 30"
	wait_for "tmux capture-pane -p -t $S0$side | grep -qi 'connected'" 10 ||
		fail "tio did not connect: $(tmux capture-pane -p -t "$S0$side")"
done
round_start 1
J=$(facing E1)
S=$S0${J##*j1}
turn() {
	tmux send-keys -t "$S" -l "$1"
	tmux send-keys -t "$S" Enter Enter
	wait_for "tio_rows $S | grep -q '$2'" 5 ||
		fail "'$2' is not on tio's screen: $(tio_rows "$S")"
}
turn 'Hi' 'the human'
turn 'More?' 'line two'
turn 'And?' 'second'
turn 'Tab?' 'stop'
sleep 0.3
mctl round stop >/dev/null || fail "round stop failed"
cap=$(ls "$T"/state/captures/round01-J1-*.cast | while read -r c; do
	grep -q '"E1"' "$c" && echo "$c"; done)
[ -n "$cap" ] || fail "no capture of E1's conversation"
"$TX" export --screen -o "$T/export.cast" "$cap" || fail "export --screen failed"
tail -n +2 "$T/export.cast" | jq -rj 'select(.[1] == "o") | .[2]' >"$T/export.bytes"
"$TOOLS/vtscreen" "$T/export.bytes" >"$T/export.screen"
# tio shows the round's end notice after the conversation: compare the
# conversation, the rows export --screen has.
tio_rows "$S" | head -n "$(wc -l <"$T/export.screen")" >"$T/tio.screen"
diff "$T/export.screen" "$T/tio.screen" >"$T/diff" ||
	fail "tio's screen differs from export --screen (< export, > tio):
$(cat "$T/diff")"
grep -qx 'Hello, my name is Ada and I am the human' "$T/tio.screen" ||
	fail "the edited greeting is not clean on tio's screen: $(cat "$T/tio.screen")"

# A 2012 conversation, as the judge saw it: exported from its import,
# played into tio on a pty, and into libvterm.
LOGS=${LPP2012:-$ROOT/../shared/data/loebner2012}
LOG=$LOGS/logfile.b-wilcox-angela.2012-05-15--10-11-12.log
[ -r "$LOG" ] || { echo "ok (the 2012 logs are not at $LOGS)"; exit 0; }
mkdir "$T/imp"
"$TX" import -o "$T/imp" "$LOG" >/dev/null 2>&1 || fail "cannot import $LOG"
"$TX" export --screen -o "$T/x2012.cast" "$T"/imp/*left-program.cast ||
	fail "export --screen of the 2012 conversation failed"
tail -n +2 "$T/x2012.cast" | jq -rj 'select(.[1] == "o") | .[2]' >"$T/x2012.bytes"
"$TOOLS/vtscreen" "$T/x2012.bytes" >"$T/x2012.screen"
bg socat "pty,link=$T/vt,raw,echo=0" "pty,link=$T/vtsrc,raw,echo=0"
wait_for "[ -e '$T/vt' ] && [ -e '$T/vtsrc' ]" 5 || fail "socat made no pty pair"
tmux new-session -d -s "$V" -x 80 -y 60 "tio --baudrate 9600 $T/vt; sleep 30"
wait_for "tmux capture-pane -p -t $V | grep -qi 'connected'" 10 ||
	fail "tio did not connect to the pty"
cat "$T/x2012.bytes" >"$T/vtsrc"
last=$(tail -n 1 "$T/x2012.screen")
wait_for "tio_rows $V | grep -qxF '$last'" 5 ||
	fail "the 2012 conversation did not reach tio: $(tio_rows "$V")"
tio_rows "$V" >"$T/tio2012.screen"
diff "$T/x2012.screen" "$T/tio2012.screen" >"$T/diff2012" ||
	fail "tio shows the 2012 conversation otherwise than libvterm (< vterm, > tio):
$(cat "$T/diff2012")"
echo ok
