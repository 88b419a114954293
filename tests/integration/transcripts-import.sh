#!/bin/sh
# transcripts import, verify and stats on the 24 official 2012 LPP logs.
# Every figure the tool reports is worked out here again, independently,
# with grep and awk from the logs themselves: lines and records per log,
# its defects (cut-off record, header only, empty judge and round, unknown
# key names, times going back on a side), the pairs logged twice, the
# captures made, the silences verify must find.  Then: the humans' typing
# comes out near 0.17 s per key, the evenly typing entry is flagged
# mechanical, and a capture torn on purpose is caught with its offset.
. tests/integration/lib.sh

TR=$ROOT/$B/transcripts/transcripts
LOGS=${LPP2012:-$ROOT/../shared/data/loebner2012}
[ -x "$TR" ] || fail "$TR not built"
if [ ! -d "$LOGS" ]; then
	echo "the 2012 logs are not at $LOGS (set LPP2012)"
	exit 77
fi
n=$(ls "$LOGS"/*.log | wc -l)
[ "$n" -eq 24 ] || fail "expected the 24 logs of 2012 in $LOGS, found $n"

# The key names of the 2009 rules' LPP appendix, and the keysyms the
# importer also knows; a single printable character stands for itself.
KNOWN=" braceleft braceright bracketleft bracketright parenleft parenright
space comma period greater less slash backslash bar quotedbl quoteright Tab
equal underscore plus minus exclam at numbersign dollar percent asterisk
asciicircum asciitilde quoteleft ampersand Return colon semicolon question
BackSpace Delete Escape KP_Enter Linefeed apostrophe grave sterling "
KNOWN=$(echo $KNOWN)
GAP=120

# expect LOG: the report lines import must print for LOG, worked out from
# the log alone; also adds to $T/expect.gaps and $T/expect.captures.
expect() {
	f=$1
	base=$(basename "$f")
	size=$(wc -c <"$f")
	nl=$(wc -l <"$f")
	torn=0
	if [ "$size" -gt 0 ] && [ "$(tail -c1 "$f" | od -An -c | tr -d ' ')" != '\n' ]; then
		torn=1
	fi
	lines=$((nl + torn))
	crlf=$(grep -c "$(printf '\r')\$" "$f")
	# The whole records: after the header, the torn last line left out.
	head -n "$nl" "$f" | tail -n +5 | tr -d '\r' |
		grep -E '^J[0-9]* 0[0-9]{17} [^ ]+ (left|right) ' >"$T/recs" || true
	recs=$(wc -l <"$T/recs")
	judge=$(grep -cE '^J[0-9]* [0-9]+ judge ' "$T/recs")
	other=$((recs - judge))
	hdr=$(sed -n 3p "$f" | tr -d '\r')
	j=$(echo "$hdr" | sed -n 's/^Transcripts of judge \([0-9]*\) program .*/\1/p')
	r=$(echo "$hdr" | sed -n 's/.* round \([0-9]*\) *$/\1/p')
	p=$(echo "$hdr" | sed -n 's/.* program \(.*\) round.*/\1/p')
	left=$(sed -n 4p "$f" | tr -d '\r ' | sed 's/^Left=//')
	keys=$(awk -v known="$KNOWN" '
		BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
		{
			key = $0
			for (i = 0; i < 4; i++) sub(/^[^ ]* /, "", key)
			if (!(key in ok) && !(length(key) == 1 && key ~ /[!-~]/)) bad++
		}
		END { print bad + 0 }' "$T/recs")
	back=$(awk '{
			t = substr($2, 2, 10) * 1000000 + substr($2, 12, 7)
			if (($4 in last) && t < last[$4]) n++
			if (!($4 in last) || t > last[$4]) last[$4] = t
		} END { print n + 0 }' "$T/recs")
	awk -v gap="$GAP" -v base="$base" '{
			t = substr($2, 2, 10) * 1000000 + substr($2, 12, 7)
			if (($4 in last) && t > last[$4] && t - last[$4] > gap * 1000000) g[$4]++
			if (!($4 in last) || t > last[$4]) last[$4] = t
			seen[$4] = 1
		} END { for (s in seen) print base, s, g[s] + 0 }' "$T/recs" \
		>>"$T/expect.gaps"
	d=""
	nd=0
	add() { [ "$2" -gt 0 ] || return 0; d="$d${d:+, }$1 $2"; nd=$((nd + $2)); }
	[ -n "$j" ] || add no-judge 1
	[ -n "$r" ] || add no-round 1
	[ "$recs" -gt 0 ] || [ "$torn" -eq 1 ] || add header-only 1
	add truncated "$torn"
	add key "$keys"
	add backwards "$back"
	echo "$base: judge ${j:-NA}, program $p, round ${r:-NA}, left $left"
	if [ -n "$d" ]; then d=" ($d)"; fi
	echo "$base: $lines lines ($crlf CRLF), $recs records (judge $judge, other $other), $nd defect$( [ "$nd" -eq 1 ] || echo s)$d"
	if [ "$torn" -eq 1 ]; then
		last=$(tail -n 1 "$f" | wc -c)
		echo "$base:$lines: offset $((size - last)): truncated: the last record is cut off after $last bytes"
	fi
}

