# transcripts score: the 2004 Final Four of the rule text, 32 ballots in
# the matrix's pairs, scored to its winner and medal with the rule that
# decided; the HTML report has a chart per entity with the 51 line; the
# same ballots as JSON score alike; a ballot that breaks rule 15 is told
# with its line and the exit status 3, no winner unless a partial result
# is asked for (-p, then marked partial); the other rules (2009, 2003,
# Long Now) from their ballots.  A real room's ballots, checked against
# its configuration (-c): the 2004 room of contrib/examples, a ballot
# removed, one duplicated, one for a pair that never met, each named by
# its line with status 3; a Long Now trial with a judge ranking twice.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
# The matrix: judge j compares entry e with confederate m[j][e].
m="1 2 3 4
4 1 2 3
3 4 1 2
2 3 4 1"
# Points judge j gave entry e: E2 wins twice (J1 and J3).
p="40 60 30 20
45 45 30 10
20 55 40 45
30 35 45 10"
echo "round,judge,entity,kind,vs,points" >"$T/b.csv"
j=0
echo "$m" | while read -r c1 c2 c3 c4; do
	j=$((j + 1))
	set -- $(echo "$p" | sed -n "${j}p")
	e=0
	for c in $c1 $c2 $c3 $c4; do
		e=$((e + 1))
		eval "pts=\${$e}"
		echo "1,J$j,E$e,entry,C$c,$pts" >>"$T/b.csv"
		echo "1,J$j,C$c,confederate,E$e,$((100 - pts))" >>"$T/b.csv"
	done
done
[ "$(wc -l <"$T/b.csv")" = 33 ] || fail "ballots: $(cat "$T/b.csv")"
"$TX" score -r 2004 -H "$T/r.html" "$T/b.csv" >"$T/out" 2>"$T/err" || fail "score: $(cat "$T/err")"
grep -q '^winner: E2, silver medal$' "$T/out" || fail "score: $(cat "$T/out")"
grep -q '^decided by: the highest column total, 2 pairs won' "$T/out" || fail "score: $(cat "$T/out")"
[ "$(grep -c '<svg class="chart"' "$T/r.html")" = 8 ] || fail "not a chart per entity: $(grep -c '<svg' "$T/r.html")"
grep -q 'class="threshold"' "$T/r.html" || fail "no 51 line in the charts"
grep -q '<p id="winner">Winner: E2, silver medal</p>' "$T/r.html" || fail "report: $(grep winner "$T/r.html")"
# The same ballots as JSON.
jq -R -s 'split("\n") | map(select(length > 0) | split(",")) | .[0] as $h |
    .[1:] | map([$h, .] | transpose | map({(.[0]): .[1]}) | add)' "$T/b.csv" >"$T/b.json"
"$TX" score -r 2004 -j "$T/b.json" >"$T/out.json" || fail "score -j"
jq -e '.winner == "E2" and .medal == "silver" and (.entities | length) == 8 and
    (.entities[] | select(.entity == "E2") | .score == 2 and (.values | length) == 4)' "$T/out.json" >/dev/null ||
	fail "score -j: $(cat "$T/out.json")"
# A pair that does not make 100: told with its line and status 3, no
# winner; with -p the rest scored, marked partial.
sed -i '2s/,40$/,45/' "$T/b.csv"
rc=0; "$TX" score -r 2004 "$T/b.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || fail "a bad ballot: status $rc"
grep -q "b.csv:2: J1: E1 45 and C1 60 do not make 100 (rule 15)" "$T/err" || fail "score: $(cat "$T/err")"
grep -q '^winner' "$T/out" && fail "a winner on incomplete ballots: $(cat "$T/out")"
rc=0; "$TX" score -p -r 2004 "$T/b.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || fail "a bad ballot, -p: status $rc"
grep -q '^winner: E2, silver medal (partial)$' "$T/out" || fail "the rest was not scored: $(cat "$T/out")"

