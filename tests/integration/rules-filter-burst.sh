# Bytes from an entity that a judge's terminal would interpret (cursor
# movement, title setting, OSC 52 clipboard, 8-bit CSI, stray controls) do
# not reach the judge; they are counted and recorded, never silently, and
# the capture keeps them.  Pass-through is a room option.  Output that
# comes in bursts is a character-by-character FAIL; typed output passes.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1
J=$(facing E1)
tty "$J" 'drain:200' >/dev/null

tty "$T/e1" 'send:A\e[2J\e[HB\e]0;pwned\x07C\e]52;c;SGVsbG8=\e\\D\xc2\x9b31mE\x01\x02F\r\n' >/dev/null
tty "$J" 'expect:ABCDEF\r\n' 'quiet:300' >"$T/j.out" ||
	fail "control sequences reached the judge: $(cat "$T/j.out")"
wait_for "[ \$(grep -c '\"event\":\"filter\"' '$T/events') -ge 5 ]" 5 ||
	fail "removed sequences not announced: $(grep filter "$T/events")"
for k in csi osc control; do
	grep '"event":"filter"' "$T/events" | grep -q "\"kind\":\"$k\"" || fail "no $k filter event"
done

# Typed output passes the character-by-character check; a burst fails it.
tty -d 30 "$T/c1" 'type:typed by hand\r\n' >/dev/null
head -c 200 /dev/zero | tr '\0' 'z' >"$T/burst"
tty "$T/e1" "send:$(cat "$T/burst")" >/dev/null
# Stopped once muxd has read the burst (the judge sees it), not before.
tty "$J" 'expect:zzzzzzzzzzzzzzzzzzzz' >/dev/null || fail "the burst did not reach the judge"
mctl round stop >/dev/null
grep -q 'FAIL character E1: .* bursts of 8 or more within 1 ms' "$T/state/compliance.txt" ||
	fail "a 200-byte burst passed: $(cat "$T/state/compliance.txt")"
grep -q 'PASS character C1: .* 0 bursts' "$T/state/compliance.txt" ||
	fail "typing by hand failed: $(cat "$T/state/compliance.txt")"
cap=$(grep -l '"entity": *"E1"\|"entity":"E1"' "$T"/state/captures/round01-*.cast | head -1)
[ -n "$cap" ] || cap=$(ls "$T"/state/captures/round01-J1-*.cast | xargs grep -l 'pwned')
grep -q 'pwned' "$cap" || fail "the capture lost the removed bytes"
grep -q '"m", "filter osc' "$cap" || fail "no filter marker in the capture"

# Pass-through: the same bytes reach the judge, still reported.
muxd_stop
RULES='rules = { filter = "passthrough"; };' room1
muxd_start -f "$T/room.conf"
mctl round start 2 >/dev/null
J=$(facing E1)
tty "$J" 'drain:200' >/dev/null
tty "$T/e1" 'send:X\e[2JY' >/dev/null
tty "$J" 'expect:X\e[2JY' >/dev/null || fail "pass-through removed bytes"
echo ok
