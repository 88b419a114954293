# The manifests form a chain from the room's start to its shutdown, and
# transcripts verify's exit status says what the evidence is: 0 intact,
# complete and signed by the key given, 1 an integrity failure, 3
# unverified (no key, another key), 4 open (no shutdown yet).  An honest
# room with an operator's disconnect and a muxd killed and started again
# (a "crash recovery" manifest) verifies 0 with its key, the disconnect
# and the crash told as events.  Every tampering is a failure that says
# what and where: a manifest removed (the first, one in the middle, the
# last, all), a capture forged (a line removed, its chain sealed again,
# its transcript rendered again) with the manifests removed or made again
# with another key, a manifest replayed (an old one copied in as a newer
# one, two of one sequence number), manifests swapped, a file added.  A
# witness's countersignatures (minisign -S -x) are checked with -w.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
room1
muxd_start -f "$T/room.conf"
S=$T/state
round_start 1
tty -d 5 "$T/e1" 'type:Hello, my name is Ada and I am the human.\r\n' >/dev/null
tty -d 5 "$T/c1" 'type:Hello, my name is Bob and I am the human.\r\n' >/dev/null
J=$(facing E1)
tty -d 5 "$J" 'type:what is your name?\r\r' >/dev/null
tty -d 5 "$T/e1" 'type:Ada, as I said.\r\n' >/dev/null
sleep 0.3
link=$(mctl -j status | jq -r '.links[] | select(.entity == "C1") | .name')
mctl disconnect "$link" >/dev/null || fail "muxctl disconnect $link"
mctl round stop >/dev/null
# Round 2, killed in the middle: the restart writes a crash recovery.
round_start 2
tty -d 5 "$T/j1l" 'type:are you there?\r\r' >/dev/null
sleep 1.5
muxd_stop KILL
muxd_start -f "$T/room.conf"
grep -q 'manifest .*manifest-[0-9]*\.json (crash recovery)' "$T/muxd.log" || fail "no crash recovery manifest: $(grep manifest "$T/muxd.log")"
mctl round stop >/dev/null
muxd_stop

ls "$S/manifests" | grep -c '^manifest-[0-9]*\.json$' >"$T/n"
N=$(cat "$T/n")
jq -e '.muxd_manifest == 2 and .sequence == 1 and .why == "start" and (has("previous") | not) and (.key | test("^[0-9A-F]{16}$"))' \
    "$S/manifests/manifest-0001.json" >/dev/null || fail "manifest 1: $(cat "$S/manifests/manifest-0001.json")"
jq -e '.previous.sequence == 1 and .previous.path == "manifest-0001.json"' "$S/manifests/manifest-0002.json" >/dev/null ||
	fail "manifest 2: $(cat "$S/manifests/manifest-0002.json")"
crash=$(grep -l '"why": "crash recovery"' "$S"/manifests/manifest-*.json)
[ -n "$crash" ] || fail "no crash recovery manifest in $(ls "$S/manifests")"
jq -e '.why == "shutdown"' "$S/manifests/manifest-$(printf %04d "$N").json" >/dev/null || fail "the last is no shutdown"
# The standard tool checks each, the crash recovery's too.
minisign -Vm "$crash" -p "$S/room.pub" >"$T/mini" 2>&1 || fail "minisign: $(cat "$T/mini")"
grep -q 'Trusted comment: muxd manifest [0-9]*: crash recovery' "$T/mini" || fail "minisign: $(cat "$T/mini")"

# status EXPECTED WHAT [verify arguments]: verify's exit status is EXPECTED.
status() {
	_want=$1 _what=$2
	shift 2
	"$TX" verify "$@" >"$T/verify" 2>&1
	_rc=$?
	[ "$_rc" = "$_want" ] || fail "$_what: status $_rc, not $_want: $(grep -v ': ok\|: note: \|: verdict: ' "$T/verify")"
}
said() { grep -q "$1" "$T/verify" || fail "$2: verify does not say \"$1\": $(grep -v ': ok\|: note: \|: verdict: ' "$T/verify")"; }

# The honest room: 0 with its key; the disconnect and the crash are events.
cp "$S/room.pub" "$T/room.pub"
status 0 "the honest room" -k "$T/room.pub" "$S"
said "manifests: note: a chain of $N manifests, from the room's start to its shutdown" "the honest room"
said ": disconnect: marker \"link down disconnected by operator\"" "the disconnect"
said "round02-J1-left.cast: note: a crash recovered at line [0-9]*" "the crash"
said "manifests: crash: manifest [0-9]* (crash recovery" "the crash"
said '^verify: intact: ' "the honest room"
grep -q ': [a-z-]*: ' "$T/verify" && grep -E ': (open|header|event|order|torn|long|seal|end|signature|manifest|compliance|chain|witness|key|mismatch|format|public-domain): ' "$T/verify" &&
	fail "the honest room has failures"
