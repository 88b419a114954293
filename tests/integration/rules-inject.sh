# The "inject" assertion policy: at the start of an entity's first
# interaction with a judge muxd types "Hello, my name is X and I am the
# human" for it, X its approved name, one key at a time with the room's
# typing model; the entity's own output, held meanwhile, follows with its
# own timing.  The injected text passes the check, is in the capture (as
# the entity's output, between markers) and the transcript, and is not
# typed again when the pair meets in a later round.
. tests/integration/lib.sh

RULES='rules = { assertion = "inject"; typing = "20+-10"; };' room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1
J=$(facing E1)
# The entity answers at once; the judge must see it after the assertion.
tty -d 40 "$T/e1" 'type:Hi there' >/dev/null
tty "$J" 'expect:Hello, my name is Ada and I am the human\r\nHi there' \
    >"$T/j.out" || fail "the judge did not get the injected assertion, then the entity's text: $(cat "$T/j.out")"
wait_for "grep -q 'PASS assertion E1' '$T/state/compliance.txt'" 5 ||
	fail "no PASS for the injected assertion: $(cat "$T/state/compliance.txt" 2>/dev/null)"
wait_for "grep -q '\"event\":\"inject\".*\"state\":\"done\"' '$T/events'" 5 ||
	fail "no inject event: $(grep inject "$T/events")"

# The timing: each key its own event in the capture, between the markers.
cap=$(ls "$T"/state/captures/round01-*.cast | xargs grep -l '"inject start E1' | head -1)
[ -n "$cap" ] || fail "no capture with the inject markers"
jq -r 'select(type == "array") | "\(.[0])\t\(.[1])\t\(.[2] | @json)"' "$cap" |
    awk -F '\t' '$2 == "m" && $3 ~ /^"inject start/ { on = 1; next }
	$2 == "m" && $3 ~ /^"inject done/ { on = 0 }
	on && $2 == "o" { print $1 "\t" $3 }' >"$T/keys"
[ "$(wc -l <"$T/keys")" -eq 42 ] ||
	fail "the 42 keys are not 42 events: $(cat "$T/keys")"
[ "$(awk -F '\t' '{ printf "%s", substr($2, 2, length($2) - 2) }' "$T/keys")" = 'Hello, my name is Ada and I am the human\r\n' ] ||
	fail "the injected keys differ: $(cat "$T/keys")"
# 20+-10 ms a key: no gap under 10 ms (no burst; less 4 ms, the loop's
# timers having the coarse clock's resolution), longer after the comma
# (3 times the base at least), a median near the base.
awk 'NR > 1 { g = ($1 - t) * 1000; print g } { t = $1 }' "$T/keys" >"$T/gaps"
awk '$1 < 6 { bad = 1 } END { exit bad }' "$T/gaps" ||
	fail "a key came less than 6 ms after the last: $(tr '\n' ' ' <"$T/gaps")"
comma=$(awk 'NR == 6 { print $1 }' "$T/gaps")
awk -v g="$comma" 'BEGIN { exit !(g >= 45) }' ||
	fail "no pause after the comma ($comma ms): $(tr '\n' ' ' <"$T/gaps")"
median=$(sort -n "$T/gaps" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
awk -v m="$median" 'BEGIN { exit !(m >= 10 && m <= 60) }' ||
	fail "median gap $median ms is not near 20 ms"
mctl round stop >/dev/null
grep -q 'PASS character E1: .* 0 bursts' "$T/state/compliance.txt" ||
	fail "the injected keys counted as bursts: $(cat "$T/state/compliance.txt")"
grep -rq 'Hello, my name is Ada and I am the human' "$T/state/transcripts/E1" ||
	fail "the transcript lacks the injected assertion"

# The pair has its verdict: round 2 types nothing for E1.
round_start 2
J=$(facing E1)
tty "$J" 'drain:100' 'quiet:800' >"$T/j2.out" ||
	fail "the assertion was injected twice: $(cat "$T/j2.out")"
echo ok
