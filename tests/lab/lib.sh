# Shared helpers for the lab scenarios (POSIX sh, sourced): a qemu guest
# with real tty drivers, emulated FTDI adapters and 16550 UARTs.
#
# A scenario declares its lines, boots, then drives the host end of each
# line while it runs commands in the guest:
#
#	uart s1			a PCI 16550 in the guest; host end $T/s1
#	ftdi u1 LAB0001		an FTDI adapter with that USB serial number,
#				QEMU device id u1; host end $T/u1
#	UDEV=1 boot		start the guest (udevd with the project's rules)
#	guest 'muxd ... &'	a command in the guest: its output, its status
#	usb_unplug u1		QMP device_del; usb_plug u1, device_add
#	gdev u1			the guest's tty of a line (/dev/ttyUSB0)
#	guest_muxd ARGS		muxd in the guest; gwait_port NAME STATE
#
# The guest is tests/lab/init on the kernel and base archive that
# tests/lab/prepare caches in $B/lab, with the project's binaries, their
# libraries, udev/*.rules and $T/rules.d, $T/conf in a second archive.
#
# The host end of each line is a pty that socat joins to QEMU's chardev
# socket, so the line stays connected (QEMU attaches a usb-serial only
# while its chardev is connected) and bytes wait in the pty while no test
# tool has it open.  What every scenario has (its private directory $T,
# processes stopped when it ends, fail, bg, wait_for, tty) comes from the
# integration scenarios' tests/integration/lib.sh; QEMU is one of the
# processes, and the guest's console is $T/console.log.
T_NAME=muxd-lab
FAIL_REPORT=lab_report
. tests/integration/lib.sh
LAB=$ROOT/$B/lab
QEMU_PID=
LAB_UARTS=
LAB_FTDIS=
UDEV=${UDEV:-0}

# Tell what the guest's muxd logged, its kernel and console, and which
# relays have ended (a failure's report).
lab_report() {
	if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
		echo "--- guest muxd log (last 30 lines):" >&2
		"$TOOLS/labcmd" -t 5000 "$T/ctl" 'tail -30 /tmp/muxd.log' >&2
		echo "--- guest kernel (last 12 lines):" >&2
		"$TOOLS/labcmd" -t 5000 "$T/ctl" 'dmesg | tail -12' >&2
	fi
	for _p in $PIDS; do
		[ "$_p" = "$QEMU_PID" ] && continue
		kill -0 "$_p" 2>/dev/null || echo "(relay process $_p has ended)" >&2
	done
	echo "--- guest console (last 20 lines):" >&2
	tail -20 "$T/console.log" >&2 2>/dev/null
}

# Start a relay from a pty at $T/NAME to a unix socket QEMU will connect to.
relay() {
	bg socat "PTY,link=$T/$1,raw,echo=0" "UNIX-LISTEN:$T/$1.sock"
	wait_for "[ -e '$T/$1' ] && [ -S '$T/$1.sock' ]" 5 ||
		fail "socat did not make the relay for $1"
}

# Declare a 16550 UART on the guest's PCI bus, host end $T/NAME.
uart() {
	LAB_UARTS="$LAB_UARTS $1"
}

# Declare an FTDI adapter NAME with USB serial number SERIAL.
ftdi() {
	LAB_FTDIS="$LAB_FTDIS $1:$2"
}

# The device_add arguments of adapter NAME.
ftdi_spec() {
	for _f in $LAB_FTDIS; do
		[ "${_f%%:*}" = "$1" ] || continue
		echo "usb-serial,bus=xhci.0,chardev=c$1,serial=${_f#*:},id=$1"
		return 0
	done
	return 1
}

