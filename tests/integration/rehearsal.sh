# The full-dress rehearsal (contrib/rehearsal/rehearse, rehearse(8)),
# quick: two rounds of the 2004 room, the 2012 logs' first minute typed
# 50 times faster.  It exits 0 with "REHEARSAL OK" and a report of the
# rounds, links, bytes, verdicts, verification, manifests and scores,
# and the evidence it leaves verifies on its own; a planted fault, a
# confederate who never types the assertion or a ballot left out, makes
# it exit 1 naming it at the top.  Its command line keeps the programs'
# convention, and its manual page's SYNOPSIS is its --help.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
R=$ROOT/contrib/rehearsal/rehearse
LOGS=${LPP2012:-$ROOT/../shared/data/loebner2012}
if [ ! -d "$LOGS" ]; then
	echo "skipped: the 2012 logs are not at $LOGS (set LPP2012)"
	exit 77
fi
command -v python3 >/dev/null 2>&1 || fail "python3 is not installed (apt-get install python3)"
export LPP2012=$LOGS
QUICK="-B $ROOT/$B -s 50 -w 60"

# The command line.
"$R" --help >"$T/out" 2>"$T/err" || fail "rehearse --help exited $?"
grep -q '^usage: rehearse' "$T/out" || fail "rehearse --help: $(cat "$T/out")"
[ -s "$T/err" ] && fail "rehearse --help wrote on stderr: $(cat "$T/err")"
[ "$("$R" -B "$ROOT/$B" --version)" = "$("$MUXD" --version | sed 's/^muxd/rehearse/')" ] ||
	fail "rehearse --version: $("$R" -B "$ROOT/$B" --version)"
for c in "-Z:rehearse: unknown option -Z" "-s:rehearse: option -s needs an argument" \
    "-r 8:rehearse: -r 8: rounds are 1 to 7" "-F late-judge:rehearse: -F late-judge: a fault is one of silent-confederate, no-ballot"; do
	# shellcheck disable=SC2086
	"$R" ${c%%:*} >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "rehearse ${c%%:*} exited $rc, not 2"
	[ "$(head -1 "$T/err")" = "${c#*:}" ] || fail "rehearse ${c%%:*}: $(head -1 "$T/err")"
	sed -n 2p "$T/err" | grep -q '^usage: rehearse' || fail "rehearse ${c%%:*}: no usage: $(cat "$T/err")"
