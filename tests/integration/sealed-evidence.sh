# The evidence is sealed: muxd makes the room key, writes a signed
# manifest at each round's end, at start-up and at shutdown; minisign(1)
# verifies it with the room's public key and b2sum(1) gives the hashes it
# lists; `transcripts verify -k` checks chains, manifests and signature,
# and every way of tampering an auditor must catch is a finding that says
# what and where: text edited in place (the seal's lines), a verdict
# rewritten and the capture sealed again (the manifest), the compliance
# file edited (the manifest, and the verdict markers it no longer matches), a manifest re-signed with another key, a manifest removed,
# the closing markers cut off.  A killed muxd leaves captures that the
# restart closes, their ends marked "crash" (a crash recovered, a note
# for verify), and seals as they then are in its start manifest.  `transcripts index` tells the auditors who
# met whom, the verdicts, and every file with its hash.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
room1
muxd_start -f "$T/room.conf"
S=$T/state
[ -f "$S/room.key" ] && [ -f "$S/room.pub" ] || fail "no room key made: $(ls "$S")"
[ "$(stat -c %a "$S/room.key")" = 600 ] || fail "the room key is not private"
grep -q 'room key [0-9A-F]\{16\} made' "$T/muxd.log" || fail "the log does not tell the key made"
watch_events
round_start 1
tty -d 5 "$T/e1" 'type:Hello, my name is Ada and I am the human.\r\n' >/dev/null
tty -d 5 "$T/c1" 'type:hello, my name is Bob and I am the humanoid\r\n' >/dev/null
wait_for "grep -q 'FAIL assertion C1' '$S/compliance.txt'" 5 || fail "no FAIL verdict"
mctl round stop >/dev/null
wait_for "grep -q '\"event\":\"manifest\"' '$T/events'" 5 || fail "no manifest event"
muxd_stop

ls "$S/manifests" >"$T/mans"
[ "$(grep -c '^manifest-000[123].json$' "$T/mans")" = 3 ] || fail "not three manifests (start, round 1 end, shutdown): $(cat "$T/mans")"
M=$S/manifests/manifest-0002.json
jq -e '.why == "round 1 end" and .round == 1 and (.files | length) >= 5' "$M" >/dev/null ||
	fail "manifest 2: $(cat "$M")"
jq -e '.why == "shutdown" and .previous.path == "manifest-0002.json"' "$S/manifests/manifest-0003.json" >/dev/null ||
	fail "manifest 3: $(cat "$S/manifests/manifest-0003.json")"
# The standard tools: minisign for the signature, b2sum for the hashes.
minisign -Vm "$M" -p "$S/room.pub" >"$T/mini" 2>&1 || fail "minisign: $(cat "$T/mini")"
grep -q 'Trusted comment: muxd manifest 2: round 1 end' "$T/mini" || fail "minisign: $(cat "$T/mini")"
cap=$(cd "$S" && ls captures/round01-J1-*.cast | head -1)
[ "$(b2sum -l 256 "$S/$cap" | cut -d' ' -f1)" = "$(jq -r --arg p "$cap" '.files[] | select(.path == $p) | .blake2b' "$M")" ] ||
	fail "b2sum does not give the manifest's hash of $cap"

# The auditors' index: who met whom, verdicts, files and hashes.
"$TX" index -j "$S" >"$T/index.json" || fail "index -j"
jq -e --arg h "$(b2sum -l 256 "$S/$cap" | cut -d' ' -f1)" '.rounds[0].round == 1 and (.rounds[0].links | length) == 2 and
    (.rounds[0].links[] | select(.entity == "E1") | .judge == 7 and
     any(.verdicts[]; .verdict == "PASS" and (.what | startswith("assertion E1")))) and
    (.rounds[0].links[] | select(.entity == "C1") | any(.verdicts[]; .verdict == "FAIL")) and
    any(.rounds[0].links[].captures[]; .blake2b == $h and .sealed) and
    (.rounds[0].links[0].transcripts | length) == 1 and .manifest.signed' "$T/index.json" >/dev/null ||
	fail "index: $(cat "$T/index.json")"
"$TX" index "$S" >"$T/index" || fail "index"
grep -q '^  J1-[a-z]*: judge 07 met E1 (entry) on the [a-z]*$' "$T/index" || fail "index: $(cat "$T/index")"
grep -q '^    verdict FAIL: assertion C1 at byte 40' "$T/index" || fail "index: $(cat "$T/index")"

# All verifies, with the room's key brought along.
cp "$S/room.pub" "$T/room.pub"
"$TX" verify -k "$T/room.pub" "$S" >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"
grep -q 'manifest-0003.json: note: signed: muxd manifest 3: shutdown' "$T/verify" || fail "verify: $(cat "$T/verify")"

