# A daemon killed with SIGKILL and started again resumes the running round
# (same placements, same end time) and the operator's manual links; the
# round then still stops by itself when its duration is up.
. tests/integration/lib.sh

DURATION=8 room2004
muxd_start -f "$T/room.conf"
wait_port c4 up
mctl round start 3 >/dev/null || fail "round 3 did not start"
mctl connect j2l e4 >/dev/null || fail "manual connect failed"
mctl -j status | jq -c '[.round.number, .round.seed, .round.ends, .round.placements]' >"$T/before"
mctl -j status | jq -r '[.links[].name] | sort | join(" ")' >"$T/links.before"
grep -q 'j2l=e4' "$T/links.before" || fail "manual link not listed"

muxd_stop KILL
[ -S "$SOCK" ] || fail "test expects the stale socket a killed daemon leaves"
muxd_start -f "$T/room.conf"
wait_port c4 up
mctl -j status | jq -c '[.round.number, .round.seed, .round.ends, .round.placements]' >"$T/after"
cmp -s "$T/before" "$T/after" || fail "round not resumed as it was: $(cat "$T/before") vs $(cat "$T/after")"
mctl -j status | jq -r '[.links[].name] | sort | join(" ")' >"$T/links.after"
cmp -s "$T/links.before" "$T/links.after" ||
	fail "links not restored: $(cat "$T/links.before") vs $(cat "$T/links.after")"
grep -q 'resuming round 3' "$T/muxd.log" || fail "resume not logged"

# The segments the killed daemon wrote through its mapping end where
# their text ends: the zeros it had allocated ahead are cut off when
# muxd starts again, the end marked, so that standard players read them.
for c in "$T"/state/captures/round03-*.1.cast; do
	[ -e "$c" ] || fail "no second segment of a resumed round link"
	first=${c%.1.cast}.cast
	[ "$(tail -c 1 "$first" | od -An -tx1 | tr -d ' ')" = 0a ] ||
		fail "$first does not end with its last line: $(tail -c 16 "$first" | od -c | head -2)"
	grep -q '"crash trimmed [1-9][0-9]* torn 0"' "$first" ||
		fail "$first does not say what was trimmed: $(tail -n 3 "$first")"
	grep -q '"resume [^"]*"' "$c" || fail "$c does not resume $first"
	# asciinema reads a terminal of its own: script(1) gives it one.
	script -qec "asciinema cat '$first'" /dev/null </dev/null \
	    >/dev/null 2>"$T/cat.err" ||
		fail "asciinema cat $first failed: $(tail -3 "$T/cat.err")"
	"$ROOT/$B/transcripts/transcripts" verify "$first" "$c" >"$T/verify.out" 2>&1
	grep -q ': \(torn\|event\|seal\):\|NUL\|syntax' "$T/verify.out" &&
		fail "verify finds the trimmed segment broken: $(cat "$T/verify.out")"
done

# The resumed links carry bytes (J1 compares E2 and C2 in round 3).
side=$(mctl -j status | jq -r '.links[] | select(.entity == "E2") | .side')
tty "$T/$(sport J1 "$side")" 'send:still judging\r\r' >/dev/null
tty "$T/e2" 'expect:still judging\r\r' >/dev/null || fail "resumed link J1-$side dead"
tty "$T/e4" 'send:manual\r\n' >/dev/null
tty "$T/j2l" 'expect:manual' >/dev/null || fail "resumed manual link dead"

# The duration, started before the kill, still ends the round.
wait_for "mctl -j status | jq -e '.round.active == false and .round.last == 3'" 15 ||
	fail "round 3 did not stop when its duration was up"
grep -q 'round 3 stopped (duration elapsed' "$T/muxd.log" || fail "timed stop not logged"
[ "$(mctl -j status | jq -r '[.links[].name] | join(" ")')" = "j2l=e4" ] ||
	fail "the timed stop should end round links only"
echo ok
