# A capture keeps at most capture_limit bytes: an entity that floods its
# line cannot fill the disk.  Past the budget the conversation still flows
# whole, one "fault capture full" marker, a log line and a fault event say
# so, what follows is counted and marked at the end, and verify reports it.
. tests/integration/lib.sh

RULES='capture_limit = 65536;' room1
muxd_start -f "$T/room.conf"
wait_port e1 up
watch_events
round_start 1
J=$(facing E1)
cat "$J" >"$T/judge.bytes" &
PIDS="$PIDS $!"
head -c 300000 /dev/zero | tr '\0' 'y' >"$T/bulk"
for i in 1 2 3 4 5; do
	"$TOOLS/ttyio" -t 30000 "$T/e1" "send:$(head -c 60000 "$T/bulk")" >/dev/null
done
wait_for "[ \$(tr -cd y <'$T/judge.bytes' | wc -c) = 300000 ]" 15 ||
	fail "the judge did not get all 300000 bytes: $(tr -cd y <"$T/judge.bytes" | wc -c)"
mctl round stop >/dev/null
cap=$(ls "$T"/state/captures/round01-J1-*.cast | while read -r c; do grep -q '"E1"' "$c" && echo "$c"; done)
[ "$(stat -c %s "$cap")" -lt 200000 ] || fail "the capture grew past its budget: $(stat -c %s "$cap") bytes"
grep -q '"m", "fault capture full 65536 bytes"' "$cap" || fail "no marker where the budget was reached"
grep -q '"m", "drop capture [0-9]* bytes past the budget"' "$cap" || fail "what was not recorded is not counted in a marker"
grep -q 'capture full at 65536 bytes' "$T/muxd.log" || fail "not logged"
wait_for "grep -q '\"event\":\"fault\".*\"what\":\"capture\"' '$T/events'" 5 || fail "no fault event on watch"
"$ROOT/$B/transcripts/transcripts" verify "$cap" >"$T/verify" 2>&1 && fail "verify found nothing in a capture past its budget"
grep -q 'capture full' "$T/verify" || fail "verify does not name the marker: $(cat "$T/verify")"
"$MUXD" -n -f "$T/room.conf" >/dev/null || fail "the room is refused"
sed -i 's/capture_limit = 65536;/capture_limit = 100;/' "$T/room.conf"
"$MUXD" -n -f "$T/room.conf" 2>"$T/err" && fail "a capture_limit of 100 bytes was accepted"
grep -q "room.conf:[0-9]*: setting 'capture_limit' must be between 65536 and" "$T/err" || fail "the refusal: $(cat "$T/err")"
echo ok
