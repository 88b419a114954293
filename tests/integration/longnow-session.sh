# The Long Now wager's session (schedule preset "longnow"): muxd -n
# prints the four two-hour rounds; in a round each judge's left terminal
# has one candidate and the right one none; after the interview each
# judge says human or machine at the terminal (rules.ballot "longnow");
# with the ranks added, transcripts score -r longnow tells the trial's
# Human Determination and Rank Order tests.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; }, { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "j2l"; address = "pty:$T/j2l"; }, { name = "j2r"; address = "pty:$T/j2r"; },
  { name = "j3l"; address = "pty:$T/j3l"; }, { name = "j3r"; address = "pty:$T/j3r"; },
  { name = "k"; address = "pty:$T/k"; }, { name = "f1"; address = "pty:$T/f1"; },
  { name = "f2"; address = "pty:$T/f2"; }, { name = "f3"; address = "pty:$T/f3"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1l"; right = "j1r"; },
             { name = "J2"; judge = 2; left = "j2l"; right = "j2r"; },
             { name = "J3"; judge = 3; left = "j3l"; right = "j3r"; } );
rules = { assertion = "off"; ballot = "longnow"; };
entities = ( { name = "K"; kind = "entry"; port = "k"; approved = "Kim"; },
             { name = "F1"; kind = "confederate"; port = "f1"; approved = "Ann"; },
             { name = "F2"; kind = "confederate"; port = "f2"; approved = "Bob"; },
             { name = "F3"; kind = "confederate"; port = "f3"; approved = "Cyd"; } );
schedule = { preset = "longnow"; };
EOC
"$MUXD" -n -f "$T/room.conf" >"$T/check" 2>&1 || fail "muxd -n: $(cat "$T/check")"
grep -qx 'schedule: preset longnow, 4 rounds of 120 min' "$T/check" || fail "muxd -n: $(cat "$T/check")"
grep -qx 'round 1: J1 (judge 1) interviews K; J2 (judge 2) interviews F1; J3 (judge 3) interviews F2; excused F3' "$T/check" ||
	fail "muxd -n: $(cat "$T/check")"
[ "$(grep -c '^round [1-4]: ' "$T/check")" = 4 ] || fail "muxd -n: $(cat "$T/check")"

muxd_start -f "$T/room.conf"
round_start 1
mctl -j status >"$T/status"
jq -e '[.links[] | select(.station == "J1")] | length == 1 and .[0].side == "left" and .[0].entity == "K"' "$T/status" >/dev/null ||
	fail "J1's terminals: $(jq -c '.links' "$T/status")"
jq -e '.round.placements[] | select(.station == "J2") | .left == "F1" and .right == null' "$T/status" >/dev/null ||
	fail "placements: $(jq -c '.round.placements' "$T/status")"
tty "$T/j1l" 'type:are you a machine?\r\r' >/dev/null
tty "$T/k" 'expect:are you a machine?' 'type:no, I am Kim\r\n' >/dev/null || fail "J1 and K do not talk"
tty "$T/j1l" 'expect:I am Kim' >/dev/null || fail "K's answer did not reach J1"
tty "$T/j1r" 'type:hello?' 'expect:no conversation on this terminal' >/dev/null || fail "the idle terminal"
mctl round stop >/dev/null
for j in 1 2 3; do
	tty "$T/j${j}l" 'expect:your LEFT terminal a human or a machine' \
	    "type:$([ $j = 3 ] && echo M || echo h)\\r" 'expect:Ballot recorded' >/dev/null ||
		fail "J$j's ballot"
done
B=$T/state/ballots.csv
grep -qx '1,01,K,entry,,,yes,' "$B" && grep -qx '1,03,F2,confederate,,,no,' "$B" || fail "ballots: $(cat "$B")"
grep -q ',,,\(yes\|no\),$' "$B" || fail "ballots: $(cat "$B")"
# The trial as the wager scores it, with the three judges' verdicts and
# ranks on all four candidates (here written whole, as the committee
# would enter them).
cat >"$T/trial.csv" <<EOB
round,judge,entity,kind,human,rank
1,J1,K,entry,yes,4
1,J2,K,entry,yes,3
1,J3,K,entry,no,2
1,J1,F1,confederate,yes,3
1,J2,F1,confederate,yes,4
1,J3,F1,confederate,yes,4
1,J1,F2,confederate,no,2
1,J2,F2,confederate,yes,2
1,J3,F2,confederate,yes,3
1,J1,F3,confederate,yes,1
1,J2,F3,confederate,no,1
1,J3,F3,confederate,yes,1
EOB
"$TX" score -r longnow "$T/trial.csv" >"$T/score" || fail "score: $(cat "$T/score")"
grep -q 'trial 1: K fooled 2 of 3 judges (passes the Human Determination Test); median rank 3, at or above 2 of 3 foils' "$T/score" ||
	fail "score: $(cat "$T/score")"
echo ok
