# udevd in the guest with the project's rules: 60-muxd.rules sets the
# FTDI latency timer to 1 ms and tags the adapters, and the rules
# muxd-udev writes from a room's configuration make stable names by
# serial number and give the room's lines (and theirs alone: a spare
# adapter keeps its group) to group muxd, kept from ModemManager.  muxd runs on a stable
# name; both adapters are unplugged and plugged back in the other order,
# so the ttyUSB numbers swap: muxd reopens the same adapter under its name
# and delivers what the other side typed meanwhile.
. tests/lab/lib.sh

mkdir -p "$T/rules.d" "$T/conf"
cat >"$T/conf/room.conf" <<EOC
ports = (
  { name = "j1-left"; address = "/dev/muxd/j1-left,serial=LAB0001,115200"; },
  { name = "e1"; address = "/dev/muxd/e1,serial=LAB0002,115200"; },
  { name = "c1"; address = "ftdi:LAB0003"; },
  { name = "c2"; address = "tcp-listen:7000"; }
);
EOC
"$ROOT/$B/udev/muxd-udev" -f "$T/conf/room.conf" -o "$T/rules.d/62-muxd-room.rules" ||
	fail "muxd-udev could not write the room's rules"
grep -q 'ATTRS{serial}=="LAB0001".*SYMLINK+="muxd/j1-left"' "$T/rules.d/62-muxd-room.rules" ||
	fail "no rule for j1-left in $(cat "$T/rules.d/62-muxd-room.rules")"

uart s1
ftdi u1 LAB0001
ftdi u2 LAB0002
ftdi u3 LAB0003
ftdi u4 SPARE04
UDEV=1
boot
S=$(gdev s1)
U1=$(gdev u1)
[ "$(guest 'readlink -f /dev/muxd/j1-left')" = "$U1" ] ||
	fail "/dev/muxd/j1-left is not $U1: $(guest 'ls -l /dev/muxd/ 2>&1')"
[ "$(guest 'readlink -f /dev/muxd/e1')" = "$(gdev u2)" ] ||
	fail "/dev/muxd/e1 is not the adapter LAB0002"
[ "$(guest 'readlink -f /dev/muxd/c1')" = "$(gdev u3)" ] ||
	fail "/dev/muxd/c1 is not the adapter LAB0003"
guest_ok 'ls /dev/serial/by-id/ | grep -q LAB0001'
SPARE=$(gdev u4)
for t in $(guest 'ls /sys/bus/usb-serial/devices'); do
	[ "$(guest "cat /sys/bus/usb-serial/devices/$t/latency_timer")" = 1 ] ||
		fail "$t: latency_timer is not 1 ms"
	if [ "/dev/$t" = "$SPARE" ]; then
		[ "$(guest "stat -c '%G' /dev/$t")" != muxd ] ||
			fail "the spare adapter $t was given to group muxd"
		guest "udevadm info -q property /dev/$t" | grep -q '^ID_MM_DEVICE_IGNORE=1' &&
			fail "the spare adapter $t is kept from ModemManager"
		continue
	fi
	[ "$(guest "stat -c '%G %a' /dev/$t")" = "muxd 660" ] ||
		fail "/dev/$t is not group muxd, mode 660: $(guest "ls -l /dev/$t")"
	guest "udevadm info -q property /dev/$t" | grep -q '^ID_MM_DEVICE_IGNORE=1' ||
		fail "/dev/$t is not kept from ModemManager"
done
# The USB device of the ftdi: line is muxd's too (libftdi opens it), and
# only that one.
guest_ok 'for d in /sys/bus/usb/devices/*; do
	[ "$(cat $d/idVendor 2>/dev/null)" = 0403 ] || continue
	n=$(printf "/dev/bus/usb/%03d/%03d" $(cat $d/busnum) $(cat $d/devnum))
	g=$(stat -c "%G %a" $n)
	if [ "$(cat $d/serial)" = LAB0003 ]; then
		[ "$g" = "muxd 660" ] || { ls -l $n; exit 1; }
	else
		[ "${g%% *}" != muxd ] || { ls -l $n; exit 1; }
	fi
done'

guest_muxd "-s /run/muxd/muxd.sock --link /dev/muxd/j1-left,115200 $S,115200"
gwait_port link1-a up
gwait_port link1-b up
"$TOOLS/typer" -q "$T/u1" "$T/s1" 'Judge: hello?\r' || fail "judge to entity"
"$TOOLS/typer" -q "$T/s1" "$T/u1" 'Entity: hi\r\n' || fail "entity to judge"

usb_unplug u1
usb_unplug u2
gwait_port link1-a down
guest_wait '[ ! -e /dev/muxd/j1-left ]' 5 || fail "/dev/muxd/j1-left outlived its adapter"
tty "$T/s1" send:'typed while it was out\r\n' || fail "cannot type on the surviving side"
# The kernel frees a tty number only once the last user of its tty has
# gone (muxd closes it on the end of file it reads, and the tty's release
# is finished later); until then LAB0002 comes back under its own number.
# It is plugged again until it takes LAB0001's.
n=1
while :; do
	usb_plug u2
	guest_wait '[ -e /dev/muxd/e1 ]' 10 || fail "LAB0002 did not come back"
	[ "$(guest 'readlink -f /dev/muxd/e1')" = "$U1" ] && break
	[ $n -lt 5 ] || fail "LAB0002 came back $n times as $(guest 'readlink -f /dev/muxd/e1'), never as $U1: the ttys cannot be swapped"
	n=$((n + 1))
	echo "LAB0002 came back on its own number; plugging it in again" >&2
	usb_unplug u2
	guest_wait '[ ! -e /dev/muxd/e1 ]' 5 || fail "/dev/muxd/e1 outlived its adapter"
	sleep 0.5
done
usb_plug u1
guest_wait '[ -e /dev/muxd/j1-left ]' 10 || fail "LAB0001 did not come back"
U1b=$(guest 'readlink -f /dev/muxd/j1-left')
[ "$U1b" != "$U1" ] || fail "the ttys did not swap ($U1b both times): the test proves nothing"
[ "$U1b" = "$(gdev u1)" ] || fail "/dev/muxd/j1-left is $U1b, not the adapter LAB0001"
gwait_port link1-a up 20
tty "$T/u1" expect:'typed while it was out\r\n' quiet:300 ||
	fail "what was typed during the outage did not arrive"
"$TOOLS/typer" -q "$T/u1" "$T/s1" 'Judge: still there?\r' || fail "judge to entity after"
[ "$(guest "cat /sys/bus/usb-serial/devices/${U1b#/dev/}/latency_timer")" = 1 ] ||
	fail "the replugged adapter's latency_timer is not 1 ms"
shutdown_guest
echo ok
