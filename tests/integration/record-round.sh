# muxd records every link of a round live: a capture per link (every byte,
# NUL and 8-bit included, with its time), a public-domain transcript per
# entity that `transcripts render` gives back byte for byte, a capture per
# port of its unrouted traffic, markers for faults; a daemon killed and
# restarted starts new segments and never overwrites.
. tests/integration/lib.sh

TX=$ROOT/$B/transcripts/transcripts
cable j1l
cable e1
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "j1l"; address = "$T/j1l.dev"; },
  { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "e1"; address = "$T/e1.dev"; },
  { name = "c1"; address = "pty:$T/c1"; },
  { name = "spare"; address = "pty:$T/spare"; }
);
stations = ( { name = "J1"; judge = 7; left = "j1l"; right = "j1r"; } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada";
               program = "Babbage"; contestant = "Ada Lovelace"; },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); } ); seed = 3; };
EOC
muxd_start -f "$T/room.conf"
round_start 1
eside=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .side')
jp=$(sport J1 "$eside")

# A conversation with every awkward byte, and a fault in the middle.
tty "$T/$jp" 'type:Hello?\r\rWho are yuo\x08\x08ou?\r\n\r\n' >/dev/null
tty "$T/e1" 'expect:ou?\r\r' 'type:Hello, my name is Ada and I am the human.\r\n' \
    'send:caf\xe9 \x00 nul\rdone\n\r' >/dev/null
tty "$T/$jp" 'expect:done\r\n' >/dev/null || fail "conversation not forwarded"
unplug e1
wait_port e1 down
cable e1
wait_port e1 up 15
tty "$T/$jp" 'send:still there?\r\r' >/dev/null
tty "$T/e1" 'expect:still there?' >/dev/null || fail "no traffic after the fault"
tty "$T/spare" 'send:nobody hears this\x01' >/dev/null
wait_for "[ \"\$(port_field spare unrouted)\" = 18 ]" 5 || fail "unrouted bytes not counted"
mctl round stop >/dev/null

cap=$(ls "$T"/state/captures/round01-J1-$eside*.cast)
[ -f "$cap" ] || fail "no capture for link J1-$eside: $(ls "$T/state/captures")"
head -n 1 "$cap" | jq -e '.version == 2 and .muxd.round == 1 and .muxd.judge == 7 and
    .muxd.entity == "E1" and .muxd.encoding == "iso-8859-1"' >/dev/null ||
	fail "capture header lacks its metadata: $(head -n 1 "$cap")"
# Every byte the entity sent is in "o" events, exactly.
jq -rj 'select(type == "array" and .[1] == "o") | .[2]' "$cap" | iconv -f utf-8 -t latin1 >"$T/o.bin"
printf 'Hello, my name is Ada and I am the human.\r\ncaf\351 \000 nul\rdone\n\r' >"$T/o.want"
cmp "$T/o.bin" "$T/o.want" || fail "the capture's output bytes differ from what was sent"
# The cable's pty gone: the kernel tells the reader end of file, or EIO
# when the other side's close is seen first.
grep -Eq '"m", "fault e1 down (end of file|read: Input/output error)"' "$cap" ||
	fail "no fault marker in the capture"
grep -q '"m", "link down round stopped"' "$cap" || fail "no link down marker"

# The live transcript, and render gives it back byte for byte.
live=$(head -n 1 "$cap" | jq -r '.muxd.transcript')
[ -f "$T/state/transcripts/E1/$live" ] || fail "no live transcript E1/$live"
grep -q '^This transcript is in the public domain' "$T/state/transcripts/E1/$live" || fail "no public-domain line"
grep -q '^\*\*\* JUDGE07 \*\*\*' "$T/state/transcripts/E1/$live" || fail "no judge line"
grep -q '^JUDGE07\[[0-9:]*\]Who are you?$' "$T/state/transcripts/E1/$live" ||
	fail "backspaces not applied: $(cat "$T/state/transcripts/E1/$live")"
