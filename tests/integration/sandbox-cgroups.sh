# The entries' control groups as the room asks for them, on a host that
# cannot give them (this one: cgroup v1, or cgroup v2 with muxd in a
# group not delegated to it): absent, muxd says why there are none and
# runs its entries on setrlimit(2)'s limits; entry_cgroups = true, it
# refuses to start and says why; false, it says the room said so.  The
# groups themselves are the lab's scenario entry-cgroups (a guest with
# cgroup v2).
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
command -v bwrap >/dev/null || { echo "no bwrap (apt-get install bubblewrap)"; exit 77; }
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
mnt=$(awk '/ - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
if [ -z "$mnt" ] || [ -z "$own" ]; then
	why="this host has no cgroup v2 hierarchy"
	forced=$why
elif ! grep -qw 'memory\|pids\|cpu' "$mnt${own%/}/cgroup.controllers"; then
	why="the cgroup v2 hierarchy at $mnt has none of the memory, pids and cpu controllers"
	forced=$why
elif [ "$own" = / ]; then
	echo "skipped: this host would give the groups (muxd at the root of its cgroup v2 hierarchy)"
	exit 77
else
	why="muxd's control group .* is not delegated to it (under systemd: Delegate=yes; or entry_cgroups = true)"
	forced="cannot give the memory, pids or cpu controller\|cannot move pid\|cannot make"
fi

mkdir -p "$T/e1"
chmod 755 "$T" "$T/e1"
printf '#!/bin/sh\nwhile IFS= read -r l; do printf "E1 heard: %%s\\r\\n" "$l"; done\n' >"$T/e1/bot"
chmod 755 "$T/e1/bot"
# room SETTING: the room, with an extra top-level setting.
room() {
	cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
$1
ports = ( { name = "j1"; address = "pty:$T/j1"; },
          { name = "e1"; address = "exec:$T/e1/bot"; } );
EOC
}

room ""
muxd_start -f "$T/room.conf"
wait_port e1 up
grep -q "exec: entries' limits are setrlimit(2)'s, per uid; no control groups: $why" "$T/muxd.log" ||
	fail "muxd did not say why its entries have no control groups: $(grep 'exec:' "$T/muxd.log")"
mctl connect j1 e1 >/dev/null || fail "muxctl connect failed"
tty "$T/j1" 'send:hello\n' 'expect:E1 heard: hello' >/dev/null ||
	fail "E1 did not answer without control groups"
muxd_stop

room "entry_cgroups = true;"
log_reset
"$MUXD" -v -f "$T/room.conf" >>"$T/muxd.log" 2>&1 && fail "muxd started though the room requires control groups it cannot make"
grep -q "muxd: exec: entries cannot have control groups of their own: .*\($forced\).*; the room may leave entry_cgroups out" "$T/muxd.log" ||
	fail "the refusal does not say why: $(tail -3 "$T/muxd.log")"
grep -q ' running, ' "$T/muxd.log" && fail "muxd ran"

room "entry_cgroups = false;"
log_reset
muxd_start -f "$T/room.conf"
wait_port e1 up
grep -q "no control groups: the room says entry_cgroups = false" "$T/muxd.log" ||
	fail "muxd did not say the room turned the groups off"
# A reload does not change them, and says so.
room ""
mctl reload >/dev/null || fail "reload refused"
wait_for "grep -q 'exec: sandbox, entry_cgroups, entry_uids and entry_user stay as they were at start' '$T/muxd.log'" 5 ||
	fail "a reload changing entry_cgroups is not said"
muxd_stop
echo ok
