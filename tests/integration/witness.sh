# A witness outside the operator's disk.  A referee countersigns round
# 1's manifest with muxctl witness (a key of minisign -G -W), and round
# 2's with the same key under a password, which muxctl asks for on the
# terminal; muxd refuses another key's, saying why, never replaces one,
# and seals it in the next manifest; verify -w accepts them.  At each round's end the
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

# Run a program on a pty, answering its password prompts with $PW.
cat >"$T/ptyrun.py" <<'EOP'
import os, pty, select, sys
pw = os.environ["PW"].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out, answered = b"", 0
while True:
    if not select.select([fd], [], [], 30)[0]:
        break
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
    tail = out.rstrip()
    if (tail.lower().endswith(b"password:") or tail.endswith(b"time):")) and \
            out.count(b":") > answered:
        os.write(fd, pw + b"\n")
        answered = out.count(b":")
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(st))
EOP

# The referee's key, and another.
minisign -G -W -p "$T/referee.pub" -s "$T/referee.key" >/dev/null 2>&1 <&- || fail "minisign -G"
minisign -G -W -p "$T/other.pub" -s "$T/other.key" >/dev/null 2>&1 <&- || fail "minisign -G"
RID=$(tail -1 "$T/referee.pub" | base64 -d | od -An -tx1 -j2 -N8 | tr -d ' \n' |
	sed 's/\(..\)/\1 /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", toupper($i) }')

# A witness_key that is no public key: muxd -n says where and why.
room1
echo "witness_key = \"$T/referee.key\";" >>"$T/room.conf"
"$MUXD" -n -f "$T/room.conf" >"$T/out" 2>&1 && fail "muxd -n took a secret key as the witness_key"
grep -q "room.conf:$(wc -l <"$T/room.conf"): witness_key $T/referee.key: not a minisign public key" "$T/out" ||
	fail "muxd -n of a bad witness_key: $(cat "$T/out")"

room1
echo "witness_key = \"$T/referee.pub\";" >>"$T/room.conf"
: >"$T/notes"
muxd_start -f "$T/room.conf"
watch_events
round_start 1
mctl round stop >/dev/null
round_sealed 1
N1=$(cut -c10-13 "$T/term.1")
M1=$S/manifests/manifest-$N1.json

# A countersignature by another key is refused, saying why.
mctl witness -s "$T/other.key" "$N1" >"$T/out" 2>&1 && fail "muxd took another key's countersignature"
grep -q "manifest $N1: countersignature refused: signed with key [0-9A-F]\{16\}, not with key $RID (the room's witness_key is $T/referee.pub, key $RID)" "$T/out" ||
	fail "the refusal of another key's countersignature: $(cat "$T/out")"
[ -e "$M1.witness.minisig" ] && fail "a refused countersignature was kept"
# The referee's, of round 1's manifest: muxctl shows what it signed.
mctl witness -s "$T/referee.key" "$N1" >"$T/out" 2>&1 || fail "muxctl witness: $(cat "$T/out")"
grep -qxF "$(cat "$T/term.1")" "$T/out" || fail "muxctl witness does not show $(cat "$T/term.1"): $(cat "$T/out")"
grep -q "^countersigned with witness key $RID (muxd manifest $(num "$N1") witnessed: round 1 end, .*): $M1.witness.minisig$" "$T/out" ||
	fail "muxctl witness: $(cat "$T/out")"
minisign -Vm "$M1" -x "$M1.witness.minisig" -p "$T/referee.pub" >"$T/mini" 2>&1 || fail "minisign: $(cat "$T/mini")"
wait_for "grep -q '\"event\":\"manifest.witness\"' '$T/events'" 5 || fail "no manifest.witness event"
jq -e "select(.event == \"manifest.witness\") | .sequence == $(num "$N1") and .key == \"$RID\"" "$T/events" >/dev/null ||
	fail "the manifest.witness event: $(grep manifest.witness "$T/events")"
grep -q "manifest $N1 countersigned by witness key $RID" "$T/muxd.log" || fail "the log does not tell the countersignature"
# Never replaced.
mctl witness -s "$T/referee.key" "$N1" >"$T/out" 2>&1 && fail "a countersignature was replaced"
grep -q "countersigned already" "$T/out" || fail "a second countersignature: $(cat "$T/out")"
muxd_stop
# The next manifest (the shutdown) seals the countersignature.
jq -e --arg p "manifests/manifest-$N1.json.witness.minisig" 'any(.files[]; .path == $p)' \
    "$S/manifests/manifest-$(printf '%04d' $(($(num "$N1") + 1))).json" >/dev/null ||
	fail "the manifest after $N1 does not list its countersignature"
PIDS=
muxd_start -f "$T/room.conf"
watch_events
round_start 2
mctl round stop >/dev/null
round_sealed 2
N2=$(cut -c10-13 "$T/term.2")
# The referee's key with a password (minisign -C): muxctl asks for it on
# the terminal, and countersigns the newest manifest, round 2's end.
cp "$T/referee.key" "$T/referee-pw.key"
PW=sekrit /usr/bin/python3 "$T/ptyrun.py" minisign -C -s "$T/referee-pw.key" >"$T/out" 2>&1 ||
	fail "minisign -C: $(cat "$T/out")"
PW=wrong /usr/bin/python3 "$T/ptyrun.py" "$MUXCTL" -s "$SOCK" witness -s "$T/referee-pw.key" >"$T/out" 2>&1 &&
	fail "muxctl witness took a wrong password: $(cat "$T/out")"
grep -q "referee-pw.key: wrong password" "$T/out" || fail "a wrong password: $(cat "$T/out")"
PW=sekrit /usr/bin/python3 "$T/ptyrun.py" "$MUXCTL" -s "$SOCK" witness -s "$T/referee-pw.key" >"$T/out" 2>&1 ||
	fail "muxctl witness with a password: $(cat "$T/out")"
grep -q "^Password: " "$T/out" && grep -q "^evidence $N2 sealed: " "$T/out" &&
[ -e "$S/manifests/manifest-$N2.json.witness.minisig" ] || fail "muxctl witness with a password: $(cat "$T/out")"
muxd_stop

# verify prints the same short forms; the judges' notes check, as a list
# (-s) or the file of what the terminals showed (-S).
cp "$S/room.pub" "$T/room.pub"
"$TX" verify -k "$T/room.pub" -w "$T/referee.pub" "$S" >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"
grep -q "manifest-$N1.json: note: witnessed: muxd manifest $(num "$N1") witnessed: round 1 end" "$T/verify" &&
grep -q "manifests: note: witness key $RID: manifests witnessed: $(num "$N1"), $(num "$N2")$" "$T/verify" ||
	fail "verify -w: $(grep witness "$T/verify")"
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
