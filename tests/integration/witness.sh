# A witness outside the operator's disk.  At each round's end the
# manifest's short form ("evidence 0002 sealed: 3f2a 91c0 7be4 5d18") is
# on every judge's terminal, in the log and in the watchers' manifest
# event, each the same as `transcripts verify` prints; `verify -s` with
# the judges' list passes, and fails (1) once the chain was cut at an
# earlier shutdown (the later run's manifests and files deleted), which
# the chain alone does not show.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
S=$T/state
num() { echo "$1" | sed 's/^0*//'; }
SHORT='[0-9a-f]\{4\} [0-9a-f]\{4\} [0-9a-f]\{4\} [0-9a-f]\{4\}'

# Round N's end: its short form from each judge's terminal, the log and
# the events, all one, in $T/seen.N ("NNNN HEX"); "notes" gathers them.
round_sealed() {
	for j in j1l j1r; do
		tty "$T/$j" "expect:*** round $1 is over" 'expect:*** evidence ' \
		    'expect: ***\r\n' "save:$T/$j.$1" >/dev/null ||
			fail "judge's terminal $j was not shown round $1's evidence"
	done
	wait_for "grep -q '\"why\":\"round $1 end\"' '$T/events'" 5 ||
		fail "no manifest event for round $1"
	grep -ao "evidence [0-9]\{4\} sealed: $SHORT" "$T/j1l.$1" >"$T/term.$1"
	[ "$(wc -l <"$T/term.$1")" = 1 ] || fail "j1l: $(cat -v "$T/j1l.$1")"
	grep -ao "evidence [0-9]\{4\} sealed: $SHORT" "$T/j1r.$1" |
		cmp -s - "$T/term.$1" || fail "the two terminals differ: $(cat -v "$T/j1r.$1")"
	grep "(round $1 end)" "$T/muxd.log" | grep -o "evidence [0-9]\{4\} sealed: $SHORT" |
		cmp -s - "$T/term.$1" || fail "the log differs from the terminal ($(cat "$T/term.$1")): $(grep "round $1 end" "$T/muxd.log")"
	jq -r "select(.event == \"manifest\" and .why == \"round $1 end\") |
	    \"evidence \(.sequence | tostring | (\"000\" + .)[-4:]) sealed: \(.short)\"" "$T/events" |
		cmp -s - "$T/term.$1" || fail "the event differs from the terminal ($(cat "$T/term.$1")): $(grep "round $1 end" "$T/events")"
	cat "$T/term.$1" >>"$T/notes"
}

room1
: >"$T/notes"
muxd_start -f "$T/room.conf"
watch_events
round_start 1
mctl round stop >/dev/null
round_sealed 1
muxd_stop
PIDS=
muxd_start -f "$T/room.conf"
watch_events
round_start 2
mctl round stop >/dev/null
round_sealed 2
muxd_stop

# verify prints the same short forms; the judges' notes check, as a list
# (-s) or the file of what the terminals showed (-S).
cp "$S/room.pub" "$T/room.pub"
"$TX" verify -k "$T/room.pub" "$S" >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"
for n in 1 2; do
	grep -qF "manifest-$(cut -c10-13 "$T/term.$n").json: note: $(cat "$T/term.$n")" "$T/verify" ||
		fail "verify does not print round $n's short form $(cat "$T/term.$n"): $(grep 'evidence' "$T/verify")"
done
LIST=$(sed 's/^evidence \([0-9]*\) sealed: /\1=/; s/ //g' "$T/notes" | paste -sd, -)
"$TX" verify -k "$T/room.pub" -s "$LIST" "$S" >"$T/verify" 2>&1 ||
	fail "verify -s $LIST: $(cat "$T/verify")"
grep -q 'note: 2 short hashes noted, every one as sealed' "$T/verify" || fail "verify -s: $(cat "$T/verify")"
"$TX" verify -k "$T/room.pub" -S "$T/notes" "$S" >"$T/verify" 2>&1 ||
	fail "verify -S: $(cat "$T/verify")"

# The chain cut at the first run's shutdown: the second run's manifests
# and files deleted, the files sealed before cut back to their sealed
# size.  The chain checks; the notes do not.
last=$(cut -c10-13 "$T/term.1")
last=$(printf '%04d' $(($(num "$last") + 1)))
jq -e '.why == "shutdown"' "$S/manifests/manifest-$last.json" >/dev/null ||
	fail "manifest $last is not the first run's shutdown"
for m in "$S"/manifests/manifest-*.json; do
	k=${m##*manifest-}; k=${k%.json}
	[ "$(num "$k")" -gt "$(num "$last")" ] && rm -f "$m" "$m".*
done
(cd "$S" && find captures transcripts compliance.txt ballots.csv -type f 2>/dev/null) |
while read -r f; do
	size=$(jq -r --arg p "$f" '[.files[] | select(.path == $p) | .size][0] // "gone"' "$S/manifests/manifest-$last.json")
	if [ "$size" = gone ]; then rm -f "$S/$f"; else truncate -s "$size" "$S/$f"; fi
done
"$TX" verify -k "$T/room.pub" "$S" >"$T/verify" 2>&1 ||
	fail "the cut chain should check by itself: $(cat "$T/verify")"
"$TX" verify -k "$T/room.pub" -s "$LIST" "$S" >"$T/verify" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "verify -s of a cut chain exits $rc, not 1: $(cat "$T/verify")"
n2=$(cut -c10-13 "$T/term.2")
grep -q "manifests: noted: manifest $n2, noted as $(cut -c23- "$T/term.2" | tr -d ' ') (-s item 2), is missing: the chain was cut or made again" "$T/verify" ||
	fail "verify -s does not say round 2's manifest is missing: $(cat "$T/verify")"
echo ok