# No key: unverified (3), even with room.pub beside; a wrong key: 3.
status 3 "no key" "$S"
said "key: checked with key [0-9A-F]* found beside the evidence, not with a key given" "no key"
minisign -G -W -p "$T/wrong.pub" -s "$T/wrong.key" >/dev/null 2>&1 <&- || fail "minisign -G"
status 3 "a wrong key" -k "$T/wrong.pub" "$S"
said "manifests: key: no manifest is signed with key [0-9A-F]*, the key given" "a wrong key"
rm "$S/room.pub"
status 3 "no key at all" "$S"
said "manifests: key: no public key: the signatures are not checked" "no key at all"
cp "$T/room.pub" "$S/room.pub"

# Tampering, each on a fresh copy of the state directory.
fresh() { rm -rf "$T/s2"; cp -a "$S" "$T/s2"; M=$T/s2/manifests; }
rmman() { rm "$M/manifest-$(printf %04d "$1").json" "$M/manifest-$(printf %04d "$1").json.minisig"; }
fresh; rmman 1
status 1 "the first manifest removed" -k "$T/room.pub" "$T/s2"
said "manifests: chain: the chain begins at manifest 2 (round 1 end): manifest 1, the room's start, is missing" "the first removed"
fresh; rmman 3
status 1 "a middle manifest removed" -k "$T/room.pub" "$T/s2"
said "manifests: chain: manifest 3 is missing: the chain goes from manifest 2 (round 1 end) to manifest 4" "a middle one removed"
said "manifest-0004.json: chain: the manifest before it, manifest-0003.json, is missing" "a middle one removed"
# The last, the shutdown's: open (4), which a running room also is; a
# room known to be over (-e) makes it a failure.
fresh; rmman "$N"
status 4 "the shutdown manifest removed" -k "$T/room.pub" "$T/s2"
said "manifests: open: the chain ends at manifest $((N - 1)) (round 2 end, [^)]*), not at a shutdown" "the last removed"
said '^verify: open: ' "the last removed"
status 1 "the shutdown manifest removed, the room over" -e -k "$T/room.pub" "$T/s2"
said "manifests: chain: the chain ends at manifest $((N - 1)) (round 2 end, [^)]*), not at a shutdown, and the room is over" "the last removed (-e)"
fresh; rm -r "$M"
status 1 "every manifest removed" -k "$T/room.pub" "$T/s2"
said "manifests: chain: no manifest: nothing proves the files sealed" "all removed"
# Without a key: unverified (3), and said why; the crash's captures were
# closed by the restart, so nothing else is wrong.
status 3 "every manifest removed, no key" "$T/s2"
said "manifests: key: no manifest: nothing proves the files sealed" "all removed, no key"