for f in "$LOGS"/*.log; do
	expect "$f"
done >"$T/expected"

# Import: one report per log, and the captures.
"$TR" import -o "$T/cap" "$LOGS"/*.log >"$T/report" 2>"$T/import.err" ||
	fail "import exited non-zero: $(cat "$T/import.err")"
[ -s "$T/import.err" ] && fail "import complained: $(head -5 "$T/import.err")"
while IFS= read -r line; do
	case $line in
	*": truncated: "*)
		grep -qF "$line" "$T/report" ||
			fail "import did not report: $line"
		;;
	*)
		grep -qxF "$line" "$T/report" ||
			fail "import did not report: $line
it said: $(grep -F "${line%%:*}:" "$T/report" | head -3)"
		;;
	esac
done <"$T/expected"
echo "ok: import reports lines, records and defects of all 24 logs as counted here"

# The per-line defects: every unknown key name and every time going back
# with its line and offset, as grep finds them.
for f in "$LOGS"/*.log; do
	base=$(basename "$f")
	tr -d '\r' <"$f" | awk -v base="$base" -v known="$KNOWN" '
		BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
		{ off = pos; pos += length($0) + 2 }
		NR > 4 && /^J[0-9]* [0-9]+ [^ ]+ (left|right) / {
			key = $0
			for (i = 0; i < 4; i++) sub(/^[^ ]* /, "", key)
			if (key == " ")
				print base ":" NR ": offset " off ": key: a lone space" >"/dev/stderr"
			else if (!(key in ok) && !(length(key) == 1 && key ~ /[!-~]/))
				print base ":" NR ": offset " off ": key: "
		}'
done >"$T/expect.keys" 2>"$T/expect.spaces"
[ "$(cat "$T/expect.keys" "$T/expect.spaces" | wc -l)" -gt 0 ] ||
	fail "no unknown key names found in the logs"
while IFS= read -r line; do
	grep -qF "$line" "$T/report" || fail "import did not report: $line..."
done <"$T/expect.keys"
[ "$(grep -c ': key: unknown key name' "$T/report")" -eq "$(wc -l <"$T/expect.keys")" ] ||
	fail "import reported other unknown keys than $(wc -l <"$T/expect.keys")"
echo "ok: the $(wc -l <"$T/expect.keys") unknown key names reported with line and offset"

# A space logged as a lone space (16 in d_burke_adam's logs) is kept as a
# space, and said: "you are" stays "you are" after the next BackSpace.
[ "$(wc -l <"$T/expect.spaces")" -eq 16 ] ||
	fail "expected 16 lone spaces in the logs, found $(wc -l <"$T/expect.spaces")"
while IFS= read -r line; do
	grep -qF "$line for the key name, read as space" "$T/report" ||
		fail "import did not say: $line"
done <"$T/expect.spaces"
mkdir -p "$T/burke"
"$TR" render -o "$T/burke" "$T"/cap/d_burke_adam.2012-05-15--13-14-01.*right*.cast >/dev/null ||
	fail "cannot render d_burke_adam's capture"
grep -q "Doesn't time fly when you are bored" "$T"/burke/*.TXT ||
	fail "a lone space was lost: $(grep 'time fly' "$T"/burke/*.TXT)"
echo "ok: the 16 lone spaces kept as spaces, and said"

# Pairs logged twice: the same judge, program and round in an earlier log.
for f in "$LOGS"/*.log; do
	sed -n 3p "$f" | tr -d '\r' | sed -n 's/^Transcripts of judge \([0-9][0-9]*\) program \(.*\) round \([0-9][0-9]*\) *$/\1 \2 \3/p'
done | awk 'seen[$0]++ { n++ } END { print n + 0 }' >"$T/pairs"
[ "$(grep -c ': pair: ' "$T/report")" -eq "$(cat "$T/pairs")" ] ||
	fail "expected $(cat "$T/pairs") pairs logged twice, import said $(grep -c ': pair: ' "$T/report")"
[ "$(cat "$T/pairs")" -ge 1 ] || fail "no pair logged twice found in the logs"
echo "ok: $(cat "$T/pairs") judge-program-round pairs logged twice reported"

# A capture per side with records; none for the header-only log.
ncap=$(awk '{ n++ } END { print n + 0 }' "$T/expect.gaps")
grep -qx "import: 24 logs, $ncap captures in $T/cap" "$T/report" ||
	fail "expected 24 logs and $ncap captures: $(tail -1 "$T/report")"
[ "$(ls "$T/cap" | wc -l)" -eq "$ncap" ] || fail "not $ncap files in $T/cap"
grep -q "13-07-55.log: no records, no capture" "$T/report" ||
	fail "the header-only log is not reported as giving no capture"
echo "ok: $ncap captures, one per side with records"

# The captures are asciicast v2, the placeholders marked in the header.
for c in "$T"/cap/*.cast; do
	head -1 "$c" | jq -e '.version == 2 and .muxd.encoding == "iso-8859-1"
	    and .muxd.import.format == "lpp"' >/dev/null ||
		fail "$c: not an asciicast v2 header of an import"
done
c=$(ls "$T"/cap/b-wilcox-angela.2012-05-14--18-06-59.rNA.jNA.left-human.cast) ||
	fail "no capture for the log with an empty judge and round"
[ "$(head -1 "$c" | jq -r '[.muxd.judge, .muxd.round, (.muxd.import.placeholders | join(","))] | map(tostring) | join(" ")')" = "null null judge,round" ] ||
	fail "placeholders not marked: $(head -1 "$c")"
c=$T/cap/m_allan_linguo.2012-05-15--13-14-57.r1.j3.left-human.cast
[ "$(head -1 "$c" | jq -r '[.muxd.judge, .muxd.round, .muxd.kind, .muxd.side, .muxd.utc_offset] | map(tostring) | join(" ")')" = "3 1 confederate left 3600" ] ||
	fail "header of $c: $(head -1 "$c")"
# The first record, "J3 013370843210242371 judge left H": "i" at .242371.
[ "$(sed -n 2p "$c")" = '[0.242371, "i", "H"]' ] ||
	fail "first event of $c: $(sed -n 2p "$c")"
jq -e . "$c" >/dev/null || fail "$c is not JSON lines"
echo "ok: asciicast v2 headers, placeholders and times as logged"

# Verify: exactly the silences over $GAP s on each side and a fault marker
# in each capture of a cut-off log; nothing else.
# Silences and faults are events of the contest, not integrity failures;
# with no manifest and no key the captures are intact but unverified (3).
"$TR" verify "$T/cap" >"$T/verify" 2>&1
[ $? = 3 ] || fail "verify: not unverified (3): $(tail -2 "$T/verify")"
gaps=$(awk '{ n += $3 } END { print n + 0 }' "$T/expect.gaps")
faults=$(for f in "$LOGS"/*.log; do
	if [ "$(tail -c1 "$f" | od -An -c | tr -d ' ')" != '\n' ]; then
		awk -v b="$(basename "$f")" '$1 == b' "$T/expect.gaps" | wc -l
	fi
done | awk '{ n += $1 } END { print n + 0 }')
bad=$(awk '$3 > 0 { print $1, $2 }' "$T/expect.gaps" | sort -u | wc -l)
[ "$(grep -c ': gap: ' "$T/verify")" -eq "$gaps" ] ||
	fail "verify: expected $gaps gaps, found $(grep -c ': gap: ' "$T/verify")"
[ "$(grep -c ': fault: marker "fault lpp truncated' "$T/verify")" -eq "$faults" ] ||
	fail "verify: expected $faults fault markers, found $(grep -c ': fault: ' "$T/verify")"
other=$(grep -E '^[^ ]*: (offset [0-9]+: )?[a-z-]+: ' "$T/verify" | grep -vE ': (gap|fault|note|key): ' | grep -v '^verify: ' | head -3)
[ -z "$other" ] || fail "verify found more than gaps and faults: $other"
for f in "$LOGS"/*.log; do
	base=$(basename "$f")
	awk -v b="$base" '$1 == b && $3 > 0 { print $2 }' "$T/expect.gaps" | while read -r side; do
		grep -q "$(basename "$base" .log | sed 's/^logfile\.//').*\.$side-[a-z]*\.cast: ok; [0-9]* events\{0,1\} (" "$T/verify" ||
			fail "verify did not report the $side side of $base"
	done
done
grep -qx "verify: $ncap files, 0 with integrity failures" "$T/verify" ||
	fail "verify summary: $(tail -2 "$T/verify")"
echo "ok: verify finds the $gaps silences over ${GAP}s and the $faults cut-off markers, nothing else"

# Stats: humans (judges and confederates) near 0.17 s per key.
"$TR" stats "$T"/cap/*.cast >"$T/stats" 2>"$T/stats.err" ||
	fail "stats failed: $(head -3 "$T/stats.err")"
for who in humans judges confederates; do
	m=$(sed -n "s/^total cadence $who: .* median \([0-9.]*\) .*/\1/p" "$T/stats")
	[ -n "$m" ] || fail "no total for $who: $(grep '^total' "$T/stats")"
	awk -v m="$m" 'BEGIN { exit !(m >= 0.10 && m <= 0.30) }' ||
		fail "$who type at $m s per key, expected 0.10-0.30"
	echo "ok: $who type at $m s per key"
	grep "^total cadence $who:" "$T/stats" | grep -q mechanical &&
		fail "$who flagged mechanical"