# Put the project's binaries, rules and scripts in a second archive.
overlay() {
	_r=$T/overlay
	mkdir -p "$_r/lab/bin" "$_r/etc/udev/rules.d" "$_r/lab/conf"
	for _b in muxd/muxd muxctl/muxctl tests/tools/ttyio tests/tools/typer \
	    tests/tools/xfer; do
		[ -x "$ROOT/$B/$_b" ] && cp "$ROOT/$B/$_b" "$_r/lab/bin/"
	done
	# bubblewrap, where muxd looks for it, for the entries' sandboxes;
	# setfattr, to mark a control group delegated as systemd does.
	mkdir -p "$_r/usr/bin"
	for _b in /usr/bin/bwrap /usr/bin/setfattr; do
		[ -x "$_b" ] && cp "$_b" "$_r$_b"
	done
	for _b in "$_r"/lab/bin/* "$_r"/usr/bin/*; do
		ldd "$_b" 2>/dev/null |
		    sed -n 's|.*=> \(/[^ ]*\).*|\1|p;s|^\t\(/[^ ]*\) .*|\1|p' |
		while read -r _lib; do
			[ -e "$_r$_lib" ] && continue
			mkdir -p "$_r$(dirname "$_lib")"
			cp -L "$_lib" "$_r$_lib"
		done
	done
	for _f in "$ROOT"/udev/*.rules; do
		[ -f "$_f" ] && cp "$_f" "$_r/etc/udev/rules.d/"
	done
	[ -d "$T/rules.d" ] && cp "$T"/rules.d/* "$_r/etc/udev/rules.d/"
	[ -d "$T/conf" ] && cp "$T"/conf/* "$_r/lab/conf/"
	cp "$ROOT/tests/lab/init" "$_r/init"
	chmod 755 "$_r/init"
	(cd "$_r" && find . | cpio -o -H newc --quiet) >"$T/overlay.cpio" ||
		fail "cannot pack the overlay"
	cat "$LAB/base.cpio" "$T/overlay.cpio" >"$T/initrd.cpio"
}

# Boot the guest with the declared lines and wait for its control line.
boot() {
	sh "$ROOT/tests/lab/prepare" "$LAB" || exit $?
	[ -x "$TOOLS/labcmd" ] || fail "$TOOLS/labcmd not built (make)"
	overlay
	relay ctl
	_args=
	_pci=
	_k=0
	for _u in $LAB_UARTS; do
		relay "$_u"
		_args="$_args -chardev socket,id=c$_u,path=$T/$_u.sock"
		_k=$((_k + 1))
		_pci="$_pci,chardev$_k=c$_u"
		if [ "$_k" = 4 ]; then
			_args="$_args -device pci-serial-4x$_pci"
			_pci=
			_k=0
		fi
	done
	[ -n "$_pci" ] && _args="$_args -device pci-serial-4x$_pci"
	if [ -n "$LAB_FTDIS" ]; then
		_args="$_args -device qemu-xhci,id=xhci"
		for _f in $LAB_FTDIS; do
			_name=${_f%%:*}
			relay "$_name"
			_args="$_args -chardev socket,id=c$_name,path=$T/$_name.sock"
			_args="$_args -device $(ftdi_spec "$_name")"
		done
	fi
	_cmdline="console=ttyS0 panic=-1 quiet loglevel=3 cryptomgr.notests"
	_cmdline="$_cmdline mitigations=off 8250.nr_uarts=12 lab.udev=$UDEV"
	_cmdline="$_cmdline lab.usb=$(echo $LAB_FTDIS | wc -w)"
	# shellcheck disable=SC2086
	bg qemu-system-x86_64 -nodefaults -no-user-config -display none \
	    -machine pc -smp 1 -m 192 -no-reboot \
	    -kernel "$LAB/kernel/vmlinux" -initrd "$T/initrd.cpio" \
	    -append "$_cmdline" \
	    -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	    -chardev file,id=con,path="$T/console.log" -serial chardev:con \
	    -chardev socket,id=cctl,path="$T/ctl.sock" -serial chardev:cctl \
	    -qmp unix:"$T/qmp.sock",server=on,wait=off \
	    $_args >"$T/qemu.log" 2>&1
	QEMU_PID=$LAST_PID
	_t0=$(date +%s)
	wait_for "grep -q 'lab: ready' '$T/console.log' || ! kill -0 $QEMU_PID" \
	    "${LAB_BOOT_TIMEOUT:-60}"
	grep -q 'lab: ready' "$T/console.log" || {
		cat "$T/qemu.log" >&2
		fail "the guest did not come up within ${LAB_BOOT_TIMEOUT:-60} s"
	}
	echo "guest up in $(( $(date +%s) - _t0 )) s"
}

# Print the guest's device for a line: ttyS4... for the UARTs in the order
# declared, the ttyUSB whose adapter has the serial number for an adapter.
gdev() {
	_i=4
	for _u in $LAB_UARTS; do
		[ "$_u" = "$1" ] && { echo "/dev/ttyS$_i"; return 0; }
		_i=$((_i + 1))
	done
	_s=$(ftdi_spec "$1" | sed 's/.*serial=\([^,]*\).*/\1/')
	[ -n "$_s" ] || fail "no line named $1"
	guest "for d in /sys/class/tty/ttyUSB*; do
	    [ \"\$(cat \$d/device/../../serial 2>/dev/null)\" = '$_s' ] &&
	    echo /dev/\${d##*/}; done"
}

# Run a command in the guest; print its output, return its status.
guest() {
	"$TOOLS/labcmd" -t "${GUEST_TIMEOUT:-30000}" "$T/ctl" "$*"
}

# Run a command in the guest and fail the scenario unless it succeeds.
guest_ok() {
	guest "$@" || fail "in the guest: '$*' failed"
}

# Send QEMU a QMP command (a JSON object) and print the replies.
qmp() {
	printf '{"execute":"qmp_capabilities"}\n%s\n' "$1" |
	    socat -t 1 - "UNIX-CONNECT:$T/qmp.sock"
}

# Unplug adapter NAME (QMP device_del) and wait until QEMU reports it gone.
usb_unplug() {
	qmp "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"$1\"}}" \
	    >"$T/qmp.out" 2>&1
	grep -q '"return"' "$T/qmp.out" || {
		cat "$T/qmp.out" >&2
		fail "device_del $1 refused"
	}
	wait_for "! qmp '{\"execute\":\"qom-list\",\"arguments\":{\"path\":\"/machine/peripheral\"}}' | grep -q '\"name\": \"$1\"'" 10 ||
		fail "QEMU did not remove $1"
}

# Plug adapter NAME back (QMP device_add with its serial number).
usb_plug() {
	_spec=$(ftdi_spec "$1") || fail "no adapter $1"
	_json=$(echo "$_spec" | awk -F, '{
		printf "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"%s\"", $1
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			printf ",\"%s\":\"%s\"", kv[1], kv[2]
		}
		printf "}}"
	}')
	qmp "$_json" >"$T/qmp.out" 2>&1
	grep -q '"return"' "$T/qmp.out" || {
		cat "$T/qmp.out" >&2
		fail "device_add $1 refused"
	}
}

# Wait in the guest until a shell condition holds (default 10 s).
guest_wait() {
	guest "n=\$(( ${2:-10} * 20 )); while [ \$n -gt 0 ]; do
	    { $1 ; } >/dev/null 2>&1 && exit 0; usleep 50000; n=\$((n - 1)); done; exit 1"
}

# Start muxd in the guest with arguments, log in /tmp/muxd.log.
guest_muxd() {
	guest "muxd -v $* >>/tmp/muxd.log 2>&1 & echo \$! >/tmp/muxd.pid" ||
		fail "cannot start muxd in the guest"
	guest_wait "grep -q running /tmp/muxd.log" 10 ||
		fail "muxd did not start in the guest"
}

# Print a field of a port's status in the guest's muxd.
gport_field() {
	guest "muxctl -j -s /run/muxd/muxd.sock status" |
	    jq -r ".ports[] | select(.name == \"$1\") | .$2"
}

# Wait until a port of the guest's muxd is in a state.
gwait_port() {
	wait_for "[ \"\$(gport_field '$1' state)\" = '$2' ]" "${3:-10}" ||
		fail "port $1 not $2 (it is $(gport_field "$1" state))"
}

# End the guest cleanly: QEMU exits with the code the guest wrote.  A
# sanitizer's report in muxd's log fails the scenario first.
shutdown_guest() {
	if guest 'grep -q "Sanitizer\|runtime error:" /tmp/muxd.log 2>/dev/null'; then
		guest 'grep -A30 "Sanitizer\|runtime error:" /tmp/muxd.log | head -60' >&2
		fail "a sanitizer reported errors in muxd"
	fi
	guest "lab_exit 0" >/dev/null 2>&1 &
	wait_for "! kill -0 $QEMU_PID" 10 || fail "the guest did not power off"
	wait "$QEMU_PID"
	_rc=$?
	[ "$_rc" = 1 ] || fail "QEMU exited with $_rc, not 1 (debug exit 0)"
}

# The unplug scenario of an adapter (LAB0002) linked to a 16550, the
# adapter opened as KIND: "serial", its ttyUSB (ftdi_sio, libserialport),
# or "ftdi", by serial number (libftdi).  It is unplugged in
# mid-conversation and plugged back: muxd takes the port down, reopens it
# with backoff, and delivers everything typed meanwhile on the surviving
# side.
unplug_scenario() {
	uart s1
	ftdi u2 LAB0002
	boot
	S=$(gdev s1)
	case $1 in
	serial)
		U=$(gdev u2)
		[ -n "$U" ] || fail "no ttyUSB for adapter LAB0002"
		_addr=$U
		_why=
		;;
	ftdi)
		_addr=ftdi:LAB0002
		_why="ftdi:LAB0002: adapter unplugged"
		;;
	*)
		fail "unplug_scenario: no adapter kind '$1'"
		;;
	esac
	guest_muxd "-s /run/muxd/muxd.sock --link $_addr,115200 $S,115200"
	gwait_port link1-a up
	gwait_port link1-b up

	"$TOOLS/typer" -q "$T/u2" "$T/s1" 'Judge: hello?\r' ||
		fail "adapter to UART before the unplug"
	"$TOOLS/typer" -q "$T/s1" "$T/u2" 'Entity: hi there\r\n' ||
		fail "UART to adapter before the unplug"

	usb_unplug u2
	gwait_port link1-a down 10
	guest_ok "grep -q 'port link1-a: down: $_why' /tmp/muxd.log"
	if [ "$1" = serial ]; then
		guest_ok "[ ! -e $U ]"
	fi
	# The entity goes on typing while the adapter is out.
	tty "$T/s1" send:'typed while unplugged\r\n' \
	    type:'and more, key by key\r\n' ||
		fail "cannot type on the surviving side"
	sleep 0.5
	[ "$(gport_field link1-a queued)" = 45 ] || fail "muxd holds" \
	    "$(gport_field link1-a queued) bytes for the adapter, not 45"
	[ "$(gport_field link1-a state)" = down ] ||
		fail "the adapter's port is not down"
	# Start reading before the replug; the pty keeps what arrives anyway.
	usb_plug u2
	gwait_port link1-a up 20
	if [ "$1" = serial ] && [ "$(gdev u2)" != "$U" ]; then
		fail "the adapter came back as $(gdev u2), not $U"
	fi
	tty "$T/u2" expect:'typed while unplugged\r\nand more, key by key\r\n' \
	    quiet:300 || fail "the bytes typed during the outage did not" \
	    "all arrive, in order"
	"$TOOLS/typer" -q "$T/u2" "$T/s1" 'Judge: welcome back\r' ||
		fail "adapter to UART after the replug"
	"$TOOLS/typer" -q "$T/s1" "$T/u2" 'Entity: thanks\r\n' ||
		fail "UART to adapter after the replug"
	[ "$(gport_field link1-a downs)" = 1 ] || fail "muxd counts" \
	    "$(gport_field link1-a downs) outages, not 1"
	[ "$(gport_field link1-a dropped)" = 0 ] || fail "muxd dropped bytes"
	shutdown_guest
}
