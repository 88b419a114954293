# An FTDI adapter opened by serial number (libftdi) is unplugged in
# mid-conversation (QMP device_del) and plugged back (device_add): muxd
# takes the port down, reopens the adapter by its serial number with
# backoff, and delivers everything typed meanwhile on the surviving side.
. tests/lab/lib.sh

uart s1
ftdi u2 LAB0002
boot
S=$(gdev s1)
guest_muxd "-s /run/muxd/muxd.sock --link ftdi:LAB0002,115200 $S,115200"
gwait_port link1-a up
gwait_port link1-b up

"$TOOLS/typer" -q "$T/u2" "$T/s1" 'Judge: hello?\r' ||
	fail "adapter to UART before the unplug"
"$TOOLS/typer" -q "$T/s1" "$T/u2" 'Entity: hi there\r\n' ||
	fail "UART to adapter before the unplug"

unplug u2
gwait_port link1-a down 10
guest_ok "grep -q 'port link1-a: down: ftdi:LAB0002: adapter unplugged' /tmp/muxd.log"
# The entity goes on typing while the adapter is out.
tty "$T/s1" send:'typed while unplugged\r\n' type:'and more, key by key\r\n' ||
	fail "cannot type on the surviving side"
sleep 0.5
[ "$(gport_field link1-a queued)" = 45 ] ||
	fail "muxd holds $(gport_field link1-a queued) bytes for the adapter, not 45"
[ "$(gport_field link1-a state)" = down ] || fail "the adapter's port is not down"
# Start reading before the replug; the pty keeps what arrives anyway.
plug u2
gwait_port link1-a up 20
tty "$T/u2" expect:'typed while unplugged\r\nand more, key by key\r\n' quiet:300 ||
	fail "the bytes typed during the outage did not all arrive, in order"
"$TOOLS/typer" -q "$T/u2" "$T/s1" 'Judge: welcome back\r' ||
	fail "adapter to UART after the replug"
"$TOOLS/typer" -q "$T/s1" "$T/u2" 'Entity: thanks\r\n' ||
	fail "UART to adapter after the replug"
[ "$(gport_field link1-a downs)" = 1 ] || fail "muxd counts $(gport_field link1-a downs) outages, not 1"
[ "$(gport_field link1-a dropped)" = 0 ] || fail "muxd dropped bytes"
shutdown_guest
echo ok
