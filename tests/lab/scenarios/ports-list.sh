# Port listing: "muxctl ports" asks muxd, "muxctl ports --local" looks for
# itself.  Every serial port is listed with its driver, USB vendor and
# product, serial number, by-id and /dev/muxd names, and who holds it: a
# tty muxd opened through libserialport, an FTDI chip it holds through
# libftdi (no tty then), a free adapter, a 16550, and a configured
# adapter that is not plugged in.
. tests/lab/lib.sh

uart s1
ftdi u1 LAB0001
ftdi u2 LAB0002
ftdi u3 LAB0003
S=$(gdev s1)
mkdir -p "$T/rules.d" "$T/conf"
cat >"$T/conf/room.conf" <<EOC
control = "/run/muxd/muxd.sock"; state = "/var/lib/muxd";
ports = (
  { name = "j1-left"; address = "/dev/muxd/j1-left,serial=LAB0001,115200"; },
  { name = "c1"; address = "ftdi:LAB0003,115200"; },
  { name = "e1"; address = "/dev/muxd/e1,serial=LAB0009"; },
  { name = "s"; address = "$S,115200"; }
);
EOC
"$ROOT/$B/udev/muxd-udev" -f "$T/conf/room.conf" -o "$T/rules.d/62-muxd-room.rules" ||
	fail "muxd-udev could not write the room's rules"
UDEV=1
boot
U1=$(guest 'readlink -f /dev/muxd/j1-left')
guest_muxd "-f /lab/conf/room.conf"
gwait_port j1-left up
gwait_port c1 up
gwait_port s up

guest 'muxctl -j ports' >"$T/ports.json" || fail "muxctl ports failed"
q() { jq -r "$1" "$T/ports.json"; }
[ "$(q '.ports[] | select(.serial == "LAB0001") | [.device, .driver, .vid, .pid, .port, .port_state] | join(" ")')" = \
    "$U1 ftdi_sio 0403 6001 j1-left up" ] ||
	fail "LAB0001 is not listed as muxd's j1-left on $U1: $(cat "$T/ports.json")"
q '.ports[] | select(.serial == "LAB0001") | .by_id' | grep -q '^/dev/serial/by-id/.*LAB0001' ||
	fail "LAB0001 has no by-id name"
q '.ports[] | select(.serial == "LAB0001") | .by_path' | grep -q '^/dev/serial/by-path/' ||
	fail "LAB0001 has no by-path name"
# What to write into the room's address, for muxd-udev.
[ "$(q '.ports[] | select(.serial == "LAB0002") | .options')" = serial=LAB0002 ] ||
	fail "LAB0002's address options are not serial=LAB0002: $(cat "$T/ports.json")"
q '.ports[] | select(.serial == "LAB0001") | .links[]' | grep -qx /dev/muxd/j1-left ||
	fail "LAB0001 does not show /dev/muxd/j1-left"
[ "$(q '.ports[] | select(.serial == "LAB0003") | [.device // "none", .driver, .port, .ftdi] | join(" ")')" = \
    "none usbfs c1 ftdi:LAB0003,usb=0403:6001" ] ||
	fail "LAB0003 is not listed as held by muxd's c1 through libftdi"
[ "$(q '.ports[] | select(.serial == "LAB0002") | [.driver, .port // "free"] | join(" ")')" = "ftdi_sio free" ] ||
	fail "LAB0002 is not listed as a free adapter"
[ "$(q '.ports[] | select(.port == "e1") | .present')" = false ] ||
	fail "the missing adapter of e1 is not listed as missing"
[ "$(q ".ports[] | select(.device == \"$S\") | [.driver, .transport, .port] | join(\" \")")" = "serial native s" ] ||
	fail "the 16550 $S is not listed as muxd's s"

guest 'muxctl ports' >"$T/ports.txt" || fail "muxctl ports (text) failed"
grep -q "^$U1 .*ftdi_sio.*0403:6001.*LAB0001.*muxd j1-left (up)" "$T/ports.txt" ||
	fail "the text listing lacks j1-left: $(cat "$T/ports.txt")"
grep -q 'muxd e1 (missing)' "$T/ports.txt" || fail "the text listing lacks e1 missing"

guest 'muxctl -j ports --local' >"$T/local.json" || fail "muxctl ports --local failed"
[ "$(jq -r '.ports[] | select(.serial == "LAB0001") | .locked_by.program' "$T/local.json")" = muxd ] ||
	fail "--local does not see muxd's lock on $U1: $(cat "$T/local.json")"
guest 'muxctl ports --local' | grep -q 'LAB0003 .*a libusb program' ||
	fail "--local does not show LAB0003 held through libusb"
shutdown_guest
echo ok
