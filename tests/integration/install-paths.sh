# "make install PREFIX=..." after a build for another prefix: the
# programs it installs name that prefix's files (muxd the examples, muxctl
# the installed muxd, muxweb the player), the player goes beside muxweb,
# and an install without the player says that it is missing and how to
# add it.  The build is copied, so that the suite's own stays as it is.
. tests/integration/lib.sh

PLAYER=$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle
if [ ! -f "$PLAYER/asciinema-player.min.js" ]; then
	echo "asciinema-player is not installed (make web-player needs the npm registry)"
	exit 77
fi
mkdir -p "$T/b"
for d in text capture protocol contest score line conf muxd muxctl muxweb \
    comprog udev transcripts paths.stamp; do
	cp -a "$ROOT/$B/$d" "$T/b/" || fail "cannot copy $B/$d"
done
grep -q "^$T/usr/" "$T/b/paths.stamp" && fail "the build already names $T/usr"
I=$T/usr
make -s -C "$ROOT" B="$T/b" NPM= PLAYER="$PLAYER" install PREFIX="$I" \
    SYSTEMDDIR="$T/unit" SYSUSERSDIR="$T/sysusers" TMPFILESDIR="$T/tmpfiles" \
    UDEVRULESDIR="$T/udev" >"$T/make.out" 2>&1 || fail "make install failed: $(cat "$T/make.out")"
grep -q "missing" "$T/make.out" && fail "make install says something is missing: $(cat "$T/make.out")"

# muxd, with no room at /etc/muxd.conf, names the examples installed.
[ -e /etc/muxd.conf ] && fail "this host has /etc/muxd.conf: muxd would not name its examples"
"$I/sbin/muxd" -n >"$T/hint" 2>&1 && fail "muxd -n with no room succeeded"
grep -q "a room to start from: $I/share/doc/muxd/examples " "$T/hint" ||
	fail "muxd does not name the installed examples: $(cat "$T/hint")"
[ -s "$I/share/doc/muxd/examples/room2004.conf" ] || fail "no examples in $I/share/doc/muxd/examples"

# muxctl runs the installed muxd, which is nowhere on PATH.
env -u MUXD PATH=/usr/bin:/bin "$I/bin/muxctl" ports --local >"$T/ports" 2>&1 ||
	fail "muxctl ports --local did not run $I/sbin/muxd: $(cat "$T/ports")"

# muxweb serves the installed player.
mkdir -p "$T/caps"
W=$(free_port)
WTOKEN=a-token-for-the-tests-0123456789
printf '%s\n' "$WTOKEN" >"$T/web.token"
bg "$I/bin/muxweb" -s "$T/none.sock" -l "$W" -a "$T/caps" -t "$T/web.token"
wait_for "wcurl -sf -o /dev/null http://127.0.0.1:$W/audit" 5 || fail "muxweb did not answer"
wcurl -sf -o "$T/player.js" "http://127.0.0.1:$W/player/asciinema-player.min.js" ||
	fail "muxweb does not serve the installed player"
cmp -s "$T/player.js" "$PLAYER/asciinema-player.min.js" || fail "muxweb serves another player"

# Without the player, the install says so, and how to add it.
rm -rf "$T/usr2"
make -s -C "$ROOT" B="$T/b" NPM= PLAYER="$T/noplayer" install PREFIX="$T/usr2" \
    SYSTEMDDIR="$T/unit" SYSUSERSDIR="$T/sysusers" TMPFILESDIR="$T/tmpfiles" \
    UDEVRULESDIR="$T/udev" >"$T/make2.out" 2>&1 || fail "make install failed: $(cat "$T/make2.out")"
grep -q 'make install: asciinema-player is missing.*make web-player' "$T/make2.out" ||
	fail "make install does not say the player is missing: $(cat "$T/make2.out")"
[ -e "$T/usr2/share/muxweb/player" ] && fail "a player was installed from nowhere"
echo ok
