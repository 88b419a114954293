# A conversation that ends in the middle of a line leaves nothing behind:
# the entity's unfinished line from its last judge is ended before its
# next conversation (and before the "@@nn" announcement, which goes out on
# a clean line), and a judge left in mid-line gets the next prompt on a
# fresh line.
. tests/integration/lib.sh

room <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; }, { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "j2l"; address = "pty:$T/j2l"; }, { name = "j2r"; address = "pty:$T/j2r"; },
  { name = "e1"; address = "pty:$T/e1"; }, { name = "c1"; address = "pty:$T/c1"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1l"; right = "j1r"; },
             { name = "J2"; judge = 2; left = "j2l"; right = "j2r"; } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; announce = true; },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); },
                        { round = 2; pairs = ( ("J2", "E1", "C1") ); } ); seed = 5; };
EOC
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
J=$(facing E1)
tty "$T/e1" 'expect:@@01\r\r' >/dev/null || fail "E1 was not told judge 1"
tty "$J" 'type:half a line' >/dev/null
tty "$T/e1" 'expect:half a line' >/dev/null || fail "E1 did not get the judge's keys"
mctl round stop >/dev/null
round_start 2
tty "$T/e1" 'expect:\r@@02\r\r' "save:$T/e1.bytes" >/dev/null ||
	fail "the unfinished line was not ended before the announcement of judge 2"
grep -q 'half a line@@' "$T/e1.bytes" && fail "the announcement was glued to the last judge's line"
grep -q '"entity line ended for the last judge"' "$T"/state/captures/round02-J2-*.cast ||
	fail "the line end is not marked in the capture"
mctl round stop >/dev/null

# A judge left in mid-line by a link ended by hand: the prompt of the next
# link begins a fresh line.
mctl connect j1l e1 >/dev/null || fail "cannot link j1l and e1"
tty "$T/j1l" 'drain:200' 'type:and so' >/dev/null
mctl disconnect j1l >/dev/null
mctl connect j1l e1 >/dev/null || fail "cannot link j1l and e1 again"
tty "$T/j1l" 'expect:\r\n>' >/dev/null || fail "the new prompt did not begin a fresh line"
echo ok
