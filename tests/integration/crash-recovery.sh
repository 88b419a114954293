# A muxd killed with SIGKILL in the middle of a round, and started again
# without that round (the operator's fresh start; the same holds when the
# round was over or a link is not made again): at start-up muxd finds
# every capture the dead writer left open, not only those a next segment
# reopens, cuts off the unused tail of its mapping and closes it with a
# "crash" marker, sealed; the judge's line unfinished at the crash goes
# into the transcript, then "*** CRASH ***".  asciinema, b2sum against
# the crash recovery manifest and `transcripts verify` then agree.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n'
relay "$J" "$T/e1" 'How are you?\r'
relay "$T/e1" "$J" 'Fine, thanks.\r\n'
# The judge's line, unfinished: forwarded key by key, in no transcript yet.
relay "$J" "$T/e1" 'and where are yo'
cap=$(grep -l '"entity": "E1"' "$T"/state/captures/round01-J1-*.cast)
[ -n "$cap" ] || fail "no capture of E1's conversation: $(ls "$T/state/captures")"
wait_for "grep -q 'and where are yo' '$cap'" 5 || fail "the unfinished line is not in the capture"
muxd_stop KILL
[ "$(tail -c 1 "$cap" | od -An -tx1 | tr -d ' ')" = 00 ] ||
	fail "the killed capture has no zero tail to cut: the scenario tests nothing"
tx=$T/state/transcripts/E1/$(head -1 "$cap" | jq -r .muxd.transcript)
[ -f "$tx" ] || fail "no transcript $tx"
grep -q 'and where are yo' "$tx" && fail "the unfinished line is in the transcript before the restart"
tr -d '\000' <"$cap" >"$T/cap.killed"
cp "$tx" "$T/tx.killed"

# Started again without the round: nothing reopens that capture.
rm -f "$T/state/state.json"
muxd_start -f "$T/room.conf"
grep -q "record: $cap: left open by a muxd that died: [1-9][0-9]* zero bytes" "$T/muxd.log" ||
	fail "the recovery is not logged: $(grep record: "$T/muxd.log")"
[ ! -e "${cap%.cast}.1.cast" ] || fail "a next segment was opened"
# Every byte written stays, then the crash marker and the closing seal.
cmp -s -n "$(wc -c <"$T/cap.killed")" "$T/cap.killed" "$cap" || fail "the capture's lines changed"
[ "$(tail -c 1 "$cap" | od -An -tx1 | tr -d ' ')" = 0a ] || fail "$cap does not end with a line"
tail -n 2 "$cap" | head -1 | grep -q '"m", "crash trimmed [1-9][0-9]* torn 0"\]$' ||
	fail "no crash marker: $(tail -n 3 "$cap")"
tail -n 1 "$cap" | grep -q '"m", "seal [0-9]* [0-9a-f]\{64\} end"\]$' || fail "no closing seal: $(tail -n 1 "$cap")"
jq -e . "$cap" >/dev/null 2>&1 || fail "the capture is not whole JSON lines"
script -qec "asciinema cat '$cap'" /dev/null </dev/null >"$T/cat.out" 2>"$T/cat.err" ||
	fail "asciinema cat failed: $(tail -3 "$T/cat.err")"
# The restart's manifest (a crash recovery) lists the capture as it now
# is: b2sum agrees.
start=$(grep -l '"why": "crash recovery"' "$T"/state/manifests/manifest-*.json | tail -1)
rel=captures/$(basename "$cap")
want=$(jq -r --arg p "$rel" '.files[] | select(.path == $p) | .blake2b' "$start")
[ "$(b2sum -l 256 "$cap" | cut -d' ' -f1)" = "$want" ] ||
	fail "b2sum of $cap is not the crash recovery manifest's ($want)"
# The transcript: what it had, the judge's unfinished line, the marker.
cmp -s -n "$(wc -c <"$T/tx.killed")" "$T/tx.killed" "$tx" || fail "the transcript's lines changed"
tail -n 2 "$tx" | head -1 | grep -q '^JUDGE07\[..:..:..\]and where are yo$' ||
	fail "the unfinished line is not closed into the transcript: $(tail -n 3 "$tx")"
[ "$(tail -n 1 "$tx")" = '*** CRASH ***' ] || fail "no crash line: $(tail -n 2 "$tx")"
# A file named alone: intact, but unverified (3): no manifest covers it.
"$TX" verify "$cap" >"$T/verify" 2>&1
[ $? = 3 ] || fail "verify: $(cat "$T/verify")"
grep -q 'note: a crash recovered at line [0-9]*' "$T/verify" || fail "verify does not tell the crash: $(cat "$T/verify")"
grep -q "transcript .*$(basename "$tx") matches" "$T/verify" || fail "the transcript is not the capture rendered: $(cat "$T/verify")"
# A second start finds nothing more to do.
muxd_stop
cp "$cap" "$T/cap.closed"
muxd_start -f "$T/room.conf"
cmp -s "$T/cap.closed" "$cap" || fail "a closed capture changed at the next start"
echo ok