# 2003: means and the silver rule.
printf 'judge,entity,kind,rating\nJ1,E1,entry,4\nJ2,E1,entry,3.5\nJ1,C1,confederate,3.75\nJ2,C1,confederate,3.75\nJ1,E2,entry,1\nJ2,E2,entry,0\n' >"$T/r03.csv"
"$TX" score -r 2003 "$T/r03.csv" >"$T/out" || fail "2003"
grep -q '^winner: E1, silver medal$' "$T/out" || fail "2003: $(cat "$T/out")"
# Long Now: one trial, passed.
printf 'round,judge,entity,kind,human,rank\n' >"$T/ln.csv"
for j in 1 2 3; do
	printf '1,J%s,K,computer,%s,3\n1,J%s,F1,foil,yes,4\n1,J%s,F2,foil,yes,2\n1,J%s,F3,foil,yes,1\n' \
	    $j $([ $j = 3 ] && echo no || echo yes) $j $j $j >>"$T/ln.csv"
done
"$TX" score -r longnow "$T/ln.csv" >"$T/out" || fail "longnow: $(cat "$T/out")"
grep -q 'trial 1: K fooled 2 of 3 judges (passes the Human Determination Test); median rank 3, at or above 2 of 3 foils' "$T/out" ||
	fail "longnow: $(cat "$T/out")"
grep -q 'PASSED the Turing test' "$T/out" || fail "longnow: $(cat "$T/out")"
"$TX" score -r 1999 "$T/ln.csv" 2>/dev/null && fail "a rule not in the texts"

# A real room: contrib/examples/room2004.conf, its seven rounds as muxd -n
# prints them, each judge's ballot on each of its pair as muxd writes them.
CONF=$ROOT/contrib/examples/room2004.conf
"$ROOT/$B/muxd/muxd" -n -f "$CONF" >"$T/sched" 2>&1 || fail "muxd -n: $(cat "$T/sched")"
echo "round,judge,entity,kind,vs,points,human,rating" >"$T/room.csv"
awk -F'; ' '/^round [0-9]+: / {
	r = $1; sub(/^round /, "", r); sub(/:.*/, "", r); sub(/^round [0-9]+: /, "", $1)
	for (i = 1; i <= NF; i++) {
		if (split($i, w, " ") != 7 || w[4] != "compares")
			continue
		j = w[3]; sub(/\)/, "", j)
		p = 30 + (r * 13 + j * 7) % 40
		if (p == 50)
			p = 52
		printf "%d,%02d,%s,entry,%s,%d,,\n", r, j, w[5], w[7], p
		printf "%d,%02d,%s,confederate,%s,%d,,\n", r, j, w[7], w[5], 100 - p
	}
}' "$T/sched" >>"$T/room.csv"
[ "$(wc -l <"$T/room.csv")" = 33 ] || fail "room ballots: $(cat "$T/room.csv")"
"$TX" score -r 2004 -c "$CONF" "$T/room.csv" >"$T/out" 2>"$T/err" || fail "the room's ballots: $(cat "$T/err")"
[ -s "$T/err" ] && fail "the room's ballots: $(cat "$T/err")"
grep -q '^winner: E[1-4], ' "$T/out" || fail "the room's ballots: $(cat "$T/out")"
# Each fault alone: its error at its line, status 3, no winner.
room_fault() {	# what, then the error expected on stderr
	rc=0; "$TX" score -r 2004 -c "$CONF" "$T/bad.csv" >"$T/out" 2>"$T/err" || rc=$?
	[ $rc = 3 ] || fail "$1: status $rc: $(cat "$T/err")"
	grep -qF "$2" "$T/err" || fail "$1: not told ($2): $(cat "$T/err")"
	grep -q '^winner' "$T/out" && fail "$1: a winner all the same: $(cat "$T/out")"
	return 0
}
set -- $(sed -n '16p' "$T/room.csv" | tr ',' ' ')
# Line 16 is round 3, judge 04 on E3, and line 17 its confederate's.
[ "$1 $2 $3 $5" = "3 04 E3 C4" ] || fail "the room's schedule changed: $(sed -n 16p "$T/room.csv")"
sed '17d' "$T/room.csv" >"$T/bad.csv"
room_fault "a ballot removed" "bad.csv:16: round 3: no ballot of judge 04 on C4, met with E3 (the schedule of $CONF), whose ballot is on this line"
{ cat "$T/room.csv"; sed -n '2p' "$T/room.csv"; } >"$T/bad.csv"
room_fault "a ballot duplicated" "bad.csv:34: round 1: judge 01's ballot on E1 again (first at line 2): the first is scored"
{ cat "$T/room.csv"; echo "1,01,E2,entry,C2,60,,"; } >"$T/bad.csv"
room_fault "a pair that never met" "bad.csv:34: round 1: judge 01 never met E2 and C2 (the schedule of $CONF)"
# All three at once: every one told; -p gives the rest, marked partial.
{ sed '17d' "$T/room.csv"; sed -n '2p' "$T/room.csv"; echo "1,01,E2,entry,C2,60,,"; } >"$T/bad.csv"
rc=0; "$TX" score -p -r 2004 -c "$CONF" -H "$T/p.html" "$T/bad.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || fail "-p: status $rc"
[ "$(grep -c 'bad.csv:[0-9]*: ' "$T/err")" = 3 ] || fail "-p: not every error told: $(cat "$T/err")"
grep -q '^winner: E[1-4], [a-z]* medal (partial)$' "$T/out" || fail "-p: $(cat "$T/out")"
grep -q '^decided by: .* (partial)$' "$T/out" || fail "-p: $(cat "$T/out")"
grep -q '^2004 scoring of .* (partial: 3 errors in the ballots)$' "$T/out" || fail "-p: $(cat "$T/out")"
grep -q '^  E3 .* (partial)$' "$T/out" && grep -q '^  C4 .* (partial)$' "$T/out" ||
	fail "-p: the entities of the missing ballot: $(cat "$T/out")"
