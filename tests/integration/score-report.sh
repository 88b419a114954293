# transcripts score: the 2004 Final Four of the rule text, 32 ballots in
# the matrix's pairs, scored to its winner and medal with the rule that
# decided; the HTML report has a chart per entity with the 51 line; the
# same ballots as JSON score alike; a ballot that breaks rule 15 is told
# with its line and the exit status, the rest still scored; the other
# rules (2009, 2003, Long Now) from their ballots.
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
echo ok
