# A room's character set: with charset "utf-8" an entity's UTF-8 passes
# whole to the judge's screen, the capture's screen (export --screen) and
# the transcript, an erase takes back a whole character, a name with an
# accent makes the opening assertion, and a C1 control written as a code
# point (C2 9B, CSI) is still removed; an invalid sequence is removed and
# reported; what is removed is in neither the export nor the transcript.
# UTF-8 is the default; with iso-8859-1 the bytes 0x80-0x9f of the same
# text are removed as C1 controls.
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

# charset_room ROOM_SETTING ENTITY_SETTING [STATION_SETTING]: E1
# (approved "José") on the pty e1.
charset_room() {
	room <<EOC
control = "$SOCK"; state = "$T/state";
$1
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; },
  { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "e1"; address = "pty:$T/e1"; },
  { name = "c1"; address = "pty:$T/c1"; }
);
stations = ( { name = "J1"; judge = 7; left = "j1l"; right = "j1r"; ${3:-} } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "José"; $2 },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); } ); seed = 5; };
EOC
}

HELLO='Hello, my name is Jos\xc3\xa9 and I am the human.\r\n'
TEXT='don\xe2\x80\x99t \xe2\x80\x94 caf\xc3\xa9\r\n'
C1='A\xc2\x9b31mB\xc2\x85C\r\n'
ERASE='caf\xc3\xa9\x7fe\r\n'
BAD='x\x80y\xc3z\xed\xa0\x80w\r\n'

# utf-8 for the room.

charset_room 'charset = "utf-8";' ''
muxd_start -f "$T/room.conf"
watch_events
round_start 1
J=$(facing E1)
tty "$J" 'drain:200' >/dev/null
tty -d 5 "$T/e1" "type:$HELLO" >/dev/null
wait_for "grep -q 'PASS assertion E1' '$T/state/compliance.txt'" 5 ||
	fail "the assertion with a UTF-8 name did not pass: $(cat "$T/state/compliance.txt" 2>/dev/null)"
tty "$T/e1" "send:$TEXT" "send:$C1" "send:$ERASE" "send:$BAD" >/dev/null
# Then the judge types a character of two bytes, one read each, and
# erases it.
tty -d 20 "$J" 'expect:xyzw\r\n' 'type:caf\xc3\xa9\x7fe\r' 'sleep:300' \
    "save:$T/judge.bytes" >"$T/j.out" 2>&1 ||
	fail "the entity's text did not reach the judge: $(cat "$T/j.out")"
tty "$T/e1" 'expect:caf\xc3\xa9\x7fe\r' >"$T/e.out" ||
	fail "the entity did not get the judge's keystrokes: $(cat "$T/e.out")"
wait_for "grep '\"event\":\"text\"' '$T/events' | grep -q '\"text\":\"é\"'" 5 ||
	fail "the referees did not see the judge's é whole: $(grep '"text"' "$T/events")"
wait_for "grep '\"event\":\"filter\"' '$T/events' | grep -q '\"kind\":\"utf8\"'" 5 ||
	fail "the invalid UTF-8 was not reported: $(grep filter "$T/events")"
grep '"event":"filter"' "$T/events" | grep -q '"kind":"csi"' ||
	fail "C2 9B was not removed as a CSI: $(grep filter "$T/events")"
mctl round stop >/dev/null
grep -q 'character E1: 84 characters' "$T/state/compliance.txt" ||
	fail "characters were not counted once each: $(cat "$T/state/compliance.txt")"

"$TOOLS/vtscreen" "$T/judge.bytes" >"$T/judge.screen" || fail "vtscreen failed"
for want in 'Hello, my name is José and I am the human.' 'don’t — café' \
    'ABC' 'cafe' 'xyzw' '>cafe'; do
	grep -qxF "$want" "$T/judge.screen" ||
		fail "the judge's screen has no line '$want':
$(cat "$T/judge.screen")"
done

export_screen E1 "$T/export.screen"
# The screen of the capture is the judge's: what the filter removed is
# not on it, nor in the transcript.
for want in 'Hello, my name is José and I am the human.' 'don’t — café' \
    'ABC' 'cafe' 'xyzw'; do
	grep -qxF "$want" "$T/export.screen" ||
		fail "export --screen has no line '$want':
$(cat "$T/export.screen")"
done
grep -qF '\x' "$T/export.screen" &&
	fail "export --screen shows removed bytes:
$(cat "$T/export.screen")"

tx=$(ls "$T"/state/transcripts/E1/*.TXT | head -1)
for want in 'Hello, my name is José and I am the human.' 'don’t — café' \
    'ABC' 'cafe' 'xyzw'; do
	grep -q "^PROGRAM\[[0-9:]*\]$want\$" "$tx" ||
		fail "the transcript has no line '$want': $(cat "$tx")"
done
grep -qF '\x' "$tx" && fail "the transcript shows removed bytes: $(cat "$tx")"
"$TX" verify "$cap" >"$T/verify.out" 2>&1
[ $? = 3 ] ||
	fail "the transcript does not verify against the capture: $(cat "$T/verify.out")"

# send_text ROOM_SETTING ENTITY_SETTING EXPECTED [STATION_SETTING]: $TEXT
# from E1 reaches the judge as EXPECTED, in a room (and state) made anew.
send_text() {
	muxd_stop
	rm -rf "$T/state"
	charset_room "$1" "$2" "${4:-}"
	muxd_start -f "$T/room.conf"
	round_start 1
	J=$(facing E1)
	tty "$J" 'drain:200' >/dev/null
	tty "$T/e1" "send:$TEXT" >/dev/null
	tty "$J" "expect:$3" >"$T/j.out" ||
		fail "with charset '$1' '$2': $(cat "$T/j.out")"
	mctl round stop >/dev/null
}

# UTF-8 is the default.
send_text '' '' 'don\xe2\x80\x99t \xe2\x80\x94 caf\xc3\xa9\r\n'
# iso-8859-1: 0x80-0x9f are C1 controls, removed.
send_text 'charset = "iso-8859-1";' '' 'don\xe2t \xe2 caf\xc3\xa9\r\n'
# An entity's setting overrides the room's; the judges' terminals keep
# the room's: the text is converted, what ISO-8859-1 lacks as the nearest
# ASCII, never as mojibake.
send_text 'charset = "iso-8859-1";' 'charset = "utf-8";' \
    "don't - caf\\xe9\\r\\n"
# A station of UTF-8 terminals in such a room gets the UTF-8 as it is.
send_text 'charset = "iso-8859-1";' 'charset = "utf-8";' \
    'don\xe2\x80\x99t \xe2\x80\x94 caf\xc3\xa9\r\n' 'charset = "utf-8";'

# Injected for the entity, the UTF-8 name is typed a character a key.
muxd_stop
rm -rf "$T/state"
charset_room 'charset = "utf-8"; rules = { assertion = "inject"; typing = "0"; };' ''
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
tty "$J" 'expect:Hello, my name is Jos\xc3\xa9 and I am the human\r\n' >"$T/j.out" ||
	fail "the injected assertion did not reach the judge: $(cat "$T/j.out")"
wait_for "grep -q 'PASS assertion E1' '$T/state/compliance.txt'" 5 ||
	fail "the injected assertion did not pass: $(cat "$T/state/compliance.txt" 2>/dev/null)"
mctl round stop >/dev/null
grep -q '"m", "inject done 43 keys"' "$T"/state/captures/round01-J1-*.cast ||
	fail "the injection did not type 43 keys: $(grep -h 'inject done' "$T"/state/captures/*.cast)"
echo ok