grep -qi 'cambridge\|surrey' "$T/state/transcripts/E1/$live" && fail "forbidden reference"
mkdir "$T/r"
"$TX" render -o "$T/r" "$cap" >/dev/null || fail "render failed"
cmp "$T/state/transcripts/E1/$live" "$T/r/$live" || fail "render differs from the live transcript"
script -qec "asciinema cat $cap" /dev/null </dev/null >"$T/cat" 2>&1 ||
	fail "asciinema cat refuses the capture: $(tail -2 "$T/cat")"

# verify: transcripts found where muxd keeps them and matching; the pulled
# cable is an event of the contest, and the spare port's capture, still
# open with no manifest to say so, an integrity failure.
"$TX" verify "$T/state/captures" "$T/state/transcripts" >"$T/verify" 2>&1
[ $? = 1 ] || fail "verify found nothing, not even the open capture: $(cat "$T/verify")"
grep -q "$(basename "$cap"): ok, transcript .* matches; 4 events (fault 2, verdict 2)" "$T/verify" || fail "verify: $(cat "$T/verify")"
[ "$(grep -c ': ok, transcript .* matches' "$T/verify")" = 2 ] || fail "verify matched no transcript: $(cat "$T/verify")"
grep -q 'unrouted-spare.cast:[0-9]*: end: no closing seal' "$T/verify" || fail "verify: $(cat "$T/verify")"
grep -q 'verify: 5 files, 1 with integrity failures' "$T/verify" || fail "verify: $(cat "$T/verify")"

# Unrouted traffic has its own capture.
jq -rj 'select(type == "array" and .[1] == "i") | .[2]' "$T/state/captures/unrouted-spare.cast" |
	grep -q 'nobody hears this' || fail "unrouted bytes not captured"

# Killed and restarted: new segments; the old files keep every byte
# written, their unused tails cut off and their ends marked.
muxd_stop KILL
tr -d '\000' <"$cap" >"$T/cap.killed"
muxd_start -f "$T/room.conf"
mctl round start 1 >/dev/null || fail "round 1 did not start again"
mctl round stop >/dev/null
cmp -s -n "$(wc -c <"$T/cap.killed")" "$T/cap.killed" "$cap" ||
	fail "the first capture's lines changed after the restart"
[ "$(ls "$T"/state/captures/round01-J1-$eside*.cast | wc -l)" = 2 ] ||
	fail "no new segment: $(ls "$T/state/captures")"
[ "$(ls "$T"/state/transcripts/E1/ | wc -l)" = 2 ] || fail "no new transcript cycle"
# The new segment says it resumes the first, with its line count and
# hash; the capture the kill left open is a crash recovered for verify,
# a note, not a finding.
seg=$(ls "$T"/state/captures/round01-J1-$eside.1.cast)
lines=$(wc -l <"$cap")
sed -n 2,3p "$seg" | grep -q "\"m\", \"resume $(basename "$cap") $lines [0-9a-f]\{64\}\"" ||
	fail "the segment does not resume the first: $(sed -n 2,3p "$seg")"
grep -q '"round start 1"' "$seg" && fail "a resumed segment says round start"
"$TX" verify "$seg" >"$T/verify" 2>&1
[ $? = 3 ] || fail "verify of the new segment: $(cat "$T/verify")"
# A file named alone is unverified (3): no manifest covers it.
"$TX" verify "$T/state/captures/unrouted-spare.cast" >"$T/verify" 2>&1
[ $? = 3 ] || fail "the killed capture, closed at the restart, does not verify: $(cat "$T/verify")"
grep -q 'note: a crash recovered' "$T/verify" || fail "verify: $(cat "$T/verify")"
# The first segment grown after the second began: found from the second.
cp "$cap" "$T/cap.saved"
tail -n 1 "$cap" >>"$cap"
"$TX" verify "$seg" >"$T/verify" 2>&1 && fail "verify missed the grown first segment"
grep -q "seal: the previous segment $(basename "$cap") grew by 1 lines" "$T/verify" || fail "verify: $(cat "$T/verify")"
echo ok