# Tampering, each on a fresh copy of the state directory.
fresh() { rm -rf "$T/s2"; cp -a "$S" "$T/s2"; }
verify_fails() {
	"$TX" verify -k "$T/room.pub" "$T/s2" >"$T/verify" 2>&1 && fail "verify missed: $1"
	grep -q "$2" "$T/verify" || fail "$1: verify said: $(grep -v ': ok' "$T/verify")"
}
ecap=$(grep -l '"entity": "E1"' "$S"/captures/round01-*.cast | head -1)
ecap=captures/$(basename "$ecap")

# 1. The entity's words edited in place: the seal after them breaks.
fresh
sed -i 's/I am the human/I am a machine/' "$T/s2/$ecap"
line=$(grep -n 'I am a machine' "$T/s2/$ecap" | head -1 | cut -d: -f1)
verify_fails "edited text" "$(basename "$ecap"):[0-9]*: offset [0-9]*: seal: the chain breaks between line [0-9]* and line [0-9]*"
verify_fails "edited text" "manifest: $ecap: changed"

# 2. A verdict rewritten FAIL -> PASS, the capture sealed again so that its
#    chain holds, compliance.txt edited to match: the manifest catches both.
fresh
ccap=$(grep -l 'verdict FAIL' "$T"/s2/captures/round01-*.cast | head -1)
sed -i 's/verdict FAIL judge 07 assertion C1/verdict PASS judge 07 assertion C1/' "$ccap"
python3 "$ROOT/tests/tools/reseal.py" "$ccap" || fail "reseal"
sed -i 's/FAIL assertion C1/PASS assertion C1/' "$T/s2/compliance.txt"
"$TX" verify "$ccap" >"$T/verify" 2>&1
[ $? = 3 ] || fail "the resealed capture should pass alone, unverified: $(cat "$T/verify")"
verify_fails "verdict rewritten" "manifest: captures/$(basename "$ccap"): changed"
verify_fails "compliance edited" "manifest: compliance.txt: changed"

# 3. The manifests re-made and signed with another key: the signature.
fresh
minisign -G -W -p "$T/evil.pub" -s "$T/evil.key" >/dev/null 2>&1 <&- || fail "minisign -G"
for m in "$T"/s2/manifests/manifest-*.json; do
	minisign -S -s "$T/evil.key" -m "$m" -t 'muxd manifest' >/dev/null 2>&1 <&- || fail "minisign -S"
done
verify_fails "another key" "signature: signed with key [0-9A-F]*, not with key"
cp "$T/evil.pub" "$T/s2/room.pub"
"$TX" verify "$T/s2" >"$T/verify" 2>&1 || true
grep -q 'found beside the evidence' "$T/verify" || fail "verify does not say whose key it used: $(cat "$T/verify")"

# 4. A manifest removed: the next one names it.
fresh
rm "$T/s2/manifests/manifest-0002.json" "$T/s2/manifests/manifest-0002.json.minisig"
verify_fails "manifest removed" "the manifest before it, manifest-0002.json, is missing"

# 5. The link down and round stop markers cut off the end.
fresh
n=$(grep -n '"link down' "$T/s2/$ecap" | head -1 | cut -d: -f1)
head -n $((n - 1)) "$S/$ecap" >"$T/s2/$ecap"
verify_fails "end cut" "$(basename "$ecap"):[0-9]*: end: no closing seal"
verify_fails "end cut" "manifest: $ecap: sealed with [0-9]* bytes, now [0-9]*: cut short"

# 6. A file added after the shutdown's manifest.
fresh
cp "$T/s2/$ecap" "$T/s2/captures/round01-J9-left.cast"
verify_fails "file added" "round01-J9-left.cast: manifest: in no manifest of the chain"

# 7. compliance.txt alone: a verdict rewritten, a verdict removed.
fresh
sed -i 's/FAIL assertion C1/PASS assertion C1/' "$T/s2/compliance.txt"
verify_fails "compliance rewritten" "compliance.txt:[0-9]*: offset [0-9]*: compliance: no capture of round 1 link J1-[a-z]* has the marker of this verdict (PASS judge 07 assertion C1"
verify_fails "compliance rewritten" "compliance.txt: compliance: the verdict marker at .*round01-J1-[a-z]*.cast:[0-9]* is not here: \"FAIL judge 07 assertion C1"
fresh
sed -i '/assertion E1/d' "$T/s2/compliance.txt"
verify_fails "compliance line removed" "compliance: the verdict marker at .* is not here: \"PASS judge 07 assertion E1"

# A closed capture changed while muxd is down, its size kept and its
# chain sealed again: the next manifest keeps what the last one sealed
# (it does not read the file again), so the change stays found.
size=$(wc -c <"$S/$ecap")
sed -i 's/name is Ada/name is Eve/' "$S/$ecap"
python3 "$ROOT/tests/tools/reseal.py" "$S/$ecap" || fail "reseal"
[ "$(wc -c <"$S/$ecap")" = "$size" ] || fail "the edit changed the size"

