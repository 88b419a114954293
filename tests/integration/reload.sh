# SIGHUP reloads the configuration: unchanged ports keep their live links
# and queued bytes; a new port appears; a changed port is reopened and
# relinked into the running round; a broken file is refused and the old
# configuration kept.
. tests/integration/lib.sh

for c in j1l j1r e1 c1 c1b x; do cable $c; done
write_room() {
	cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "j1l"; address = "$T/j1l.dev"; },
  { name = "j1r"; address = "$T/j1r.dev"; },
  { name = "e1"; address = "$T/e1.dev"; },
  { name = "c1"; address = "$T/$1.dev"; }$2
);
stations = ( { name = "J1"; judge = 1; left = "j1l"; right = "j1r"; } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); } ); seed = 1; };
EOC
}
write_room c1 ""
muxd_start -f "$T/room.conf"
round_start 1
el=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .a')
since=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .since')

# The entry's line is away with bytes queued for it when the reload comes.
unplug e1
wait_port e1 down
tty "$T/$el" 'send:queued across the reload\r\r' >/dev/null
wait_for "[ \"\$(port_field e1 queued)\" = 26 ]" 5 || fail "bytes not queued for e1"

write_room c1 ',
  { name = "x"; address = "'"$T"'/x.dev"; }'
kill -HUP "$MUXD_PID"
wait_for "grep -q 'reloaded' '$T/muxd.log'" 5 || fail "no reload logged"
wait_port x up
[ "$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .since')" = "$since" ] ||
	fail "an unchanged link was remade by the reload"
cable e1
wait_port e1 up 15
tty "$T/e1" 'expect:queued across the reload\r\r' >/dev/null || fail "queued bytes lost in the reload"

# The confederate moves to another cable: reopened and relinked.
cl=$(mctl -j status | jq -r '.links[] | select(.entity == "C1") | .a')
write_room c1b ',
  { name = "x"; address = "'"$T"'/x.dev"; }'
kill -HUP "$MUXD_PID"
wait_for "[ \"\$(port_field c1 address | cut -d, -f1)\" = '$T/c1b.dev' ]" 5 || fail "c1 not moved"
wait_port c1 up
tty "$T/$cl" 'send:to the new cable\r' >/dev/null
tty "$T/c1b" 'expect:to the new cable' >/dev/null || fail "C1 not relinked on its new cable"

# A broken file changes nothing.
echo 'ports = ( {' >"$T/room.conf"
kill -HUP "$MUXD_PID"
wait_for "grep -q 'reload: .*room.conf:.*keeping the configuration' '$T/muxd.log'" 5 ||
	fail "a broken reload was not reported with file and line"
[ "$(mctl -j status | jq '.links | length')" = 2 ] || fail "a broken reload changed the links"
kill -0 "$MUXD_PID" || fail "muxd died on a broken reload"

# An include of a directory: libconfig alone would end the process.
mkdir "$T/rooms"
printf 'ports = ( { name = "a"; address = "/dev/a"; } );\n@include "rooms"\n' >"$T/room.conf"
kill -HUP "$MUXD_PID"
wait_for "grep -q 'reload: .*room.conf:2: @include \"rooms\": a directory' '$T/muxd.log'" 5 ||
	fail "an include of a directory was not reported with file and line"
kill -0 "$MUXD_PID" || fail "muxd died on an include of a directory"
[ "$(mctl -j status | jq '.links | length')" = 2 ] || fail "a refused reload changed the links"
echo ok
