# muxd forwards byte by byte through real tty drivers, the libserialport
# path: an FTDI adapter (/dev/ttyUSB*, ftdi_sio) linked to a PCI 16550
# (/dev/ttyS*, 8250), both ways, then in bulk with every byte value.
. tests/lab/lib.sh

uart s1
ftdi u1 LAB0001
boot
U=$(gdev u1)
S=$(gdev s1)
[ -n "$U" ] || fail "no ttyUSB for adapter LAB0001"
guest_muxd "-s /run/muxd/muxd.sock --link $U,115200,8N1 $S,115200,8N1"
gwait_port link1-a up
gwait_port link1-b up
guest_ok "grep -q 'port link1-a: up' /tmp/muxd.log"

"$TOOLS/typer" "$T/u1" "$T/s1" 'Hello?\r\rIs it you\x08\x7f\x00\xff\xe9\r\n' ||
	fail "adapter to UART: not delivered byte by byte"
"$TOOLS/typer" "$T/s1" "$T/u1" 'Hello, my name is Ada and I am the human\r\n' ||
	fail "UART to adapter: not delivered byte by byte"
"$TOOLS/xfer" -n 20000 -t 60 "$T/u1=$T/s1" ||
	fail "bulk transfer through the tty drivers lost or changed bytes"
[ "$(gport_field link1-a bytes_in)" -ge 20000 ] ||
	fail "status counts too few bytes in on the adapter"
shutdown_guest
echo ok
