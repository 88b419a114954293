# comprog's confederate side, in tmux: the reminder of the opening
# assertion with the approved name always on top, the judge's number from
# "@@nn", the judge's keys as they arrive in the upper pane, the
# confederate's own in the lower one, each key sent as typed, backspace as
# on the judge's side.  Against muxd (announce = true), then against
# comprog's judge side over a pty pair and over TCP.
. tests/integration/lib.sh

CONFED='announce = true;' room1
muxd_start -f "$T/room.conf"
mkdir -p "$T/rec"
cp_run confed "$COMPROG confederate -n Bob --clock 5 -r $T/rec $T/c1"
cp_wait confed '^Begin with: Hello, my name is Bob and I am the human' 5 "no reminder of the opening assertion"
round_start 1
H=$(facing C1)
cp_wait confed '^Judge 07 \| [45]:[0-9][0-9] left' 5 "muxd's announcement of judge 07 or the clock is not shown"
cp_wait confed '^\*\*\* JUDGE07 \*\*\*$' 5 "the announcement is not noted in the judge's pane"
cp_screen confed | grep -q '@@07' && fail "the announcement itself is still shown: $(cp_screen confed)"

# The judge's keys appear as they arrive, backspaces applied.
tty "$H" 'type:Are you humab\x7fn?' >/dev/null
cp_wait confed '^Are you human\?$' 5 "the judge's keys are not in the upper pane"
cp_screen confed | sed -n '3,4p' | tr '\n' '|' | grep -q '^\*\*\* JUDGE07 \*\*\*|Are you human?|$' ||
	fail "the judge's first line does not follow the announcement: $(cp_screen confed)"
tty "$H" 'type:\r\r' >/dev/null
cp_wait confed 'the judge has finished: your turn' 5 "the end of the judge's turn is not shown"

# The confederate's keys go out one by one.
for key in H e l; do
	cp_type confed "$key"
	tty -t 2000 "$H" "expect:$key" >/dev/null || fail "key '$key' not sent at once"
done
cp_type confed 'lo, my name is Bob and I am the humaX'
cp_key confed BSpace
cp_type confed 'n'
cp_key confed Enter
tty "$H" 'expect:lo, my name is Bob and I am the humaX\x08 \x08n\r\n' >/dev/null ||
	fail "the confederate's keys did not reach the judge as typed (an erase as BS SP BS), Enter as CR LF"
cp_wait confed 'I am the human  \[opening: OK\]' 5 "the opening assertion is not confirmed"
cp_wait confed '^Hello, my name is Bob and I am the human$' 5 "the confederate's line is not in the lower pane"
# Backspace at the start of a line sends nothing.
cp_key confed BSpace
tty "$H" 'quiet:300' >/dev/null || fail "a backspace with nothing to erase was sent"
cp_key confed C-] q
cp_wait confed 'comprog-exit=0' 5 "C-] q did not end comprog"
tx=$(ls "$T"/rec/LP*.TXT)
grep -q '^\*\*\* JUDGE07 \*\*\*$' "$tx" || fail "the judge is not in the transcript: $(cat "$tx")"
grep -q '^JUDGE07\[[0-9:]*\]Are you human?$' "$tx" || fail "the judge's line is missing: $(cat "$tx")"
grep -q '^PROGRAM\[[0-9:]*\]Hello, my name is Bob and I am the human$' "$tx" ||
	fail "the confederate's line is missing: $(cat "$tx")"
muxd_stop

# Machine to machine over a pty pair: the judge announces himself.
cable pair
cp_run c2 "$COMPROG confederate -n Bob --no-record $T/pair.dev"
cp_run j2 "$COMPROG judge --no-record $T/pair"
cp_wait j2 '^>' 5 "no prompt on the judge's side"
cp_type j2 '@@03'
cp_key j2 Enter Enter
cp_wait c2 '^Judge 03' 5 "the judge's @@03 did not name him"
cp_type j2 'Hi there'
cp_key j2 Enter Enter
cp_wait c2 '^Hi there$' 5 "the judge's words are not on the confederate's screen"
cp_type c2 'Hello, my name is Bob and I am the human'
cp_key c2 Enter
cp_wait j2 '^Hello, my name is Bob and I am the human$' 5 "the confederate's words are not on the judge's screen"
cp_type j2 'ok'
cp_wait j2 '^>ok$' 5 "no fresh prompt on the judge's side"

# Over TCP.
P=$(free_port)
cp_run c3 "$COMPROG confederate -n Bob --no-record tcp-listen:127.0.0.1:$P"
cp_wait c3 'waiting for a peer' 5 "the listener does not say it waits"
cp_run j3 "$COMPROG judge --no-record tcp:127.0.0.1:$P"
cp_wait j3 "tcp:127.0.0.1:$P up" 10 "the judge did not connect"
cp_type j3 'Over TCP?'
cp_key j3 Enter Enter
cp_wait c3 '^Over TCP\?$' 5 "the judge's words did not cross TCP"
cp_type c3 'Yes.'
cp_key c3 Enter
cp_wait j3 '^Yes\.$' 5 "the confederate's words did not cross TCP"
echo ok