done
grep "^total cadence entry m_embar_chip_vivant:" "$T/stats" | grep -q ' mechanical$' ||
	fail "the entry typing every 0.109 s is not flagged: $(grep m_embar "$T/stats" | tail -1)"
grep "^total cadence entry b-wilcox-angela:" "$T/stats" | grep -q mechanical &&
	fail "an entry with varied timing is flagged mechanical"
grep -q '^total latency answers: answers [1-9]' "$T/stats" ||
	fail "no response latency: $(grep latency "$T/stats" | tail -1)"
echo "ok: the entry typing at a constant pace is flagged mechanical"

# Each confederate has figures of his own (named by where he sat), and
# -j gives the same figures as JSON.
[ "$(grep -c '^total cadence confederate human-r[0-9]*-j[0-9]*:' "$T/stats")" -ge 4 ] ||
	fail "the confederates are pooled under one name: $(grep '^total cadence confederate' "$T/stats")"
"$TR" stats -j "$T"/cap/*.cast >"$T/stats.json" || fail "stats -j failed"
jq -e '[.cadence_totals[] | select(.name | startswith("confederate human-"))] | length >= 4' \
    "$T/stats.json" >/dev/null || fail "stats -j lacks the confederates"
[ "$(jq -r '.cadence_totals[] | select(.name == "entry m_embar_chip_vivant") | .mechanical' "$T/stats.json")" = true ] ||
	fail "stats -j does not flag the mechanical entry"
[ "$(jq -r '[.latency_totals[] | select(.name == "answers")][0].answers' "$T/stats.json")" -gt 0 ] ||
	fail "stats -j has no answers"
[ "$(jq '.captures | length' "$T/stats.json")" = "$(ls "$T"/cap/*.cast | wc -l)" ] ||
	fail "stats -j does not list every capture"
echo "ok: a confederate a seat, and stats -j"

# A capture torn on purpose: verify gives the offset of the torn last
# line, and everything before it still reads.
c=$T/cap/m_allan_linguo.2012-05-15--13-14-57.r1.j3.right-program.cast
"$TR" verify "$c" >"$T/v1"
[ $? = 3 ] || fail "$c does not verify: $(cat "$T/v1")"
mkdir "$T/torn"
t=$T/torn/torn.cast
size=$(wc -c <"$c")
lastlen=$(tail -n 1 "$c" | wc -c)
nlines=$(wc -l <"$c")
head -c $((size - 5)) "$c" >"$t"
"$TR" verify "$t" >"$T/v2" 2>&1
if [ $? != 1 ]; then
	fail "verify of a torn capture is no integrity failure"
fi
grep -q "^$t:$nlines: offset $((size - lastlen)): torn: " "$T/v2" ||
	fail "torn line not reported at line $nlines, offset $((size - lastlen)): $(cat "$T/v2")"
[ "$(grep -c ': torn: \|: gap: \|: event: \|: order: ' "$T/v2")" -eq 1 ] ||
	fail "more than the torn line found: $(cat "$T/v2")"
k1=$("$TR" stats "$c" | sed -n 's/.* cadence [^:]*: keys \([0-9]*\) .*/\1/p' |
	awk '{ n += $1 } END { print n }')
