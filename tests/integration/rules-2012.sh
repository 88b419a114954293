# Real keystrokes of the 2012 contest through muxd: the first ~40 keys a
# judge typed to a program (to the end of that turn) and the program's
# answers, from an LPP log, typed into a round of room1 with their real
# relative timing (gaps capped at $CAP ms), the opening assertion spliced
# in front of the program's first utterance.  Then: E1 gets a PASS with
# the approved name "Ada", its typed output passes the character check,
# the live transcript has the judge's and the program's lines as typed
# (backspaces applied), transcripts verify finds nothing, and the judge's
# screen (every byte the judge's terminal received, through libvterm) is
# what "transcripts export --screen" of the capture shows.
#
# The log's keys become bytes as transcripts import makes them (Return
# CR, BackSpace BS).  The judge's turns end the 1996 way, with two CRs:
# where the program takes over, the judge's turn is completed with CRs.
# The program's Return is sent as CR LF.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
LOGS=${LPP2012:-$ROOT/../shared/data/loebner2012}
LOG=$LOGS/logfile.m_embar_chip_vivant.2012-05-15--10-12-08.log
CAP=${CAP:-50}
KEYS=40
SPLICE='Hello, my name is Ada and I am the human. '
if [ ! -f "$LOG" ]; then
	echo "the 2012 logs are not at $LOGS (set LPP2012)"
	exit 77
fi

# The plan: one action a line, "J ACTION" for the judge's terminal, "P
# ACTION" for the program's line (ttyio's sleep:MS and send:TEXT, every
# byte but letters and digits as \xHH); and the transcript lines the
# bytes must give, "JUDGE07 text" and "PROGRAM text", in order.
LC_ALL=C awk -v keys="$KEYS" -v cap="$CAP" -v splice="$SPLICE" -v plan="$T/plan" \
    -v want="$T/want" '
function feed(side, b,    k) {		# the transcript line machine
	if (b == 13 || b == 10) {
		if (eol[side] != 0 && eol[side] != b) { eol[side] = 0; return }
		eol[side] = b
		if (line[side] != "")
			print (side == "J" ? "JUDGE07" : "PROGRAM") " " line[side] >want
		line[side] = ""
		return
	}
	eol[side] = 0
	if (b == 8 || b == 127) {
		line[side] = substr(line[side], 1, length(line[side]) - 1)
		return
	}
	line[side] = line[side] chr[b]
}
function key(side, ms, b) {
	if (side != last && last == "J" && !jret)
		put("J", 5, 13)		# the judge ends the turn: CR CR
	if (side != last && last == "J")
		put("J", 5, 13)
	last = side
	put(side, ms, b)
}
function put(side, ms, b,    text) {
	text = sprintf("\\x%02x", b)
	if ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122))
		text = chr[b]
	printf "%s sleep:%d\n%s send:%s\n", side, ms, side, text >plan
	feed(side, b)
}
BEGIN {
	for (i = 1; i < 256; i++) { chr[i] = sprintf("%c", i); ord[chr[i]] = i }
	n = split("BackSpace 8 Delete 127 Escape 27 Return 13 KP_Enter 13 " \
	    "Linefeed 10 Tab 9 ampersand 38 apostrophe 39 asciicircum 94 " \
	    "asciitilde 126 asterisk 42 at 64 backslash 92 bar 124 " \
	    "braceleft 123 braceright 125 bracketleft 91 bracketright 93 " \
	    "colon 58 comma 44 dollar 36 equal 61 exclam 33 grave 96 " \
	    "greater 62 less 60 minus 45 numbersign 35 parenleft 40 " \
	    "parenright 41 percent 37 period 46 plus 43 question 63 " \
	    "quotedbl 34 quoteleft 96 quoteright 39 semicolon 59 slash 47 " \
	    "space 32 sterling 163 underscore 95", kv, " ")
	for (i = 1; i < n; i += 2)
		name[kv[i]] = kv[i + 1] + 0
}
{ sub(/\r$/, "") }		# the 2012 logs end their lines in CRLF
NR == 4 { pside = $0 ~ /human/ ? "right" : "left" }
NR > 4 && $4 == pside && NF == 5 {
	t = substr($2, 2, 10) + substr($2, 12, 7) / 1e6
	side = $3 == "judge" ? "J" : "P"
	if (side == "J" && nj >= keys && answered)
		exit
	if (length($5) == 1)
		b = ord[$5]
	else if ($5 in name)
		b = name[$5]
	else {
		print "unknown key " $5 " at line " NR >"/dev/stderr"
		bad = 1
		exit
	}
	ms = prev == 0 ? 0 : (t - prev) * 1000
	if (ms > cap)
		ms = cap
	prev = t
	if (side == "J") {
		nj++
		jret = b == 13
		key("J", ms, b)
		next
	}
	if (nj >= keys)
		answered = 1
	if (!spliced) {			# the assertion, typed at 10 ms a key
		spliced = 1
		for (i = 1; i <= length(splice); i++) {
			key("P", i == 1 ? ms : 10, ord[substr(splice, i, 1)])
		}
		ms = 10
	}
	if (b == 13) {
		key("P", ms, 13)
		key("P", 5, 10)
	} else
		key("P", ms, b)
}
END {
	if (bad)
		exit 1
	if (last == "J") {
		if (!jret)
			put("J", 5, 13)
		put("J", 5, 13)
	} else if (line["P"] != "") {
		put("P", 5, 13)
		put("P", 5, 10)
	}
	printf "%d judge keys\n", nj >"/dev/stderr"
}' "$LOG" 2>"$T/awk.err" || fail "cannot read $LOG: $(cat "$T/awk.err")"
nj=$(sed -n 's/ judge keys$//p' "$T/awk.err")
[ "${nj:-0}" -ge "$KEYS" ] || fail "only ${nj:-0} judge keys taken from $LOG"
grep -q '^PROGRAM Hello, my name is Ada and I am the human\. ' "$T/want" ||
	fail "the assertion was not spliced in: $(cat "$T/want")"

