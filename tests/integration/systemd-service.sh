# muxd as a service: "make install" puts a unit, sysusers.d and
# tmpfiles.d entries and example rooms where systemd looks; the unit
# passes systemd-analyze verify, alone and with the drop-in of exec:
# entries, and its exposure (systemd-analyze security) is 2.0 at most;
# its reload fails, saying file:line, on a room muxd refuses; the
# entries make the users muxd and
# muxd-entry (muxd in dialout) and muxd's directories; and muxd speaks
# sd_notify: READY=1 with a status line (lines up, the round), the status
# following rounds, RELOADING=1 then READY=1 on a reload, STOPPING=1; its
# lines to the journal carry their priority, no time stamp.
. tests/integration/lib.sh

command -v systemd-analyze >/dev/null 2>&1 || fail "systemd-analyze is not installed (apt-get install systemd)"
I=$T/inst
# Installed from a copy of the build: the suite's own keeps its prefix.
mkdir -p "$T/b"
for d in text capture protocol contest score line conf muxd muxctl muxweb \
    comprog udev transcripts npm paths.stamp; do
	[ -e "$ROOT/$B/$d" ] || continue
	cp -a "$ROOT/$B/$d" "$T/b/" || fail "cannot copy $B/$d"
done
make -s -C "$ROOT" B="$T/b" NPM= install PREFIX="$I/usr" SYSTEMDDIR="$I/unit" \
    SYSUSERSDIR="$I/sysusers" TMPFILESDIR="$I/tmpfiles" \
    UDEVRULESDIR="$I/udev" >"$T/make.out" 2>&1 || fail "make install failed: $(cat "$T/make.out")"
for f in unit/muxd.service sysusers/muxd.conf tmpfiles/muxd.conf \
    usr/share/doc/muxd/examples/room2004.conf udev/60-muxd.rules \
    usr/share/doc/muxd/examples/systemd/exec-entries.conf; do
	[ -s "$I/$f" ] || fail "make install did not install $f"
done
U=$I/unit/muxd.service
grep -q "^ExecStart=$I/usr/sbin/muxd -f /etc/muxd.conf\$" "$U" ||
	fail "the unit does not run the installed muxd: $(grep Exec "$U")"
grep -q '^User=muxd$' "$U" || fail "the unit does not run muxd as muxd"
systemd-analyze verify --man=no "$U" >"$T/verify" 2>&1 ||
	fail "systemd-analyze verify failed: $(cat "$T/verify")"
[ -s "$T/verify" ] && fail "systemd-analyze verify: $(cat "$T/verify")"
grep -q '^Type=notify$' "$U" || fail "the unit is not Type=notify"

# Its exposure, 2.0 at most; with the drop-in of exec: entries, muxd
# starts as root (-u muxd), the unit still valid.
security() {
	systemd-analyze security --offline=yes "$1" 2>&1 |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p'
}
e=$(security "$U")
[ -n "$e" ] || fail "systemd-analyze security said no figure: $(systemd-analyze security --offline=yes "$U" 2>&1 | tail -3)"
awk "BEGIN { exit !($e <= 2.0) }" || fail "the unit's exposure is $e, above 2.0"
echo "exposure $e"
{ cat "$U"; cat "$I/usr/share/doc/muxd/examples/systemd/exec-entries.conf"; } >"$T/entries.service"
grep -q "^ExecStart=$I/usr/sbin/muxd -u muxd -f /etc/muxd.conf\$" "$T/entries.service" ||
	fail "the drop-in does not start muxd as root: $(grep Exec "$T/entries.service")"
systemd-analyze verify --man=no "$T/entries.service" >"$T/verify" 2>&1 ||
	fail "systemd-analyze verify failed with the drop-in: $(cat "$T/verify")"
echo "exposure with exec: entries $(security "$T/entries.service")"

