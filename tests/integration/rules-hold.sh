# The "hold" assertion policy: an entity's output is held back from the
# judge until its opening assertion passes, then released with its own key
# timing; after a FAIL it stays held until a referee releases it (muxctl
# release), and what is still held when the link ends is discarded with a
# count.  The capture has every byte, with the times it was read.  With
# "inject", what the entity wrote while muxd typed the assertion and the
# link ended before it was shown is in the capture as markers, never in
# the public transcript.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts

RULES='rules = { assertion = "hold"; };' room1
muxd_start -f "$T/room.conf"
watch_events
mctl watch --text >"$T/referee" 2>&1 &
PIDS="$PIDS $!"
round_start 1
JE=$(facing E1)
JC=$(facing C1)
tty "$JE" 'drain:200' >/dev/null
tty "$JC" 'drain:200' >/dev/null

# Nothing reaches the judge while the assertion is undecided.
tty -d 20 "$T/e1" 'type:Hello, my name is Ada and I am' >/dev/null
tty "$JE" 'quiet:400' >"$T/je.out" ||
	fail "held output reached the judge: $(cat "$T/je.out")"
# It passes: everything goes out, with the entity's own timing (the
# first 30 keys took 30 x 20 ms to type, so they take as long again).
# Timed from before the last 12 keys (some 240 ms): a release at the
# entity's pace takes 800 ms and more from there, one burst not 600
# unless the machine is slow (which can make it pass, never fail).
start=$(date +%s%N)
tty -d 20 "$T/e1" 'type: the human\r\n' >/dev/null
# (One reader for all of it: two in turn lose what the first read past
# its text.)
tty "$JE" 'expect:Hello, my name is Ada and I am the human\r\n' >"$T/je.out" 2>&1 ||
	fail "the assertion was not released whole after the PASS: $(cat "$T/je.out")"
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$took" -ge 600 ] ||
	fail "the held text came as one burst ($took ms for the last 12 keys typed and 41 released, typed 20 ms apart)"
wait_for "grep -q '\"event\":\"hold\".*\"state\":\"released\"' '$T/events'" 5 ||
	fail "no release event: $(grep hold "$T/events")"
# Once released, output passes straight through.
tty "$T/e1" 'send:ok' >/dev/null
tty "$JE" 'expect:ok' >/dev/null || fail "output after the release did not pass"

# A FAIL keeps the output held; the referee lets it through.
tty -d 10 "$T/c1" 'type:I am a computer\r\n' >/dev/null
wait_for "grep -q '\"state\":\"kept\"' '$T/events'" 5 ||
	fail "no kept event after a FAIL: $(grep hold "$T/events")"
tty "$JC" 'quiet:300' >"$T/jc.out" ||
	fail "output after a FAIL reached the judge: $(cat "$T/jc.out")"
wait_for "grep -q 'HELD' '$T/referee'" 5 ||
	fail "the referee view does not show the hold: $(cat "$T/referee")"
link=$(mctl -j status | jq -r '.links[] | select(.entity == "C1") | .name')
mctl release E1 >/dev/null 2>&1 && fail "release of a link that holds nothing succeeded"
mctl release "$link" >"$T/release.out" || fail "release failed: $(cat "$T/release.out")"
grep -q "released the held output of link $link" "$T/release.out" ||
	fail "release said: $(cat "$T/release.out")"
tty "$JC" 'expect:I am a computer\r\n' >/dev/null ||
	fail "released output did not reach the judge"
mctl round stop >/dev/null
grep -q 'PASS assertion E1' "$T/state/compliance.txt" || fail "no PASS for E1"
grep -q 'FAIL assertion C1' "$T/state/compliance.txt" || fail "no FAIL for C1"
grep -q 'PASS character E1: .* 0 bursts' "$T/state/compliance.txt" ||
	fail "the release counted as bursts: $(cat "$T/state/compliance.txt")"

# Held at the link's end: discarded, counted, in the capture all the same.
muxd_stop
rm -rf "$T/state"
muxd_start -f "$T/room.conf"
round_start 1
tty -d 10 "$T/c1" 'type:beep boop\r\nsecret\r\n' >/dev/null
wait_for "grep -q 'FAIL assertion C1' '$T/state/compliance.txt'" 5 || fail "no FAIL"
mctl round stop >/dev/null
cap=$(ls "$T"/state/captures/round01-*.cast | xargs grep -l '"hold discarded' | head -1)
[ -n "$cap" ] || fail "no discard marker in a capture"
grep -q '"hold discarded 19 bytes never shown to the judge"' "$cap" ||
	fail "wrong discard count: $(grep discarded "$cap")"
grep -q '"s"' "$cap" && grep -q '"t"' "$cap" || fail "the capture lost the held bytes"
grep -q '19 bytes C1 wrote were never shown to judge 07' "$T/muxd.log" ||
	fail "the discard was not logged"

# inject: the round stops while muxd still types the assertion (a key a
# second); the entity's words never reached the judge.
muxd_stop
rm -rf "$T/state"
RULES='rules = { assertion = "inject"; typing = "1000"; };' room1
muxd_start -f "$T/room.conf"
round_start 1
tty "$T/e1" 'send:my secret words\r\n' >/dev/null
wait_for "grep -hq '\"inject start E1' '$T'/state/captures/round01-*.cast" 5 || fail "no injection"
sleep 0.3
mctl round stop >/dev/null
cap=$(grep -l '"inject start E1' "$T"/state/captures/round01-*.cast)
grep -q '"m", "hold unshown 0 my\\\\x20secret\\\\x20words\\\\x0d\\\\x0a"' "$cap" ||
	fail "the unshown words are not in the capture: $(grep hold "$cap")"
jq -rj 'select(type == "array" and .[1] == "o") | .[2]' "$cap" | grep -q secret &&
	fail "the unshown words are the entity's output in the capture"
grep -rq secret "$T/state/transcripts" && fail "the unshown words are in the transcript: $(grep -r secret "$T/state/transcripts")"
"$TX" verify "$cap" | grep -q ': mismatch: ' && fail "the transcript is not the capture rendered"
echo ok

