# What the judge sees is what the record says: an entity's erase (DEL),
# bare LF and bare CR line ends and a tab reach the judge's terminal in
# the screen's normal form (BS SP BS, CR LF, spaces), so that a terminal
# emulator (libvterm, tests/tools/vtscreen) fed the bytes the judge's
# terminal received shows exactly what "transcripts export --screen" of
# the capture shows, and every line the transcript gives the entity.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

# The entry, copied where the entries' user can run it.
cp "$ROOT/tests/tools/screenbot.sh" "$T/bot"
chmod 755 "$T/bot"
room <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; },
  { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "e1"; address = "exec:$T/bot Mary"; },
  { name = "c1"; address = "pty:$T/c1"; }
);
stations = ( { name = "J1"; judge = 7; left = "j1l"; right = "j1r"; } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "Mary"; eol = "lf"; },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); } ); seed = 5; };
EOC
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
judge=$(facing E1)
TTY_TIMEOUT=10000 tty "$judge" 'type:Hi\r\r' 'expect:the human' \
    'type:More?\r\r' 'expect:line two' 'type:And?\r\r' 'expect:second' \
    'type:Tab?\r\r' 'expect:stop' 'sleep:300' "save:$T/judge.bytes" >"$T/tty.out" ||
	fail "the conversation did not go through: $(cat "$T/tty.out")"
mctl round stop >/dev/null || fail "round stop failed"

"$TOOLS/vtscreen" "$T/judge.bytes" >"$T/judge.screen" || fail "vtscreen failed"
for want in 'Hello, my name is Mary and I am the human' 'line one' 'line two' \
    'first' 'second' 'tab     stop'; do
	grep -qx "$want" "$T/judge.screen" ||
		fail "the judge's screen has no line '$want':
$(cat "$T/judge.screen")"
done

export_screen E1 "$T/export.screen"
diff "$T/export.screen" "$T/judge.screen" >"$T/diff" ||
	fail "the judge's screen differs from export --screen (< export, > judge):
$(cat "$T/diff")"

# Every line the transcript gives the entity is a line of the screen.
tx=$(ls "$T"/state/transcripts/E1/*.TXT | head -1)
sed -n 's/^PROGRAM\[[0-9:]*\]//p' "$tx" >"$T/program.lines"
[ "$(wc -l <"$T/program.lines")" -ge 6 ] || fail "the transcript has too few entity lines: $(cat "$tx")"
while IFS= read -r l; do
	grep -qxF "$l" "$T/judge.screen" ||
		fail "the transcript's line '$l' is not on the judge's screen:
$(cat "$T/judge.screen")"
done <"$T/program.lines"

# The state directory verifies as a whole: state.json is no transcript,
# and compliance.txt is checked against the captures' verdict markers.
# Without the room key (-k), intact is "unverified", 3.
"$ROOT/$B/transcripts/transcripts" verify "$T/state" >"$T/verify" 2>&1
[ $? = 3 ] ||
	fail "verify of the state directory failed: $(cat "$T/verify")"
grep -q 'compliance.txt: ok$' "$T/verify" || fail "verify did not check compliance.txt against the markers: $(cat "$T/verify")"
echo ok
