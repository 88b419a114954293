# Dead lines.  With the schedule's ready_wait, a round that waits for its
# lines refuses the keys typed meanwhile on its lines (the judges'
# terminals and the confederate's raw pty alike) with a notice that it has
# not begun, and when it starts each of them reads "round N begins"
# before anything of the round; the entry's line reads nothing, and the
# confederate's first words after it are its first utterance (2004 rule
# 3: PASS).  Started with --force while the entry's line is down, the
# judge facing it is told the line is down, what it types is refused (not
# sent, not recorded as the conversation), and it is told again when the
# line comes up; the capture has markers for both.
. tests/integration/lib.sh

for c in j1l j1r e1 c1; do cable $c; done
CABLES=1 SCHEDULE_EXTRA='ready_wait = 30;' room1
muxd_start -f "$T/room.conf"
wait_port e1 up
wait_port c1 up
watch_events
unplug e1
wait_port e1 down

# (b) Round 1 waits for e1: keys on its lines are refused with a notice.
mctl round start 1 >"$T/out" || fail "round start with ready_wait was refused"
grep -q 'waits for its lines' "$T/out" || fail "round 1 does not wait: $(cat "$T/out")"
NOTYET='\r\n*** round 1 has not begun: wait for its start ***\r\n'
tty "$T/c1" 'send:Hello, my name is' "expect:$NOTYET" >/dev/null ||
	fail "the confederate typing during the wait was not told the round has not begun"
tty "$T/j1l" 'send:hello?' "expect:$NOTYET" >/dev/null ||
	fail "the judge's left terminal typing during the wait was not told"
tty "$T/j1r" 'send:hello?' "expect:$NOTYET" >/dev/null ||
	fail "the judge's right terminal typing during the wait was not told"
wait_for "grep -q '\"m\", \"refused round 1 not begun\"' '$T/state/captures/unrouted-c1.cast'" 5 ||
	fail "no marker of the refusal in c1's own capture"

# e1 comes back: the round begins, and every line of it but the entry's
# reads so, before the judge's prompt.
cable e1
wait_for "[ \"\$(mctl -j status | jq '.round.active')\" = true ]" 15 ||
	fail "round 1 did not start when e1 came up"
BEGINS='\r\n*** round 1 begins ***\r\n'
tty "$T/j1l" "expect:$BEGINS>" >/dev/null || fail "j1l did not read that round 1 begins, then its prompt"
tty "$T/j1r" "expect:$BEGINS>" >/dev/null || fail "j1r did not read that round 1 begins, then its prompt"
tty "$T/c1" "expect:$BEGINS" >/dev/null || fail "the confederate's raw pty did not read that round 1 begins"
tty "$T/e1" 'quiet:300' >/dev/null || fail "the entry's line was sent a notice"
# The confederate's words after the notice are its first utterance; the
# notice is neither its output nor the judge's input.
tty -d 5 "$T/c1" 'type:Hello, my name is Bob and I am the human.\r\n' >/dev/null
wait_for "grep '\"event\":\"verdict\"' '$T/events' | grep -q 'PASS.*assertion C1'" 5 ||
	fail "no PASS for C1 after the round began: $(grep verdict "$T/events")"
mctl round stop >/dev/null || fail "round stop failed"
cap=$(grep -l '"entity": *"C1"' "$T"/state/captures/round01-J1-*.cast)
jq -rj 'select(type == "array" and .[1] == "i") | .[2]' "$cap" | grep -q 'round\|\*\*\*' &&
	fail "a notice was recorded as the judge's input"

# (a) Round 2 forced with e1 down: the judge facing it is told, and its
# keys are refused until e1 is up.
unplug e1
wait_port e1 down
mctl round start 2 --force >/dev/null || fail "round start --force refused"
J=$(facing E1)
JC=$(facing C1)
DOWN='\r\n*** the line of this conversation is down: what you type is not sent ***\r\n'
tty "$J" "expect:$DOWN" >/dev/null || fail "the judge facing the dead line was not told it is down"
tty "$J" 'send:anyone there?\r\r' 'quiet:300' >/dev/null ||
	fail "keys for the dead line were echoed or a second notice came within 10 seconds"
tty "$JC" 'sleep:300' "save:$T/jc.out" >/dev/null
grep -q 'down' "$T/jc.out" && fail "the judge facing the live line was told of the dead one"
cable e1
wait_port e1 up 15
UP='\r\n*** the line of this conversation is up: you may type ***\r\n>'
tty "$J" "expect:$UP" >/dev/null || fail "the judge was not told the line is up, then prompted"
tty "$J" 'send:hello now\r\r' >/dev/null
tty "$T/e1" 'expect:hello now' "save:$T/e1.out" >/dev/null || fail "the judge's keys after the line came up did not reach e1"
grep -q 'anyone' "$T/e1.out" && fail "keys refused while e1 was down reached it"
mctl round stop >/dev/null || fail "round stop failed"

cap=$(grep -l '"entity": *"E1"' "$T"/state/captures/round02-J1-*.cast)
grep -q '"m", "fault e1 down' "$cap" || fail "no marker that e1 was down at the link's start"
jp=$(basename "$J")
grep -q "\"m\", \"refused $jp 15 bytes line e1 down\"" "$cap" ||
	fail "no marker of the 15 bytes refused: $(grep '"m"' "$cap")"
grep -q '"m", "fault e1 up"' "$cap" || fail "no marker that e1 came up"
jq -rj 'select(type == "array" and .[1] == "i") | .[2]' "$cap" >"$T/i.txt"
grep -q anyone "$T/i.txt" && fail "keys refused while e1 was down are recorded as the judge's input"
grep -q 'hello now' "$T/i.txt" || fail "the judge's keys after e1 came up are not recorded"
echo ok
