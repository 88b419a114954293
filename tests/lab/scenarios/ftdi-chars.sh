# The libftdi path: muxd opens an FTDI adapter by its USB serial number
# (ftdi:SERIAL, ftdi_sio detached), forwards byte by byte both ways and in
# bulk to a 16550, with QEMU's adapter sending no idle status bytes and
# without spinning while idle; when muxd lets go, ftdi_sio gets the
# adapter back.
. tests/lab/lib.sh

uart s1
ftdi u1 LAB0001
ftdi u2 LAB0002
boot
S=$(gdev s1)
# muxd -nn finds a plugged-in adapter by serial number without taking it,
# and names the port of one that is not there.
guest "printf 'ports = ( { name = \"a\"; address = \"ftdi:LAB0002\"; } );\\n' >/tmp/ok.conf"
guest "printf 'ports = ( { name = \"b\"; address = \"ftdi:NOSUCH9\"; } );\\n' >/tmp/bad.conf"
guest_ok "muxd -nn -f /tmp/ok.conf 2>&1 | grep -q 'configuration OK'" ||
	fail "muxd -nn did not find adapter LAB0002: $(guest 'muxd -nn -f /tmp/ok.conf 2>&1')"
guest_ok "muxd -nn -f /tmp/bad.conf 2>&1 | grep -q \"/tmp/bad.conf:1: port 'b': ftdi:NOSUCH9: no adapter\"" ||
	fail "muxd -nn missed an absent adapter: $(guest 'muxd -nn -f /tmp/bad.conf 2>&1')"
[ -n "$(gdev u2)" ] || fail "muxd -nn took LAB0002 from ftdi_sio"
guest_muxd "-s /run/muxd/muxd.sock --link ftdi:LAB0002,baud=115200,8N1 $S,115200"
gwait_port link1-a up
gwait_port link1-b up
guest_ok "grep -q 'FTDI adapter LAB0002.*latency 1 ms' /tmp/muxd.log"  # as read back from the chip
[ -z "$(gdev u2)" ] || fail "ftdi_sio still has LAB0002 while muxd holds it"
[ -n "$(gdev u1)" ] || fail "the other adapter lost its tty"

# Idle for a while first: nothing may depend on status bytes, and an
# idle muxd must not spin (CPU ticks over two seconds, at 100 a second).
ticks() { guest 'set -- $(cat /proc/$(cat /tmp/muxd.pid)/stat); echo $(($14 + $15))'; }
t0=$(ticks)
sleep 2
t1=$(ticks)
echo "muxd idle: $((t1 - t0)) CPU ticks in 2 s"
[ $((t1 - t0)) -le 5 ] || fail "muxd used $((t1 - t0)) ticks of CPU in 2 s idle: busy polling?"
"$TOOLS/typer" "$T/u2" "$T/s1" 'Hello?\r\rIs it you\x08\x7f\x00\xff\xe9\r\n' ||
	fail "adapter to UART: not delivered byte by byte"
"$TOOLS/typer" "$T/s1" "$T/u2" 'Hello, my name is Ada and I am the human\r\n' ||
	fail "UART to adapter: not delivered byte by byte"
"$TOOLS/xfer" -n 20000 -t 60 "$T/u2=$T/s1" ||
	fail "bulk transfer through libftdi lost or changed bytes"
[ "$(gport_field link1-a state)" = up ] || fail "the adapter's port is not up"
guest_ok "kill \$(cat /tmp/muxd.pid)"
guest_wait "[ -n \"\$(ls /sys/bus/usb-serial/devices | grep -c .)\" ] &&
    [ \$(ls /sys/bus/usb-serial/devices | wc -l) = 2 ]" 10 ||
	fail "ftdi_sio did not get LAB0002 back after muxd stopped"
shutdown_guest
echo ok
