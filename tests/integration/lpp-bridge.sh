# The LPP bridge (comprog lpp): programs that speak the 2009 rules'
# directory protocol take part over muxd lines.  An entry written from
# the rules' text alone (tests/tools/lppbot.py) answers a judge at a
# terminal: the judge's keys reach it as ".judge" directories, BackSpace
# included, and its ".other" keys come back to the judge's screen and
# the transcript.  A judge program does the same from the other end
# (--judge): its keys reach the confederate, and what the confederate
# types comes back to it without muxd's echo of its own keys.  A
# directory that is no key press is told and deleted.
. tests/integration/lib.sh

COMPROG=$ROOT/$B/comprog/comprog
BOT=$ROOT/tests/tools/lppbot.py
RULES='rules = { assertion = "off"; };' room1
muxd_start -f "$T/room.conf"
round_start 1
JE=$(facing E1)
JC=$(facing C1)
mkdir "$T/lpp" "$T/lppj"
bg "$COMPROG" lpp --no-record -l "$T/bridge.log" "$T/e1" "$T/lpp"
bg python3 "$BOT" entry "$T/lpp" 30
wait_for "grep -q 'lpp: the line is up' '$T/bridge.log'" 5 || fail "the bridge: $(cat "$T/bridge.log")"
tty -d 30 "$JE" 'type:Helo\x08lo there\r\r' 'expect:You said: Hello there' >"$T/judge.out" ||
	fail "the LPP entry did not answer: $(cat "$T/judge.out"; cat "$T/bridge.log"; ls "$T/lpp")"
# Directories that are no key press: told, deleted, nothing sent.
mkdir "$T/lpp/000000000000000001.nosuchkey.other" "$T/lpp/12.a.other"
wait_for "grep -q 'lpp: 12.a.other: not TIME.KEY.other' '$T/bridge.log'" 5 ||
	fail "a bad key was not told: $(cat "$T/bridge.log")"
grep -q 'lpp: 000000000000000001.nosuchkey.other: not TIME.KEY.other with a key of the rules' "$T/bridge.log" ||
	fail "an unknown key name was not told: $(cat "$T/bridge.log")"
[ ! -e "$T/lpp/12.a.other" ] || fail "a bad key was left"
mctl round stop >/dev/null
grep -q '^PROGRAM\[[0-9:]*\]You said: Hello there$' "$T"/state/transcripts/E1/*.TXT ||
	fail "transcript: $(cat "$T"/state/transcripts/E1/*.TXT)"
wait_for "[ -z \"\$(ls '$T/lpp')\" ]" 3 || fail "keys left in the directory: $(ls "$T/lpp")"

# A judge program on the terminal that faces C1, there before the round
# as a judge's terminal is (it sees muxd's prompt at the link's start).
tty "$JC" 'drain:300' >/dev/null	# the end of round 1 told there
bg "$COMPROG" lpp --judge --no-record -l "$T/bridgej.log" "$JC" "$T/lppj"
wait_for "grep -q 'lpp: the line is up' '$T/bridgej.log'" 5 || fail "the judge's bridge: $(cat "$T/bridgej.log")"
round_start 1
[ "$(facing C1)" = "$JC" ] || fail "C1 moved in round 1 again"
tty "$T/c1" 'drain:300' >/dev/null
python3 "$BOT" judge "$T/lppj" "$T/got" 'Are you humam\bn?\r\r' 20 &
PIDS="$PIDS $!"
tty -d 30 "$T/c1" 'expect:Are you humam\x08n?\r\r' 'type:Yes, I am.\r\n' >/dev/null ||
	fail "the judge program's keys did not reach C1: $(cat "$T/bridgej.log")"
wait_for "[ -s '$T/got' ]" 25 || fail "the judge program got nothing back: $(cat "$T/bridgej.log")"
printf 'Yes, I am.\n' >"$T/want"
cmp -s "$T/got" "$T/want" || fail "the judge program got $(od -c "$T/got" | head -3)"
echo ok