# A capture forged: a line of the entry's removed, its chain sealed again,
# its transcript rendered again.  It checks alone; the chain catches it.
forge() {
	ecap=$(grep -l '"entity": "E1"' "$T"/s2/captures/round01-*.cast | head -1)
	# "Ada, as I said" becomes "Ada as I said".
	n=$(grep -n '"o", ","' "$ecap" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "no line to forge in $ecap"
	sed -i "${n}d" "$ecap"
	python3 "$ROOT/tests/tools/reseal.py" "$ecap" || fail "reseal"
	rm -rf "$T/render"
	"$TX" render -o "$T/render" "$ecap" >/dev/null || fail "render"
	tx=$(head -n 1 "$ecap" | jq -r '.muxd.transcript')
	cp "$T/render/$tx" "$T/s2/transcripts/E1/$tx"
}
fresh; forge
status 3 "the forged capture alone" "$ecap"
status 1 "a forged capture" -k "$T/room.pub" "$T/s2"
said "manifest-0002.json: manifest: captures/$(basename "$ecap"): sealed with [0-9]* bytes, now [0-9]*: cut short" "a forged capture"
said "manifest-0002.json: manifest: transcripts/E1/$tx: sealed with [0-9]* bytes, now [0-9]*: cut short" "a forged transcript"
fresh; forge; rm -r "$M"
status 1 "a forged capture, the manifests removed" -k "$T/room.pub" "$T/s2"
said "manifests: chain: no manifest" "a forged capture, the manifests removed"
# ... all but the first: the chain is open, but the forged capture was
# closed at its round's stop, after which a manifest always follows.
fresh; forge; for k in $(seq 2 "$N"); do rmman "$k"; done
status 1 "a forged capture, the manifests but the first removed" -k "$T/room.pub" "$T/s2"
said "$(basename "$ecap"): chain: closed at \"round stopped\", after which muxd seals it in a manifest, but no manifest has it whole: the manifests after manifest 1 (start) were removed" \
    "a forged capture, the manifests but the first removed"
fresh; forge
python3 "$ROOT/tests/tools/remanifest.py" "$T/s2" "$T/wrong.key" "$T/wrong.pub" || fail "remanifest"
status 3 "a forged capture, the manifests made again" -k "$T/room.pub" "$T/s2"
said "manifests: key: no manifest is signed with key" "the manifests made again"
said "manifest-0002.json: key: signed with room key [0-9A-F]*, it says, not with key" "the manifests made again"
# ... one of them alone made again: a replacement, a failure.
fresh; forge
rm -rf "$T/s3"; cp -a "$T/s2" "$T/s3"
python3 "$ROOT/tests/tools/remanifest.py" "$T/s3" "$T/wrong.key" "$T/wrong.pub" || fail "remanifest"
cp "$T/s3/manifests/manifest-0002.json" "$T/s3/manifests/manifest-0002.json.minisig" "$M/"
status 1 "one manifest made again" -k "$T/room.pub" "$T/s2"
said "manifests: chain: manifest 2 is signed with another key than the others" "one manifest made again"
said "manifest-0003.json: chain: the manifest before it, manifest-0002.json, is not the one this one sealed" "one manifest made again"

# Replays: an old manifest copied in as a newer one; two of one number.
fresh; cp "$M/manifest-0002.json" "$M/manifest-0003.json"; cp "$M/manifest-0002.json.minisig" "$M/manifest-0003.json.minisig"
status 1 "an old manifest as a newer one" -k "$T/room.pub" "$T/s2"
said "manifest-0003.json: chain: the file name says manifest manifest-0003.json, the manifest says 2" "a replay"
said "manifests: chain: .*manifest-0002.json and .*manifest-0003.json both say manifest 2: one is a replay" "a replay"
fresh; cp "$M/manifest-0002.json" "$M/manifest-2.json"; cp "$M/manifest-0002.json.minisig" "$M/manifest-2.json.minisig"
status 1 "two manifests of one number" -k "$T/room.pub" "$T/s2"
said "both say manifest 2: one is a replay" "two of one number"
# Two swapped, with their signatures.
fresh
for f in json json.minisig; do
	mv "$M/manifest-0002.$f" "$T/x"; mv "$M/manifest-0003.$f" "$M/manifest-0002.$f"; mv "$T/x" "$M/manifest-0003.$f"
done
status 1 "two manifests swapped" -k "$T/room.pub" "$T/s2"
said "manifest-0002.json: chain: the file name says manifest manifest-0002.json, the manifest says 3" "swapped"
# A file no manifest lists.
fresh; cp "$T/s2/captures/round01-J1-left.cast" "$T/s2/captures/round01-J9-left.cast"
status 1 "a file added" -k "$T/room.pub" "$T/s2"
said "round01-J9-left.cast: manifest: in no manifest of the chain, which ends with manifest $N at muxd's shutdown" "a file added"

# A witness countersigns manifests 2 and the last, with minisign itself.
minisign -G -W -p "$T/witness.pub" -s "$T/witness.key" >/dev/null 2>&1 <&- || fail "minisign -G"
fresh
for k in 2 "$N"; do
	m=$M/manifest-$(printf %04d "$k").json
	minisign -S -s "$T/witness.key" -m "$m" -x "$m.witness.minisig" -t "muxd manifest $k witnessed" \
	    >/dev/null 2>&1 <&- || fail "minisign -S -x"
done
status 0 "witnessed" -k "$T/room.pub" -w "$T/witness.pub" "$T/s2"
said "manifests: note: witness key [0-9A-F]*: manifests witnessed: 2, $N" "witnessed"
said "manifest-0002.json: note: witnessed: muxd manifest 2 witnessed" "witnessed"
status 0 "witnessed, no -w" -k "$T/room.pub" "$T/s2"
said "manifest-0002.json: note: countersigned in .*manifest-0002.json.witness.minisig, not checked: no witness key (-w)" "no -w"
# A countersignature moved to another manifest: a failure.
cp "$M/manifest-0002.json.witness.minisig" "$M/manifest-0003.json.witness.minisig"
status 1 "a bad countersignature" -k "$T/room.pub" -w "$T/witness.pub" "$T/s2"
said "manifest-0003.json: witness: the countersignature .*manifest-0003.json.witness.minisig does not verify with the witness's key: the signature does not match the file" "a bad countersignature"
# ... and by another key than the witness's.
rm "$M/manifest-0003.json.witness.minisig"
minisign -S -s "$T/wrong.key" -m "$M/manifest-0003.json" -x "$M/manifest-0003.json.witness.minisig" \
    >/dev/null 2>&1 <&- || fail "minisign -S -x"
status 1 "a countersignature by another key" -k "$T/room.pub" -w "$T/witness.pub" "$T/s2"
said "manifest-0003.json: witness: .*signed with key [0-9A-F]*, not with key" "another witness key"

# muxd stopped in the middle of a round: its links close at its stop, so
# the shutdown manifest removed is found even without -e.
muxd_start -f "$T/room.conf"
grep -q 'manifest .*manifest-[0-9]*\.json (start)' "$T/muxd.log" || fail "no start manifest after a shutdown"
round_start 1
tty -d 5 "$T/e1" 'type:Hello again.\r\n' >/dev/null
muxd_stop
N=$((N + 2))
status 0 "a run stopped in a round" -k "$T/room.pub" "$S"
fresh; rmman "$N"
status 1 "the shutdown manifest of a run stopped in a round removed" -k "$T/room.pub" "$T/s2"
said "chain: closed at \"muxd stopping\", after which muxd seals it in a manifest, but no manifest has it whole: the manifests after manifest $((N - 1)) (start) were removed" \
    "the shutdown removed after a stop in a round"
echo ok
