# muxd -n reports every error of a room at once, each at FILE:LINE: a
# syntax error in an included file (libconfig's message, its line and
# text), a duplicate, a bad address, an unknown entity, a bad setting;
# what refers to a part in error is not reported again.  -nn adds every
# line that is missing or busy, the lines of a room with errors too (16
# missing devices: 16 lines).  A listener on loopback that the room's
# other machines cannot reach gets a warning, and the room still checks.
. tests/integration/lib.sh

# The messages of a check, in $T/out; fails unless each is there.
want() {
	for w in "$@"; do
		grep -qxF "$w" "$T/out" || fail "no line '$w' in: $(cat "$T/out")"
	done
}

cat >"$T/rules.inc" <<EOC
rules = {
	assertion = "check";
	burst = ;
};
EOC
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
@include "rules.inc"
queue_limit = 3;
ports = (
	{ name = "j1-left";  address = "$T/j1-left.dev"; },
	{ name = "j1-left";  address = "$T/j1-right.dev"; },
	{ name = "j1-right"; address = "$T/j1-right.dev,baud=1234"; },
	{ name = "e1";       address = "$T/e1.dev"; },
	{ name = "c1";       address = "$T/c1.dev"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1-left"; right = "j1-right"; } );
entities = (
	{ name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; },
	{ name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; }
);
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E9", "C1") ); } ); };
EOC
"$MUXD" -n -f "$T/room.conf" >"$T/out" 2>&1 && fail "-n accepted a room with five errors"
want "$T/rules.inc:3: syntax error at \"burst = ;\"; not read: @include \"rules.inc\"" \
    "$T/room.conf:3: setting 'queue_limit' must be between 256 and 16777216 bytes" \
    "$T/room.conf:6: duplicate port name 'j1-left' (first at line 5)" \
    "$T/room.conf:7: port 'j1-right': impossible baud rate '1234' (a standard rate from 50 to 4000000)" \
    "$T/room.conf:16: round 1: unknown entry 'E9'" \
    "muxd: 5 errors"
# Station J1 holds the port in error, round 1 names J1: no echo of either.
[ "$(wc -l <"$T/out")" = 6 ] || fail "-n said more than the five errors: $(cat "$T/out")"
# -nn: the same, and every device of the lines read that is missing.
"$MUXD" -nn -f "$T/room.conf" >"$T/out" 2>&1 && fail "-nn accepted it"
want "$T/room.conf:16: round 1: unknown entry 'E9'" \
    "$T/room.conf:5: port 'j1-left': $T/j1-left.dev: No such file or directory" \
    "$T/room.conf:8: port 'e1': $T/e1.dev: No such file or directory" \
    "$T/room.conf:9: port 'c1': $T/c1.dev: No such file or directory" \
    "muxd: 8 errors"
# The daemon itself stops at the first, the syntax error.
"$MUXD" -s "$T/x.sock" -f "$T/room.conf" >"$T/out" 2>&1 && fail "muxd started with errors"
grep -qF "rules.inc:3: syntax error at \"burst = ;\"" "$T/out" || fail "start-up: $(cat "$T/out")"

# A syntax error in the file itself: the setting it is in is left out,
# the others checked.
cat >"$T/syntax.conf" <<EOC
ports = ( { name = "a"; address = "$T/a.dev"; },
	{ name = "b"; address = "$T/b.dev"; }
stations = ( { name = "J1"; judge = 1; left = "a"; right = "b"; } );
sync = 0;
EOC
"$MUXD" -n -f "$T/syntax.conf" >"$T/out" 2>&1 && fail "-n accepted a syntax error"
grep -q "^$T/syntax.conf:3: syntax error at \"stations = .*\"; not read: 'ports', 'stations'\$" "$T/out" ||
	fail "syntax error not named: $(cat "$T/out")"
want "$T/syntax.conf:4: setting 'sync' must be between 1 and 60 seconds" "muxd: 2 errors"

# -nn: 16 missing devices, 16 lines, each at its line.
{
	echo "control = \"$SOCK\"; state = \"$T/state\";"
	echo "ports = ("
	i=1
	while [ $i -le 16 ]; do
		sep=,; [ $i = 16 ] && sep=
		echo "	{ name = \"p$i\"; address = \"$T/gone$i.dev\"; }$sep"
		i=$((i + 1))
	done
	echo ");"
} >"$T/sixteen.conf"
"$MUXD" -n -f "$T/sixteen.conf" >/dev/null 2>&1 || fail "-n opened the devices"
"$MUXD" -nn -f "$T/sixteen.conf" >"$T/out" 2>&1 && fail "-nn accepted 16 missing devices"
[ "$(grep -c "^$T/sixteen.conf:[0-9]*: port 'p[0-9]*': $T/gone[0-9]*.dev: No such file or directory\$" "$T/out")" = 16 ] ||
	fail "-nn did not name the 16 missing devices: $(cat "$T/out")"
want "$T/sixteen.conf:3: port 'p1': $T/gone1.dev: No such file or directory" \
    "$T/sixteen.conf:18: port 'p16': $T/gone16.dev: No such file or directory" \
    "muxd: 16 errors"

# A confederate on a listener on loopback: a warning, and the room checks.
cat >"$T/loop.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
	{ name = "j1"; address = "pty:$T/j1"; },
	{ name = "j2"; address = "pty:$T/j2"; },
	{ name = "bot"; address = "pty:$T/bot"; },
	{ name = "human"; address = "tcp-listen:7001"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1"; right = "j2"; } );
entities = (
	{ name = "E1"; kind = "entry"; port = "bot"; approved = "Ada"; },
	{ name = "C1"; kind = "confederate"; port = "human"; approved = "Bob"; }
);
EOC
"$MUXD" -n -f "$T/loop.conf" >"$T/out" 2>&1 || fail "-n refused a room for a warning: $(cat "$T/out")"
want "$T/loop.conf:6: warning: port 'human': tcp-listen:7001 listens on loopback only, and confederate 'C1' is at another machine, which cannot connect: write tcp-listen:*:7001,allow=NETWORK" \
    "configuration OK"
sed -i 's/tcp-listen:7001/tcp-listen:*:7001,allow=192.0.2.0\/24/' "$T/loop.conf"
"$MUXD" -n -f "$T/loop.conf" >"$T/out" 2>&1 || fail "-n refused the room: $(cat "$T/out")"
grep -q warning "$T/out" && fail "a listener on the network was warned about: $(cat "$T/out")"
# The shipped examples take their confederates from the network.
for ex in "$ROOT"/contrib/examples/*.conf; do
	"$MUXD" -n -f "$ex" >"$T/out" 2>&1 || fail "-n refused $ex: $(cat "$T/out")"
	grep -q warning "$T/out" && fail "$ex: $(cat "$T/out")"
done
echo ok
