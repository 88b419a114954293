# comprog --charset utf-8 in a room whose charset is "utf-8": the judge's
# "café — don’t" reaches the confederate's screen whole, a character of
# three bytes is erased whole by one Backspace, the confederate's answer
# with such characters reaches the judge's screen whole, and comprog's
# transcript keeps them.  The confederate's side takes the profile's
# charset; a profile's charset other than the two is refused; its own
# check of the opening assertion reads UTF-8.  The entry
# adapter types an answer with such characters on the line whole.
. tests/integration/lib.sh

export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmux() { command tmux -u -L "cputf8-$$" "$@"; }
trap 'command tmux -L "cputf8-$$" kill-server 2>/dev/null; cleanup' EXIT

RULES='charset = "utf-8";' room1
muxd_start -f "$T/room.conf"
mkdir -p "$T/rec"
echo 'charset = "utf-8"; prompt = "»";' >"$T/utf8.profile"
cp_run confed "$COMPROG confederate -p $T/utf8.profile -n Bob --no-record $T/c1"
cp_wait confed '^Begin with' 5 "the confederate's side did not start"
round_start 1
H=$(facing C1)
cp_run judge "$COMPROG judge --charset utf-8 -r $T/rec $H"
cp_wait judge '^>' 5 "muxd's prompt is not on the judge's screen"
cp_type judge '@@07'
cp_key judge Enter Enter
cp_type judge 'café — don’’'
cp_key judge BSpace
cp_type judge 't'
cp_wait judge '^>café — don’t$' 5 "the judge's line is not shown whole, or the erase took more or less than a character"
cp_key judge Enter Enter
cp_wait confed '^café — don’t$' 5 "the judge's line did not reach the confederate's screen whole"

cp_type confed 'Hello, my name is Bob and I am the human. Ça va? don’’'
cp_key confed BSpace
cp_type confed 't — café'
cp_key confed Enter
cp_wait confed "^Hello, my name is Bob and I am the human. Ça va\? don’t — café$" 5 \
	"the confederate's own line is not shown whole"
cp_wait judge "^Hello, my name is Bob and I am the human. Ça va\? don’t — café$" 5 \
	"the confederate's line did not reach the judge's screen whole"
cp_key judge C-] q
cp_wait judge 'comprog-exit=0' 5 "C-] q did not end comprog"
tx=$(ls "$T"/rec/LP*.TXT) || fail "no transcript"
grep -q '^JUDGE07\[[0-9:]*\]café — don’t$' "$tx" ||
	fail "the judge's line is not whole in the transcript: $(cat "$tx")"
grep -q "^PROGRAM\[[0-9:]*\]Hello, my name is Bob and I am the human. Ça va? don’t — café$" "$tx" ||
	fail "the confederate's line is not whole in the transcript: $(cat "$tx")"
cap=$(ls "$T"/rec/*.cast) || fail "no capture"
head -1 "$cap" | grep -q '"charset": *"utf-8"' || fail "the capture does not name the charset: $(head -1 "$cap")"
muxd_stop

echo 'charset = "utf-16";' >"$T/bad.profile"
"$COMPROG" judge -p "$T/bad.profile" "$T/none" 2>"$T/bad.err" && fail "a charset utf-16 was taken"
grep -q 'bad.profile:1: charset must be "iso-8859-1" or "utf-8"' "$T/bad.err" ||
	fail "the bad charset is not named: $(cat "$T/bad.err")"

# The confederate's own check of the opening assertion reads UTF-8: an
# approved name with an accent, typed in capitals, is the name.
cable pair
cp_run c2 "$COMPROG confederate --charset utf-8 -n José --no-record $T/pair.dev"
cp_wait c2 '^Begin with: Hello, my name is José and I am the human' 5 "the reminder does not name José"
tty "$T/pair" 'send:@@03\r\r' >/dev/null
cp_wait c2 '^Judge 03' 5 "the judge's @@03 did not name him"
cp_type c2 'Hello, my name is JOSÉ and I am the human'
cp_key c2 Enter
cp_wait c2 'I am the human  \[opening: OK\]' 5 "the opening assertion with JOSÉ is not confirmed"

# The entry adapter, on a pty pair: the answer goes out whole.
cable line
cp_run entry "$COMPROG entry --charset utf-8 --echo --typing 20 --no-record $T/line.dev -- sh -c 'while read -r l; do echo \"ok: café — don’t\"; done'"
sleep 0.5
tty "$T/line" 'send:hi\r\r' 'expect:ok: caf\xc3\xa9 \xe2\x80\x94 don\xe2\x80\x99t\r\n' >/dev/null ||
	fail "the entry's answer did not reach the line whole"
echo ok
