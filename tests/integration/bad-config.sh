# Bad configurations are refused with FILE:LINE: what is wrong, by -n and
# at start-up; a device that is missing or busy at run time is reported
# and retried while the rest of the room works.
. tests/integration/lib.sh

cable busy
cable ok1
cable ok2

# expect_bad "expected message" [probe] < config text
# (probe: only -nn fails, -n checks no hardware; the daemon starts and
# retries the device)
expect_bad() {
	cat >"$T/bad.conf"
	n=-n
	if [ "${2:-}" = probe ]; then
		"$MUXD" -n -f "$T/bad.conf" >"$T/out" 2>&1 ||
			fail "-n opened a device ($1): $(cat "$T/out")"
		n=-nn
	fi
	if "$MUXD" $n -f "$T/bad.conf" >"$T/out" 2>&1; then
		fail "accepted a bad configuration ($1)"
	fi
	grep -qF "$T/bad.conf:$1" "$T/out" || fail "expected '$T/bad.conf:$1', got: $(cat "$T/out")"
	[ "${2:-}" = probe ] && return
	# The daemon refuses it the same way, and exits.
	"$MUXD" -s "$T/bad.sock" -f "$T/bad.conf" >"$T/out2" 2>&1 && fail "muxd started with a bad configuration"
	grep -qF "$T/bad.conf:$1" "$T/out2" || fail "start-up error differs: $(cat "$T/out2")"
}

expect_bad "2: port 'a': unknown address scheme in 'serial-ish:/dev/x'" <<EOC
ports = (
  { name = "a"; address = "serial-ish:/dev/x"; }
);
EOC
expect_bad "3: port 'b': impossible baud rate '12345'" <<EOC
ports = (
  { name = "a"; address = "$T/ok1.dev"; },
  { name = "b"; address = "$T/ok2.dev,baud=12345"; }
);
EOC
expect_bad "1: port 'a': $T/gone.dev: No such file or directory" probe <<EOC
ports = ( { name = "a"; address = "$T/gone.dev"; } );
EOC
expect_bad "2: syntax error" <<EOC
ports = ( { name = "a"; address = "$T/ok1.dev"; }
stations = ( );
EOC
expect_bad "1: port 'a': bad TCP port '99999'" <<EOC
ports = ( { name = "a"; address = "tcp:localhost:99999"; } );
EOC

# -n names every error of a room, each with its line, and counts them;
# muxd itself stops at the first.
cat >"$T/bad3.conf" <<EOC
queue_limit = 3;
ports = (
  { name = "a"; address = "serial-ish:/dev/x"; },
  { name = "b"; address = "$T/ok1.dev,baud=12345"; },
  { name = "c"; address = "$T/ok2.dev"; }
);
stations = ( { name = "J1"; judge = 1; left = "c"; right = "zz"; } );
entities = ( { name = "E1"; kind = "bot"; port = "b"; approved = "Ada"; } );
EOC
"$MUXD" -n -f "$T/bad3.conf" >"$T/out" 2>&1 && fail "-n accepted a room with five errors"
for want in "bad3.conf:1: setting 'queue_limit'" "bad3.conf:3: port 'a': unknown address scheme" \
    "bad3.conf:4: port 'b': impossible baud rate" "bad3.conf:7: station 'J1': unknown port 'zz'" \
    "bad3.conf:8: entity 'E1': kind 'bot'" "muxd: 5 errors"; do
	grep -qF "$want" "$T/out" || fail "-n does not say '$want': $(cat "$T/out")"
done
"$MUXD" -s "$T/bad.sock" -f "$T/bad3.conf" >"$T/out" 2>&1 && fail "muxd started with five errors"
[ "$(grep -c 'bad3.conf:' "$T/out")" = 1 ] || fail "muxd did not stop at the first error: $(cat "$T/out")"

# A device another program holds is busy, by -nn (-n checks no hardware).
bg flock -o "$T/busy.dev" sleep 60
wait_for "grep -q 'busy.dev' /proc/locks 2>/dev/null || lslocks 2>/dev/null | grep -q flock" 2
sleep 0.3
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "held"; address = "$T/busy.dev"; },
  { name = "x"; address = "$T/ok1.dev"; },
  { name = "y"; address = "$T/ok2.dev"; }
);
EOC
"$MUXD" -n -f "$T/room.conf" >"$T/out" 2>&1 || fail "-n opened the devices: $(cat "$T/out")"
"$MUXD" -nn -f "$T/room.conf" >"$T/out" 2>&1 && fail "-nn accepted a busy device"
grep -q "room.conf:3: port 'held': .*busy.dev (.*) is busy" "$T/out" || fail "busy device not named: $(cat "$T/out")"
# Away from its hardware, a room checks: the shipped examples do.
for ex in "$ROOT"/contrib/examples/*.conf; do
	"$MUXD" -n -f "$ex" >"$T/out" 2>&1 || fail "-n refused $ex without its hardware: $(cat "$T/out")"
	"$MUXD" -nn -f "$ex" >/dev/null 2>&1 && fail "-nn found the devices of $ex on this host"
done

# At run time the busy line is reported down and retried; the others work.
muxd_start -f "$T/room.conf"
wait_port x up
[ "$(port_field held state)" = down ] || fail "a busy device was opened"
port_field held error | grep -q 'is busy' || fail "status does not say why: $(port_field held error)"
mctl connect x y >/dev/null || fail "connect failed"
"$TOOLS/typer" -q "$T/ok1" "$T/ok2" 'room works\r' || fail "the room stopped for one busy line"
kill "$LAST_PID"
wait_port held up 15
echo ok
