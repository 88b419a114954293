# The 1996 terminal convention on every judge terminal: muxd prompts with
# ">" and echoes each keystroke; the entity gets the keystrokes alone, line
# ends normalised to its choice whatever the terminal sends (CR, LF, CRLF,
# LFCR); "@@nn" announces the judge to an entity that wants it, and a judge
# typing "@@nn" is recorded, and alerted when it is not the schedule's.
. tests/integration/lib.sh

ENTRY='eol = "crlf"; announce = true;' room1
muxd_start -f "$T/room.conf"
watch_events
round_start 1
J=$(facing E1)
H=$(facing C1)

tty "$T/e1" 'expect:@@07\r\n\r\n' >/dev/null || fail "E1 was not announced judge 07"
tty "$T/c1" 'quiet:200' >/dev/null || fail "C1, which did not ask, was announced the judge"
tty "$J" 'expect:>' >/dev/null || fail "no prompt at the start of the round"

# Echo and prompt on the judge's screen; keystrokes alone to the entity.
tty "$J" 'type:Hi\x08\x08Hello\r\nthere\n\rok\r\r' 'expect:Hi\x08 \x08\x08 \x08Hello\r\n>there\r\n>ok\r\n' >/dev/null ||
	fail "the judge's screen does not show prompt and echo"
tty "$T/e1" 'expect:Hi\x08\x08Hello\r\nthere\r\nok\r\n\r\n' 'quiet:200' >"$T/e1.out" ||
	fail "the entity did not get the keystrokes with CRLF line ends: $(cat "$T/e1.out")"
# The confederate's side keeps CR (the default), and LF alone counts too.
tty "$H" 'type:a\nb\n\n' >/dev/null
tty "$T/c1" 'expect:a\rb\r\r' 'quiet:200' >"$T/c1.out" || fail "LF line ends not made CR: $(cat "$T/c1.out")"

# The entity answers; the judge's next keystroke gets a fresh prompt.
tty "$T/e1" 'send:Nice to meet you.' >/dev/null
tty "$J" 'expect:Nice to meet you.' 'type:x' 'expect:\r\n>x' >/dev/null ||
	fail "no fresh prompt after the entity's answer"

# A judge typing @@03 at judge 07's station.
tty "$J" 'type:\r\r@@03\r\r' >/dev/null
tty "$T/e1" 'expect:@@03\r\n' >/dev/null || fail "@@03 not passed to the entity"
wait_for "grep -q '\"event\":\"judge.mismatch\"' '$T/events'" 5 || fail "no judge.mismatch alert"
mctl round stop >/dev/null
cap=$(ls "$T"/state/captures/round01-J1-*.cast | head -1)
grep -h '"m", "judge 03 typed"' "$T"/state/captures/round01-J1-*.cast >/dev/null ||
	fail "no judge marker in the capture"
grep -q '^\*\*\* JUDGE03 \*\*\*' "$T"/state/transcripts/E1/LP*.TXT ||
	fail "the transcript does not show the judge change: $(cat "$T"/state/transcripts/E1/LP*.TXT)"

# A terminal that echoes by itself gets the prompt but no echo.
muxd_stop
STATION='localecho = true;' room1
muxd_start -f "$T/room.conf"
round_start 2
J=$(facing E1)
tty "$J" 'expect:>' 'type:abc' 'quiet:300' >"$T/le" || fail "echo despite localecho: $(cat "$T/le")"
echo ok
