# muxd's files cannot be turned against it: a symbolic link planted as
# state.json.tmp is removed, not written through (its target stays as it
# was), and a transcripts directory that is a symbolic link is not
# followed (the conversation is still captured, and the refusal logged).
# Captures, transcripts and compliance.txt are 0640, their directories
# 0750.
. tests/integration/lib.sh

room1
mkdir -p "$T/state/transcripts" "$T/elsewhere"
printf 'precious\n' >"$T/target"
ln -s "$T/target" "$T/state/state.json.tmp"
ln -s "$T/elsewhere" "$T/state/transcripts/E1"
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
J=$(facing E1)
relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "E1 did not reach the judge"
relay "$T/c1" "$T/j1$( [ "$J" = "$T/j1l" ] && echo r || echo l)" 'Hello, my name is Bob and I am the human\r\n' "C1 did not reach the judge"
mctl round stop >/dev/null

[ "$(cat "$T/target")" = precious ] || fail "the state was written through a planted symbolic link: $(cat "$T/target")"
[ -f "$T/state/state.json" ] && [ ! -L "$T/state/state.json" ] || fail "no state.json of its own"
jq -e '.round.last == 1' "$T/state/state.json" >/dev/null || fail "state.json does not hold round 1: $(cat "$T/state/state.json")"
[ -z "$(ls -A "$T/elsewhere")" ] || fail "a transcript was written through a symbolic link: $(ls "$T/elsewhere")"
grep -q 'transcripts directory .*/E1: Too many levels of symbolic links' "$T/muxd.log" ||
	fail "the refused transcripts directory was not logged"
ls "$T"/state/captures/round01-J1-*.cast >/dev/null 2>&1 || fail "no captures"
for f in "$T"/state/captures/*.cast "$T"/state/transcripts/C1/* "$T/state/compliance.txt"; do
	[ "$(stat -c %a "$f")" = 640 ] || fail "$f is mode $(stat -c %a "$f"), not 640"
done
for d in "$T/state/captures" "$T/state/transcripts/C1"; do
	[ "$(stat -c %a "$d")" = 750 ] || fail "$d is mode $(stat -c %a "$d"), not 750"
done
echo ok