k2=$("$TR" stats "$t" 2>/dev/null | sed -n 's/.* cadence [^:]*: keys \([0-9]*\) .*/\1/p' |
	awk '{ n += $1 } END { print n }')
[ -n "$k1" ] && [ "$k2" = $((k1 - 1)) ] ||
	fail "the torn capture does not read up to its last event: $k1 keys, then $k2"
echo "ok: a torn capture is found at line $nlines, offset $((size - lastlen)); the rest reads"

# Rendered with the live code, an import is a public-domain transcript.
"$TR" render -o "$T/tx" "$c" >"$T/names" || fail "render of $c failed"
tx=$(cat "$T/names")
[ "$(head -1 "$tx")" = "This transcript is in the public domain" ] ||
	fail "$tx has no public-domain line"
grep -q '^JUDGE03\[1[23]:[0-9][0-9]:[0-9][0-9]\]' "$tx" &&
	grep -q '^PROGRAM\[1[23]:[0-9][0-9]:[0-9][0-9]\]' "$tx" ||
	fail "$tx has no JUDGE03 and PROGRAM lines at Bletchley Park times"
"$TR" verify "$tx" >"$T/v3"
[ $? = 3 ] || fail "the rendered transcript does not verify: $(cat "$T/v3")"
echo "ok: an imported capture renders to a transcript that verifies"

# Import never overwrites: a second import into the same place fails.
if "$TR" import -o "$T/cap" "$LOGS/logfile.m_allan_linguo.2012-05-15--13-47-26.log" \
    >"$T/again" 2>&1; then
	fail "a second import over the same captures exited 0"
fi
grep -q "not overwritten" "$T/again" || fail "no word of not overwriting: $(cat "$T/again")"
echo "ok: a second import does not overwrite the captures"
exit 0
