# The Debian packages: "make deb" builds them (dpkg-buildpackage, into
# $B/deb), lintian finds no error in them, and unpacked into a root of
# their own (dpkg -x: no second system to install them into here) they
# hold the unit, sysusers, tmpfiles and udev files, the manuals and the
# examples where Debian puts them; their users and directories are made
# in that root; and the packaged muxd and muxctl run the packaged example
# room, its lines moved onto ptys.  Skipped (exit 77) without the Debian
# tools, or without the player (make web-player, the npm registry).
. tests/integration/lib.sh

for c in dpkg-buildpackage:dpkg-dev dh:debhelper fakeroot:fakeroot lintian:lintian; do
	command -v "${c%%:*}" >/dev/null 2>&1 && continue
	echo "${c%%:*} is not installed (apt-get install ${c#*:})"
	exit 77
done
if [ ! -f "$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle/asciinema-player.min.js" ]; then
	echo "asciinema-player is not installed (make web-player needs the npm registry)"
	exit 77
fi
make -s -C "$ROOT" B="$T/b" NPM= PLAYER="$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle" \
    deb >"$T/deb.out" 2>&1 || fail "make deb failed: $(tail -30 "$T/deb.out")"
D=$T/b/deb
for p in muxd muxd-comprog muxd-transcripts; do
	[ -s "$D/${p}_0.1.0_$(dpkg --print-architecture).deb" ] || fail "no package $p: $(ls "$D")"
done
lintian --fail-on error "$D"/*.changes >"$T/lintian" 2>&1 ||
	fail "lintian: $(cat "$T/lintian")"
grep '^E: ' "$T/lintian" && fail "lintian errors"

R=$T/root
for f in "$D"/*.deb; do
	case $f in *-dbgsym_*) continue ;; esac
	dpkg -x "$f" "$R" || fail "dpkg -x $f failed"
done
for f in usr/sbin/muxd usr/bin/muxctl usr/bin/muxweb usr/sbin/muxd-udev \
    usr/bin/comprog usr/bin/transcripts \
    usr/lib/systemd/system/muxd.service usr/lib/sysusers.d/muxd.conf \
    usr/lib/tmpfiles.d/muxd.conf usr/lib/udev/rules.d/60-muxd.rules \
    usr/share/man/man8/muxd.8.gz usr/share/man/man5/muxd.conf.5.gz \
    usr/share/man/man1/comprog.1.gz usr/share/man/man1/transcripts.1.gz \
    usr/share/doc/muxd/examples/room2004.conf \
    usr/share/doc/muxd/examples/systemd/exec-entries.conf \
    usr/share/muxweb/player/asciinema-player.min.js; do
	[ -s "$R/$f" ] || fail "the packages do not hold /$f"
done
grep -q '^ExecStart=/usr/sbin/muxd -f /etc/muxd.conf$' "$R/usr/lib/systemd/system/muxd.service" ||
	fail "the packaged unit runs: $(grep ExecStart= "$R/usr/lib/systemd/system/muxd.service")"
grep -q '^ExecReload=/usr/bin/muxctl reload$' "$R/usr/lib/systemd/system/muxd.service" ||
	fail "the packaged unit reloads with: $(grep ExecReload= "$R/usr/lib/systemd/system/muxd.service")"
dpkg-deb -I "$D/muxd_0.1.0_$(dpkg --print-architecture).deb" postinst >"$T/postinst" ||
	fail "the package muxd has no postinst"
grep -q 'systemd-sysusers.*muxd.conf' "$T/postinst" || fail "the postinst makes no users: $(cat "$T/postinst")"
grep -q 'systemd-tmpfiles.*--create muxd.conf' "$T/postinst" || fail "the postinst makes no directories"

# What the postinst does, in the root.
mkdir -p "$R/etc"
systemd-sysusers --root="$R" >"$T/sysusers" 2>&1 || fail "systemd-sysusers: $(cat "$T/sysusers")"
grep -q '^muxd:' "$R/etc/passwd" || fail "no user muxd in the root"
systemd-tmpfiles --root="$R" --create muxd.conf >"$T/tmpf" 2>&1 || fail "systemd-tmpfiles: $(cat "$T/tmpf")"
[ -d "$R/var/lib/muxd" ] || fail "no /var/lib/muxd in the root"

# The packaged programs name /usr: muxd, with no room, the examples.
"$R/usr/sbin/muxd" -n -f /etc/muxd.conf >"$T/hint" 2>&1
grep -q "a room to start from: /usr/share/doc/muxd/examples " "$T/hint" ||
	fail "the packaged muxd does not name /usr/share/doc/muxd/examples: $(cat "$T/hint")"

# The packaged example room on ptys, run by the packaged muxd and muxctl.
sed -E -e "s|^control = .*|control = \"$SOCK\";|" -e "s|^state = .*|state = \"$T/state\";|" \
    -e "s|name = \"([^\"]+)\"; *address = \"[^\"]*\"|name = \"\\1\"; address = \"pty:$T/\\1\"|" \
    "$R/usr/share/doc/muxd/examples/room2004.conf" >"$T/room.conf"
grep -q 'address = "/dev' "$T/room.conf" && fail "a line of the example stays a device: $(grep 'address = "/dev' "$T/room.conf")"
MUXD=$R/usr/sbin/muxd MUXCTL=$R/usr/bin/muxctl
"$MUXD" -n -f "$T/room.conf" >"$T/check" 2>&1 || fail "the packaged muxd refuses the example: $(cat "$T/check")"
muxd_start -f "$T/room.conf"
n=$(grep -c 'address = "pty:' "$T/room.conf")
wait_for "[ \"\$(mctl -j status | jq '[.ports[] | select(.state == \"up\")] | length')\" = $n ]" 10 ||
	fail "not every line of the example is up: $(mctl status)"
round_start 1
# Who is at J1's left in round 1, and the entity's line.
e=$(sed -n 's/.*round 1: J1 (judge [0-9]*): left \([^,]*\),.*/\1/p' "$T/muxd.log" | head -1)
l=$(sed -n "s/.*name = \"$e\";.* port = \"\([^\"]*\)\".*/\1/p" "$T/room.conf")
[ -n "$l" ] || fail "no entity at J1's left in round 1: $(grep 'round 1' "$T/muxd.log")"
relay "$T/$l" "$T/j1-left" "$e answers from the package\r\n"
mctl round stop >/dev/null || fail "round 1 did not stop"
muxd_stop
echo ok