grep -q '<p class="partial" id="partial">Partial: 3 errors' "$T/p.html" || fail "-p: the report: $(grep -i partial "$T/p.html")"
rc=0; "$TX" score -j -r 2004 -c "$CONF" "$T/bad.csv" >"$T/out.json" 2>/dev/null || rc=$?
[ $rc = 3 ] && jq -e '.winner == null and .errors == 3' "$T/out.json" >/dev/null ||
	fail "-j, no -p: status $rc: $(cat "$T/out.json")"

# The same schedule as pair lines in the ballots file, no -c: the removed
# ballot told at the same line.
{ sed -n 's/^\([0-9]*\),\([0-9]*\),\(E[0-9]\),entry,\(C[0-9]\),.*/pair,\1,\2,\3,\4/p' "$T/room.csv"
  sed '17d' "$T/room.csv"; } >"$T/bad.csv"
[ "$(grep -c '^pair,' "$T/bad.csv")" = 16 ] || fail "pair lines: $(cat "$T/bad.csv")"
rc=0; "$TX" score -r 2004 "$T/bad.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] && grep -qF "bad.csv:32: round 3: no ballot of judge 04 on C4, met with E3 (the pairs of $T/bad.csv)" "$T/err" ||
	fail "pair lines: status $rc: $(cat "$T/err")"

# The Long Now room (contrib/examples/longnow.conf): its trial as the
# committee enters it, then a judge who ranks two candidates 3.
LCONF=$ROOT/contrib/examples/longnow.conf
cp "$T/ln.csv" "$T/trial.csv"
"$TX" score -r longnow -c "$LCONF" "$T/trial.csv" >"$T/out" 2>"$T/err" || fail "the Long Now room: $(cat "$T/err")"
sed -i '4s/,2$/,3/' "$T/trial.csv"
sed -n 4p "$T/trial.csv" | grep -qx '1,J1,F2,foil,yes,3' || fail "trial: $(cat "$T/trial.csv")"
rc=0; "$TX" score -r longnow -c "$LCONF" "$T/trial.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || fail "a rank given twice: status $rc"
grep -qF "trial.csv:4: round 1: judge J1 ranks both K (line 2) and F2 3: a place is given once" "$T/err" ||
	fail "a rank given twice: $(cat "$T/err")"
grep -q 'trial 1' "$T/out" && fail "a trial all the same: $(cat "$T/out")"
# A missing ballot in the Long Now room: told, with the judge alone.
sed '/^1,J2,F3,/d' "$T/ln.csv" >"$T/trial.csv"
rc=0; "$TX" score -r longnow -c "$LCONF" "$T/trial.csv" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] && grep -qF "no ballot of judge 02 on F3, met alone (the schedule of $LCONF)" "$T/err" ||
	fail "a missing Long Now ballot: status $rc: $(cat "$T/err")"
echo ok