# Killed in the middle of round 2: the captures say crash, and the
# restart's manifest seals them as they are; the new segments resume.
muxd_start -f "$T/room.conf"
round_start 2
tty -d 5 "$T/j1l" 'type:are you there?\r\r' >/dev/null
sleep 1.5
muxd_stop KILL
muxd_start -f "$T/room.conf"
mctl round stop >/dev/null
"$TX" verify -k "$T/room.pub" "$S" >"$T/verify" 2>&1 && fail "verify missed the changed capture"
grep -q 'round02-J1-left.cast: note: a crash recovered' "$T/verify" || fail "no crash note: $(cat "$T/verify")"
grep -q 'round02-J1-left.cast:.*end: no closing seal' "$T/verify" && fail "the killed capture was not closed: $(cat "$T/verify")"
grep -q ': seal:' "$T/verify" && fail "a killed capture's chain does not verify: $(grep ': seal:' "$T/verify")"
grep -q "manifest-0004.json: manifest: $ecap: changed" "$T/verify" ||
	fail "the start manifest sealed a changed capture again: $(grep manifest-0004 "$T/verify")"
start=$(grep -l '"why": "crash recovery"' "$S"/manifests/manifest-*.json | tail -1)
jq -e '.files[] | select(.path == "captures/round02-J1-left.cast")' "$start" >/dev/null ||
	fail "the start manifest does not seal the killed capture"
grep -q '"m", "resume round02-J1-left.cast [0-9]* [0-9a-f]*\( trimmed [0-9]*\)\?"' "$S/captures/round02-J1-left.1.cast" ||
	fail "the new segment does not resume: $(head -3 "$S/captures/round02-J1-left.1.cast")"
muxd_stop

# muxd keygen: never over a key; a new one named with its number.
"$MUXD" -f "$T/room.conf" keygen >"$T/kg" 2>&1 && fail "keygen overwrote the room key"
grep -q "room.key: exists, not overwritten" "$T/kg" || fail "keygen: $(cat "$T/kg")"
rm "$S/room.key"
"$MUXD" -f "$T/room.conf" keygen >"$T/kg" 2>&1 || fail "keygen: $(cat "$T/kg")"
grep -q "^room key [0-9A-F]\{16\}: secret key $S/room.key, public key $S/room.pub$" "$T/kg" || fail "keygen: $(cat "$T/kg")"
cmp -s "$S/room.pub" "$T/room.pub" && fail "keygen kept the old public key"
# room_key elsewhere: the public key beside it, NAME.pub for NAME.key.
mkdir "$T/keys"
echo "room_key = \"$T/keys/contest.key\";" >>"$T/room.conf"
"$MUXD" -f "$T/room.conf" keygen >"$T/kg" 2>&1 || fail "keygen: $(cat "$T/kg")"
[ -f "$T/keys/contest.key" ] && [ -f "$T/keys/contest.pub" ] || fail "room_key: $(ls "$T/keys")"
# Made by root in a directory of muxd's user (here nobody's), the key is
# given to that user, who runs muxd under the service and must read it.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir "$T/keys/svc"
	chown nobody "$T/keys/svc"
	sed -i "s|^room_key = .*|room_key = \"$T/keys/svc/room.key\";|" "$T/room.conf"
	"$MUXD" -f "$T/room.conf" keygen >"$T/kg" 2>&1 || fail "keygen: $(cat "$T/kg")"
	[ "$(stat -c %U "$T/keys/svc/room.key")" = nobody ] && [ "$(stat -c %U "$T/keys/svc/room.pub")" = nobody ] ||
		fail "the key made by root is not given to the directory's owner: $(ls -l "$T/keys/svc")"
	grep -q "^given to nobody, as $T/keys/svc is$" "$T/kg" || fail "keygen does not say whose: $(cat "$T/kg")"
	[ "$(stat -c %a "$T/keys/svc/room.key")" = 600 ] || fail "the key is not private"
fi
# A room key made with minisign (-G -W, no password): it signs, and the
# manifests verify with minisign's public key.
if command -v minisign >/dev/null; then
	minisign -G -W -p "$T/keys/mini.pub" -s "$T/keys/mini.key" >/dev/null 2>&1 <&- || fail "minisign -G"
	sed -i "s|^room_key = .*|room_key = \"$T/keys/mini.key\";|" "$T/room.conf"
	log_reset
	muxd_start -f "$T/room.conf"
	muxd_stop
	grep -q "room key [0-9A-F]\{16\} ($T/keys/mini.key)" "$T/muxd.log" ||
		fail "the minisign key was not taken: $(grep -i key "$T/muxd.log")"
	m=$(ls "$S"/manifests/manifest-*.json | tail -1)
	minisign -V -p "$T/keys/mini.pub" -m "$m" >/dev/null 2>&1 ||
		fail "minisign does not verify $m with the room's minisign key"
fi
echo ok