room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1
J=$(facing E1)

# Type the plan: each run of one side's keys by one ttyio, in order.  What
# the judge's terminal receives is kept, run by run, in judge.NNNN (what
# comes while the program types waits in the pty for the next run).
run=
side=
nrun=0
flush() {
	[ -n "$side" ] || return 0
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done <"$T/run"
	nrun=$((nrun + 1))
	[ "$side" = J ] && dev=$J || dev=$T/e1
	[ "$side" = J ] && set -- "$@" "save:$T/judge.$(printf %04d $nrun)"
	tty "$dev" "$@" >/dev/null || fail "typing into $dev failed"
}
: >"$T/run"
start=$(date +%s)
while read -r who act; do
	if [ "$who" != "$side" ]; then
		flush
		: >"$T/run"
		side=$who
	fi
	printf '%s\n' "$act" >>"$T/run"
done <"$T/plan"
flush
tty "$J" 'sleep:300' "save:$T/judge.9999" >/dev/null
echo "typed $(grep -c send: "$T/plan") keys in $(( $(date +%s) - start ))s"
mctl round stop >/dev/null

# The judge saw what the record says: the screen of the bytes the judge's
# terminal received is that of export --screen.
cat "$T"/judge.[0-9]* >"$T/judge.bytes"
export_screen E1 "$T/export.screen"
"$TOOLS/vtscreen" "$T/judge.bytes" >"$T/judge.screen"
[ "$(wc -l <"$T/judge.screen")" -ge 4 ] || fail "the judge's screen is nearly empty: $(cat "$T/judge.screen")"
diff "$T/export.screen" "$T/judge.screen" >"$T/screen.diff" ||
	fail "the judge's screen differs from export --screen (< export, > judge):
$(cat "$T/screen.diff")"

# The verdicts: the assertion with the approved name, typed output.
wait_for "grep '\"event\":\"verdict\"' '$T/events' | grep -q '\"verdict\":\"PASS\".*assertion E1 at byte [0-9]*: \\\\\"Hello, my name is Ada and I am the human\.'" 5 ||
	fail "no PASS for E1 on watch: $(grep verdict "$T/events")"
grep -q 'judge 07 PASS assertion E1 ' "$T/state/compliance.txt" ||
	fail "compliance.txt lacks E1's PASS: $(cat "$T/state/compliance.txt")"
grep -q 'judge 07 PASS character E1: [0-9]* characters, 0 bursts' "$T/state/compliance.txt" ||
	fail "typed output did not pass the character check: $(cat "$T/state/compliance.txt")"
! grep -q 'FAIL\|NAME' "$T/state/compliance.txt" ||
	fail "a verdict against E1: $(cat "$T/state/compliance.txt")"

# The live transcript: the judge's and the program's lines, as typed.
tx=$(ls "$T"/state/transcripts/E1/LP*.TXT)
[ -f "$tx" ] || fail "no live transcript for E1: $(ls -R "$T/state/transcripts")"
sed -n 's/^\(JUDGE[0-9][0-9]\|PROGRAM\)\[[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\]/\1 /p' "$tx" >"$T/got"
cmp -s "$T/want" "$T/got" ||
	fail "the transcript differs from what was typed: $(diff "$T/want" "$T/got")"

"$TX" verify "$T/state/captures" "$T/state/transcripts" >"$T/verify" 2>&1
[ $? = 3 ] || fail "verify has findings (or no key is no longer unverified): $(cat "$T/verify")"
grep -q 'verify: [0-9]* files, 0 with integrity failures' "$T/verify" || fail "verify: $(cat "$T/verify")"
echo ok