done
synopsis() {
	sed -e 's/.\x08//g' -e 's/^usage: //' | tr -s ' \t\n' '   ' |
	    sed -e 's/ *| */|/g' -e 's/^ //' -e 's/ $//'
}
page=contrib/rehearsal/rehearse.8
help=$("$R" --help | synopsis)
man=$(mandoc -Tascii -O width=1000 "$page" | sed 's/.\x08//g' |
    awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' | synopsis)
[ "$help" = "$man" ] || fail "rehearse(8)'s SYNOPSIS is not --help:
  --help:   $help
  SYNOPSIS: $man"
mandoc -Tlint -Wwarning "$page" 2>&1 | grep -v 'outdated mandoc.db' >"$T/lint"
[ -s "$T/lint" ] && fail "mandoc -Tlint: $(cat "$T/lint")"

# Two rounds: all is right.
# shellcheck disable=SC2086
"$R" $QUICK -r 2 -d "$T/ok" >"$T/report" 2>"$T/err"
rc=$?
cat "$T/report"
[ "$rc" = 0 ] || fail "the rehearsal exited $rc: $(cat "$T/report" "$T/err")"
[ -s "$T/err" ] && fail "the rehearsal wrote on stderr: $(cat "$T/err")"
[ "$(head -1 "$T/report")" = "REHEARSAL OK: all is right" ] || fail "report: $(head -3 "$T/report")"
cmp -s "$T/report" "$T/ok/report.txt" || fail "report.txt is not the report printed"
[ "$(wc -l <"$T/report")" -le 66 ] || fail "the report is more than a page: $(wc -l <"$T/report") lines"
grep -q '^schedule .*: 2 of 7 rounds run' "$T/report" || fail "rounds run: $(grep ^schedule "$T/report")"
[ "$(grep -c '^round [12]  *J[1-4] E[1-4] [LR][0-9]* C[1-4] [LR][0-9]*; J' "$T/report")" = 2 ] ||
	fail "the rounds' lines: $(grep '^round' "$T/report")"
grep -q '^links  *6 conversations, 12 links$' "$T/report" || fail "links: $(grep ^links "$T/report")"
grep -q '^bytes  *judges to entities \([1-9][0-9]*\) (the judges typed \1), entities to judges [1-9]' "$T/report" ||
	fail "bytes: $(grep ^bytes "$T/report")"
# (A character verdict may be a burst on a loaded host: a note, not wrong.)
v=$(sed -n 's/^verdicts  *12 PASS assertion, \([0-9]*\) PASS character, \([0-9]*\) other .*/\1+\2/p' "$T/report")
[ -n "$v" ] && [ $(( $v )) = 12 ] || fail "verdicts: $(grep ^verdicts "$T/report")"
grep -q '^captures  *transcripts verify -e -k room.pub: exit 0, [0-9]* files, 0 with integrity failures, intact$' "$T/report" ||
	fail "captures: $(grep ^captures "$T/report")"
grep -q '^manifests  *4 signed: start, round 1 end, round 2 end, shutdown$' "$T/report" ||
	fail "manifests: $(grep ^manifests "$T/report")"
grep -q '^ *winner: E[1-4], ' "$T/report" || fail "no winner: $(sed -n '/^scores/,$p' "$T/report")"
# The evidence it leaves, checked here on its own: sealed and signed,
# every conversation's pair of ballots, a PASS for each opening.
S=$T/ok/state
"$TX" verify -e -k "$S/room.pub" "$S" >"$T/verify" 2>&1 || fail "verify: $(tail -5 "$T/verify")"
[ "$(grep -c '^[12],0[1-4],[EC][1-4],' "$S/ballots.csv")" = 12 ] || fail "ballots: $(cat "$S/ballots.csv")"
[ "$(grep -c ' PASS assertion ' "$S/compliance.txt")" = 12 ] || fail "compliance: $(cat "$S/compliance.txt")"
grep -q 'sandbox = ' "$T/ok/room.conf" || fail "no room kept"

# A confederate who never types the assertion: named at the top.
# shellcheck disable=SC2086
"$R" $QUICK -r 1 -F silent-confederate -d "$T/silent" >"$T/report" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] || fail "a silent confederate: exit $rc, not 1: $(cat "$T/report" "$T/err")"
head -1 "$T/report" | grep -q '^REHEARSAL FAILED: ' || fail "report: $(head -3 "$T/report")"
c=$(sed -n 's/^round 1  *J1 E[1-4] [LR][0-9]* \(C[1-4]\) .*/\1/p' "$T/report")
[ -n "$c" ] || fail "no confederate at J1: $(grep '^round' "$T/report")"
sed -n '2,/^$/p' "$T/report" | grep -q "^  - verdict: .* round 1 J1-[a-z]* judge 01 FAIL assertion $c " ||
	fail "the silent confederate $c is not named at the top: $(cat "$T/report")"

# A ballot left out: named at the top, and no winner.
# shellcheck disable=SC2086
"$R" $QUICK -r 1 -F no-ballot -d "$T/noballot" >"$T/report" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] || fail "a ballot left out: exit $rc, not 1: $(cat "$T/report" "$T/err")"
head -1 "$T/report" | grep -q '^REHEARSAL FAILED: ' || fail "report: $(head -3 "$T/report")"
sed -n '2,/^$/p' "$T/report" | grep -q '^  - transcripts score exited 3:' ||
	fail "the score's error is not at the top: $(cat "$T/report")"
sed -n '2,/^$/p' "$T/report" | grep -q 'round 1: no ballot of judge 01 on E[1-4], met with C[1-4]' ||
	fail "the missing ballot is not named: $(cat "$T/report")"
grep -q '^round 1  *J1 E[1-4] [LR]- C[1-4] [LR]-;' "$T/report" || fail "rounds: $(grep '^round' "$T/report")"
echo ok
