# tests/run itself, on scenarios of its own in a tree of their own: they
# run side by side (two that each wait for the other pass only so), each
# with its own range of ports; the one tagged serial runs after them,
# alone; those tagged entries one after the other; the one tagged bench
# runs only when named; a skip (77) is counted apart and says why, a
# unit test's TAP skip too; a failure is named; the last line is
# "N passed, N failed".
. tests/integration/lib.sh

R=$T/tree
mkdir -p "$R/tests/integration" "$R/b"
cp "$ROOT/tests/run" "$R/tests/run"
cp "$ROOT/tests/integration/lib.sh" "$R/tests/integration/lib.sh"
S=$R/tests/integration
# Each of a and b says it is here and waits for the other, then takes a
# free port; while they run, a file says so.
for x in a b; do
	y=$([ $x = a ] && echo b || echo a)
	cat >"$S/$x.sh" <<EOS
# Waits for $y.
. tests/integration/lib.sh
: >"$R/running.$x"
: >"$R/here.$x"
wait_for "[ -e '$R/here.$y' ]" 60 || { rm -f "$R/running.$x"; fail "$y did not run alongside"; }
free_port >"$R/port.$x"
echo "\$TEST_PORTS" >"$R/range.$x"
sleep 0.5
rm -f "$R/running.$x"
echo ok
EOS
done
cat >"$S/c-skip.sh" <<'EOS'
# Skips.
echo "the moon is not full"
exit 77
EOS
cat >"$S/d-fail.sh" <<'EOS'
# Fails.
echo "FAIL: as it should"
exit 1
EOS
cat >"$S/e-alone.sh" <<EOS
# Alone.
# test: serial: it wants the machine to itself
. tests/integration/lib.sh
ls "$R" | grep -q '^running\.' && fail "ran beside \$(ls "$R" | grep '^running\.')"
[ -e "$R/port.a" ] && [ -e "$R/port.b" ] || fail "ran before the others ended"
echo ok
EOS
cat >"$S/f-bench.sh" <<EOS
# test: bench: it measures
: >"$R/bench.ran"
echo ok
EOS
# g1 and g2, tagged entries: one after the other (g2 finds g1 ended).
cat >"$S/g1.sh" <<EOS
# test: entries: they share uids
sleep 1
echo ok
EOS
cat >"$S/g2.sh" <<EOS
# test: entries: they share uids
[ -e "$R/b/test-logs/g1.result" ] || { echo "FAIL: ran beside g1"; exit 1; }
echo ok
EOS
cat >"$R/unit" <<'EOS'
#!/bin/sh
echo "ok 1 - one"
echo "1..2"
echo "no data here: left out"
echo "not ok 2 # SKIP two"
EOS
chmod +x "$R/unit"

# The qemu lab is the real tree's: not run here, whatever LAB says.
(cd "$R" && LAB=0 sh tests/run -j 3 B=b ./unit) >"$T/out" 2>&1
st=$?
cat "$T/out"
[ "$st" = 1 ] || fail "tests/run exited $st with a scenario failed"
[ "$(tail -1 "$T/out")" = "6 passed, 1 failed" ] || fail "the last line: $(tail -1 "$T/out")"
[ "$(tail -2 "$T/out" | head -1)" = "2 skipped" ] || fail "the skipped are not counted apart"
grep -qx 'failed: d-fail' "$T/out" || fail "the failure is not named"
grep -qx 'scenario c-skip: skipped: the moon is not full' "$T/out" || fail "the skip does not say why"
grep -qx 'unit unit: two: skipped: no data here: left out' "$T/out" || fail "the unit test's skip does not say why"
grep -qx 'unit unit: 1 passed, 0 failed, 1 skipped' "$T/out" || fail "the unit test's skip counted as a failure"
[ -s "$R/b/test-logs/a.log" ] && [ -s "$R/b/test-logs/d-fail.log" ] || fail "no log kept for each scenario"
[ ! -e "$R/bench.ran" ] || fail "the bench scenario ran unnamed"
pa=$(cat "$R/port.a") pb=$(cat "$R/port.b") ra=$(cat "$R/range.a") rb=$(cat "$R/range.b")
[ "$ra" != "$rb" ] || fail "a and b had the same range of ports ($ra)"
[ "$pa" -ge "$ra" ] && [ "$pa" -lt $((ra + 100)) ] && [ "$pb" -ge "$rb" ] &&
    [ "$pb" -lt $((rb + 100)) ] || fail "ports outside their ranges: $pa of $ra, $pb of $rb"
# Named, the bench scenario runs.
(cd "$R" && sh tests/run B=b -- f-bench) >"$T/out2" 2>&1 || fail "f-bench named: $(cat "$T/out2")"
[ -e "$R/bench.ran" ] || fail "the bench scenario did not run when named"
echo ok
