# The judges' ballots at their terminals (rules.ballot): when a round
# stops, the left terminal of each station asks for the ballot of the
# rule; what is not an answer is asked again, BackSpace erases; the
# ballot goes into ballots.csv (which transcripts score reads), into the
# terminal's capture as a marker, and to the watchers; the judge is not
# told who was where.  With 2003, each terminal is rated in turn.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
RULES='rules = { ballot = "2004"; };' room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1
eside=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .side')
tty "$T/j1l" 'drain:200' >/dev/null
mctl round stop >/dev/null
tty "$T/j1l" 'expect:give the LEFT one' >"$T/prompt" || fail "no ballot prompt: $(cat "$T/prompt")"
grep -q 'E1\|C1' "$T/prompt" && fail "the prompt names an entity: $(cat "$T/prompt")"
tty "$T/j1l" 'type:50\r' 'expect:not 50.' >/dev/null || fail "50 was not refused"
tty "$T/j1l" 'type:7\x7f65\r' 'expect:Ballot recorded' >/dev/null || fail "the ballot was not recorded"
B=$T/state/ballots.csv
[ -f "$B" ] || fail "no ballots.csv"
head -1 "$B" | grep -qx 'round,judge,entity,kind,vs,points,human,rating' || fail "ballots: $(cat "$B")"
if [ "$eside" = left ]; then ep=65; cp=35; else ep=35; cp=65; fi
grep -qx "1,07,E1,entry,C1,$ep,," "$B" || fail "ballots: $(cat "$B")"
grep -qx "1,07,C1,confederate,E1,$cp,," "$B" || fail "ballots: $(cat "$B")"
wait_for "grep -q '\"event\":\"ballot\"' '$T/events'" 5 || fail "no ballot event"
grep -q "\"m\", \"ballot round 1 judge 07 E1 points $ep\"" "$T/state/captures/unrouted-j1l.cast" ||
	fail "no ballot marker in the terminal's capture: $(grep ballot "$T/state/captures/unrouted-j1l.cast")"
"$TX" score -r 2004 "$B" >"$T/score" || fail "score: $(cat "$T/score")"
if [ "$ep" = 65 ]; then w=E1; else w=none; fi
grep -q "^winner: $w" "$T/score" || fail "score: $(cat "$T/score")"
# Typing now is no ballot: the usual notice.
tty "$T/j1l" 'type:x' 'expect:no conversation on this terminal' >/dev/null || fail "no notice after the ballot"
muxd_stop

# 2003: each terminal rated in turn; a rating out of range asked again.
RULES='rules = { ballot = "2003"; };' room1
muxd_start -f "$T/room.conf"
round_start 2
mctl round stop >/dev/null
tty "$T/j1l" 'expect:your LEFT partner' 'type:6\r' 'expect:Not an answer.' 'type:4.5\r' \
    'expect:your RIGHT partner' 'type:2\r' 'expect:Ballot recorded' >/dev/null || fail "the 2003 ballot"
grep -q '^2,07,[EC]1,[a-z]*,[EC]1,,,4.5$' "$B" && grep -q '^2,07,[EC]1,[a-z]*,[EC]1,,,2$' "$B" ||
	fail "ballots: $(cat "$B")"
# A ballot not given when the next round starts is told.
round_start 1
mctl round stop >/dev/null
round_start 2
wait_for "grep -q 'judge 07 gave no ballot for round 1' '$T/muxd.log'" 5 || fail "the missing ballot was not told"
echo ok