# The users and directories, made in a root of their own.
mkdir -p "$T/root/etc"
systemd-sysusers --root="$T/root" "$I/sysusers/muxd.conf" >/dev/null 2>&1 ||
	fail "systemd-sysusers refused the entries"
for u in muxd muxd-entry; do
	grep -q "^$u:" "$T/root/etc/passwd" || fail "no user $u made"
done
grep -q '^dialout:.*muxd' "$T/root/etc/group" || fail "muxd is not in dialout"
systemd-tmpfiles --root="$T/root" --create "$I/tmpfiles/muxd.conf" >"$T/tmpf" 2>&1 ||
	fail "systemd-tmpfiles failed: $(cat "$T/tmpf")"
uid=$(awk -F: '$1 == "muxd" { print $3 }' "$T/root/etc/passwd")
for d in var/lib/muxd run/muxd; do
	[ "$(stat -c '%u %a' "$T/root/$d")" = "$uid 750" ] ||
		fail "$d is $(stat -c '%u %a' "$T/root/$d"), not muxd's 750"
done

# sd_notify, to a socket of ours.
notify_listen
room1
NOTIFY_SOCKET=$T/notify.sock muxd_start -f "$T/room.conf"
wait_for "grep -q 'READY=1' '$T/notify'" 5 || fail "no READY=1: $(cat "$T/notify")"
wait_for "grep -q 'STATUS=4 of 4 lines up, no round running' '$T/notify'" 5 ||
	fail "no status line: $(cat "$T/notify")"
round_start 1
wait_for "grep -q 'STATUS=4 of 4 lines up, round 1 running' '$T/notify'" 5 ||
	fail "the status does not follow the round: $(cat "$T/notify")"
: >"$T/notify"
kill -HUP "$MUXD_PID"
wait_for "grep -q 'READY=1' '$T/notify'" 5 || fail "no READY=1 after the reload"
grep -q 'RELOADING=1' "$T/notify" || fail "no RELOADING=1: $(cat "$T/notify")"
[ "$(grep -n 'RELOADING=1' "$T/notify" | cut -d: -f1 | head -1)" -le \
    "$(grep -n 'READY=1' "$T/notify" | cut -d: -f1 | tail -1)" ] ||
	fail "READY=1 came before RELOADING=1: $(cat "$T/notify")"

# The unit's reload is synchronous: it succeeds when muxd took the room,
# and fails, saying file:line, when muxd refused it (the room runs on).
reload=$(sed -n 's/^ExecReload=//p' "$U")
[ "$reload" = "$I/usr/bin/muxctl reload" ] || fail "the unit reloads with: $reload"
MUXD_SOCKET=$SOCK $reload >"$T/reload.out" 2>&1 ||
	fail "the unit's reload of a good room failed: $(cat "$T/reload.out")"
cp "$T/room.conf" "$T/room.good"
printf 'rounds = ( { bogus = ; } );\n' >>"$T/room.conf"
n=$(grep -c '' "$T/room.conf")
MUXD_SOCKET=$SOCK $reload >"$T/reload.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "the unit's reload of a bad room returned $rc: $(cat "$T/reload.out")"
grep -q "room.conf:$n" "$T/reload.out" || fail "the reload does not say where: $(cat "$T/reload.out")"
kill -0 "$MUXD_PID" || fail "muxd did not survive a bad reload"
cp "$T/room.good" "$T/room.conf"
muxd_stop
grep -q 'STOPPING=1' "$T/notify" || fail "no STOPPING=1: $(cat "$T/notify")"

# Its standard error the journal's stream: no time stamp, the priority.
log_reset
JOURNAL_STREAM=$(stat -c '%d:%i' "$T/muxd.log") muxd_start -f "$T/room.conf"
muxd_stop
grep -q '^<6>muxd 0.1.0 running, 4 ports$' "$T/muxd.log" ||
	fail "lines to the journal are not as it wants them: $(head -3 "$T/muxd.log")"
echo ok
