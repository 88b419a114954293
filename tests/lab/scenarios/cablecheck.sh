# Cable check on real lines: a loopback plug on an adapter's tty
# (/dev/ttyUSB*, libserialport), an FTDI adapter held through libftdi
# cabled to a 16550, and a terminal that only shows the banner.  muxctl
# cablecheck reports which port answered where.
. tests/lab/lib.sh

uart s1
ftdi u1 LAB0001
ftdi u2 LAB0002
ftdi u3 LAB0003
boot
U1=$(gdev u1)
U3=$(gdev u3)
S=$(gdev s1)
guest_ok "cat >/tmp/room.conf <<EOC
control = \"/run/muxd/muxd.sock\"; state = \"/var/lib/muxd\";
ports = (
  { name = \"plug\"; address = \"$U1,115200\"; },
  { name = \"e1\"; address = \"ftdi:LAB0002,115200\"; },
  { name = \"j1\"; address = \"$S,115200\"; },
  { name = \"term\"; address = \"$U3,115200\"; }
);
EOC"
guest_muxd "-f /tmp/room.conf"
for p in plug e1 j1 term; do gwait_port $p up; done
# The loopback plug, and a null-modem cable between LAB0002 and the 16550.
bg socat "$T/u1,raw,echo=0" PIPE
bg socat "$T/u2,raw,echo=0" "$T/s1,raw,echo=0"
sleep 0.3

guest 'muxctl -j cablecheck' >"$T/cc.json" || fail "muxctl cablecheck failed"
r() { jq -r "select(.event == \"cablecheck\") | .results[] | select(.port == \"$1\") | .result + \" \" + (.heard_on | join(\",\"))" "$T/cc.json"; }
[ "$(r plug)" = "loopback plug" ] || fail "plug: '$(r plug)': $(cat "$T/cc.json")"
[ "$(r e1)" = "cabled j1" ] || fail "e1: '$(r e1)', not cabled to j1"
[ "$(r j1)" = "cabled e1" ] || fail "j1: '$(r j1)', not cabled to e1"
[ "$(r term)" = "silent " ] || fail "term: '$(r term)', not silent"
tty "$T/u3" expect:"this line is port term, $U3]" ||
	fail "the terminal on LAB0003 did not show the banner"
guest 'muxctl cablecheck plug term' >"$T/cc.txt" || fail "muxctl cablecheck (text) failed"
grep -q '^plug  *loopback  *plug$' "$T/cc.txt" || fail "text: $(cat "$T/cc.txt")"
shutdown_guest
echo ok
