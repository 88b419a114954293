# The opening assertion of 2004 rule 3, checked live on each entity's first
# utterance to each judge: PASS (a typo mended with backspaces included),
# FAIL at the character where the text departs ("humanoid"), NAME for a
# name that is not the approved one; announced on watch at once, written
# to the capture and compliance.txt; checked once per pair, across rounds
# and restarts.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1

tty -d 5 "$T/e1" 'type:Hello, my nmae\x08\x08\x08ame is Ada and I am the human.\r\n' >/dev/null
wait_for "grep '\"event\":\"verdict\"' '$T/events' | grep -q 'PASS.*assertion E1'" 5 ||
	fail "no PASS for E1: $(grep verdict "$T/events")"
tty -d 5 "$T/c1" 'type:hello, my name is Bob and I am the humanoid\r\n' >/dev/null
wait_for "grep '\"event\":\"verdict\"' '$T/events' | grep -q 'FAIL.*assertion C1 at byte 40'" 5 ||
	fail "no FAIL for C1 at byte 42: $(grep verdict "$T/events")"
# The FAIL was announced before the line ended: first as provisional.
grep '"event":"verdict"' "$T/events" | grep 'assertion C1' | head -1 | grep -q 'so far' ||
	fail "the deviation was not announced at once"
grep -q 'judge 07 PASS assertion E1' "$T/state/compliance.txt" || fail "compliance.txt lacks E1's PASS"
grep -q 'judge 07 FAIL assertion C1 at byte 40' "$T/state/compliance.txt" || fail "compliance.txt lacks C1's FAIL"
mctl round stop >/dev/null
grep -h '"m", "verdict PASS judge 07 assertion E1' "$T"/state/captures/round01-*.cast >/dev/null ||
	fail "no verdict marker in E1's capture"
# The FAIL was decided on the byte read that departed ('o' of "humanoid"):
# its marker has that read's time, as muxd(8) says of what a read causes.
cap=$(grep -l '"m", "verdict FAIL' "$T"/state/captures/round01-*.cast | head -1)
awk -F'[[,]' '/, "o", / { t = $2 }
    /"m", "verdict FAIL/ { found = 1; if ($2 != t) bad = $2 " after " t; exit }
    END { if (!found) print "no FAIL marker"; else if (bad != "") print bad }' "$cap" >"$T/times"
[ ! -s "$T/times" ] || fail "the FAIL marker is not at the time of its byte: $(cat "$T/times")"

# Round 2, same judge: nothing is checked again, even after a restart.
muxd_stop KILL
muxd_start -f "$T/room.conf"
round_start 2
tty "$T/e1" 'type:whatever you say\r\n' >/dev/null
tty "$T/c1" 'type:no hello this time\r\n' >/dev/null
sleep 0.5
mctl round stop >/dev/null
[ "$(grep -c ' assertion ' "$T/state/compliance.txt")" = 2 ] ||
	fail "a pair was checked twice: $(cat "$T/state/compliance.txt")"

# A fresh contest (no state): the wrong name is NAME.
muxd_stop
rm -rf "$T/state"
muxd_start -f "$T/room.conf"
mctl round start 1 >/dev/null
tty "$T/e1" 'type:Hello, my name is Eve and I am the human!\r\n' >/dev/null
wait_for "grep -q 'NAME assertion E1' '$T/state/compliance.txt'" 5 ||
	fail "no NAME verdict for a name not approved: $(cat "$T/state/compliance.txt" 2>/dev/null)"
echo ok
