# muxd-udev writes the rules of a room's own lines: stable names by USB
# serial number (and interface, for the ttys of a chip of several), a
# /dev/serial/by-path/ name matched as it is, the USB device of an ftdi:
# line; each given to group muxd and kept from ModemManager; a line it
# cannot name is a comment; the lab (udev-names) runs them in udevd.
. tests/integration/lib.sh

cat >"$T/room.conf" <<EOC
ports = (
  { name = "j1-left"; address = "/dev/muxd/j1-left,serial=A1B2,9600"; },
  { name = "j1-right"; address = "/dev/muxd/j1-right,serial=Q4X,interface=C"; },
  { name = "e1"; address = "/dev/serial/by-path/pci-0000:00:14.0-usb-0:3:1.0-port0"; },
  { name = "c1"; address = "ftdi:LAB3,usb=0403:6011,interface=B"; },
  { name = "c2"; address = "/dev/ttyS0"; }
);
EOC
"$ROOT/$B/udev/muxd-udev" -f "$T/room.conf" -o "$T/62.rules" 2>"$T/err" ||
	fail "muxd-udev failed: $(cat "$T/err")"
R=$T/62.rules
room='ENV{MUXD_ROOM}="1", ENV{ID_MM_DEVICE_IGNORE}="1", GROUP="muxd", MODE="0660"$'
want() { grep -q "$1.*$room" "$R" || fail "no rule $2: $(cat "$R")"; }
want 'ATTRS{serial}=="A1B2", SYMLINK+="muxd/j1-left", ENV{MUXD_PORT}="j1-left"' "naming j1-left"
want 'ATTRS{serial}=="Q4X", ENV{ID_USB_INTERFACE_NUM}=="02", SYMLINK+="muxd/j1-right"' "for interface C of Q4X"
want 'SYMLINK=="serial/by-path/pci-0000:00:14.0-usb-0:3:1.0-port0", ENV{MUXD_PORT}="e1"' "matching e1's by-path name"
want 'ATTRS{serial}=="LAB3", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6011", ENV{ID_USB_INTERFACE_NUM}=="01", SYMLINK+="muxd/c1"' "for c1's tty"
want 'SUBSYSTEM=="usb", ENV{DEVTYPE}=="usb_device", ATTR{serial}=="LAB3", ATTR{idVendor}=="0403", ATTR{idProduct}=="6011"' "for c1's USB device"
grep -q '^# port c2 (/dev/ttyS0): no USB serial number' "$R" || fail "c2 is not a comment: $(cat "$R")"
[ "$(grep -c 'GROUP="muxd"' "$R")" = 5 ] || fail "not five lines given to group muxd: $(cat "$R")"
grep -q 'GROUP=' "$ROOT/udev/60-muxd.rules" "$ROOT/udev/63-muxd-spare.rules" &&
	fail "the shipped rules give adapters that are no line of a room a group"
# Every rules file the tree names is shipped in udev/, or is the room's,
# which muxd-udev writes (a renamed file leaves no stale name behind,
# in a message users see least of all).
grep -rhoE '[0-9][0-9]-muxd[-a-z]*\.rules' "$ROOT" --exclude-dir=.git \
    --exclude-dir="$(basename "$B")" | sort -u >"$T/named"
while read -r f; do
	[ "$f" = 62-muxd-room.rules ] || [ -f "$ROOT/udev/$f" ] ||
		fail "$f is named but not in udev/: $(grep -rl "$f" "$ROOT" \
		    --exclude-dir=.git --exclude-dir="$(basename "$B")")"
done <"$T/named"
[ -s "$T/named" ] || fail "no rules file named anywhere"
if ! getent group muxd >/dev/null; then
	grep -q 'warning: there is no group muxd' "$T/err" ||
		fail "no warning that group muxd is missing: $(cat "$T/err")"
fi
echo ok
