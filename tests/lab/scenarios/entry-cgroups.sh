# Entries' control groups on a host with cgroup v2 (this guest, without
# systemd: muxd at the root of the hierarchy).  E1 and E2 are exec:
# entries in bwrap sandboxes, each in a group of its own with the room's
# limits.  E1 eats memory in four processes, each under its own data
# limit but together over the group's (the kernel ends the group: muxd
# says why and starts it again), forks without end (pids.max holds),
# spins (cpu.max throttles it); E2's judge, on another line, is answered
# throughout.  The groups go when muxd stops; those of a muxd gone
# before are removed as it starts.  Then muxd as a systemd
# unit with Delegate=yes would start: in a group marked delegated.
. tests/lab/lib.sh

uart s1
uart s2
boot
guest_ok '[ -f /sys/fs/cgroup/cgroup.controllers ] && [ -x /usr/bin/bwrap ]'
guest_ok "mkdir -p /srv/e1 /srv/e2 && cat >/srv/e1/bot <<'EOB'
#!/bin/sh
printf 'E1 here\r\n'
while IFS= read -r line; do
	case \$line in
	mem*)
		printf 'eating\r\n'
		for i in 1 2 3 4; do
			dd if=/dev/zero of=/dev/null bs=12M count=400 2>/dev/null &
		done
		wait
		printf 'survived\r\n' ;;
	fork*)
		printf 'forking\r\n'
		while :; do sleep 1000 & done ;;
	spin*)
		printf 'spinning\r\n'
		while :; do :; done ;;
	group*)
		printf 'group %s\r\n' \"\$(cat /proc/self/cgroup)\" ;;
	?*)
		printf 'E1 heard: %s\r\n' \"\$line\" ;;
	esac
done
EOB
cat >/srv/e2/bot <<'EOB'
#!/bin/sh
while IFS= read -r line; do
	[ -n \"\$line\" ] && printf 'E2 heard: %s\r\n' \"\$line\"
done
EOB
chmod 755 /srv/e1 /srv/e2 /srv/e1/bot /srv/e2/bot"
S1=$(gdev s1)
S2=$(gdev s2)
guest_ok "cat >/tmp/room.conf <<EOC
control = \"/run/muxd/muxd.sock\"; state = \"/var/lib/muxd\";
entry_limits = { memory = 33554432; processes = 16; cpu_percent = 20; };
ports = (
  { name = \"j1\"; address = \"$S1,115200\"; },
  { name = \"j2\"; address = \"$S2,115200\"; },
  { name = \"e1\"; address = \"exec:/srv/e1/bot\"; },
  { name = \"e2\"; address = \"exec:/srv/e2/bot\"; }
);
EOC"
# The groups of a muxd gone before (its spawner killed outright), with
# a process of its entry's still in one: ended and removed at the start.
guest "mkdir -p /sys/fs/cgroup/muxd-99999/entry-old &&
    sh -c 'echo \$\$ >/sys/fs/cgroup/muxd-99999/entry-old/cgroup.procs && exec sleep 1000' &
    echo \$! >/tmp/old.pid" || fail "cannot make the stale group"
guest_wait 'grep -q . /sys/fs/cgroup/muxd-99999/entry-old/cgroup.procs' 5 ||
	fail "the stale group has no process"
guest_muxd "-f /tmp/room.conf"
for p in j1 j2 e1 e2; do gwait_port $p up; done
guest_ok 'grep -q "entries.* control groups under /sys/fs/cgroup/muxd-" /tmp/muxd.log'
guest_ok 'grep -q "the groups of a muxd gone before removed" /tmp/muxd.log &&
    [ ! -d /sys/fs/cgroup/muxd-99999 ] && ! kill -0 $(cat /tmp/old.pid) 2>/dev/null'
G=$(guest 'ls -d /sys/fs/cgroup/muxd-*')
[ -n "$G" ] || fail "no group of muxd's entries"
[ "$(guest 'muxctl -j -s /run/muxd/muxd.sock status' | jq -r .entries.cgroups)" = "$G" ] ||
	fail "muxctl status does not name the entries' group $G"
guest_ok "[ \"\$(cat $G/entry-e1/memory.max)\" = 33554432 ] &&
    [ \"\$(cat $G/entry-e1/pids.max)\" = 16 ] &&
    [ \"\$(cat $G/entry-e1/cpu.max)\" = '20000 100000' ] &&
    grep -q . $G/entry-e1/cgroup.procs && grep -q . $G/entry-e2/cgroup.procs"
guest 'muxctl -s /run/muxd/muxd.sock connect j1 e1 && muxctl -s /run/muxd/muxd.sock connect j2 e2' ||
	fail "muxctl connect failed"

# Ask E2 and read its answer: its conversation goes on untouched.
e2_answers() {
	tty "$T/s2" send:"$1\\n" expect:"E2 heard: $1" ||
		fail "E2 did not answer '$1' ($2)"
}
e2_answers before "before E1's abuse"

# The entry sees its own group as the root (a cgroup namespace).
tty "$T/s1" send:'group\n' expect:'group 0::/' ||
	fail "E1 sees more of the control groups than its own"

tty "$T/s1" send:'mem\n' expect:'eating' || fail "E1 did not start eating"
guest_wait "grep -q 'port e1: down: program ended: stopped: its memory reached its limit of 33554432 bytes' /tmp/muxd.log" 30 ||
	fail "E1's group was not ended at its memory limit, or not said"
e2_answers during "while E1 was over its memory"
gwait_port e1 up 20
guest_ok "[ \"\$(sed -n 's/^oom_kill //p' $G/entry-e1/memory.events)\" -ge 1 ]"

guest 'muxctl -s /run/muxd/muxd.sock connect j1 e1' >/dev/null 2>&1
tty "$T/s1" send:'fork\n' expect:'forking' || fail "E1 did not fork"
guest_wait "grep -q 'port e1: down: program ended: stopped: its processes reached their limit of 16' /tmp/muxd.log" 30 ||
	fail "E1's fork bomb was not stopped at 16 processes"
e2_answers forks "after E1's fork bomb"
gwait_port e1 up 20
guest_ok "[ \"\$(sed -n 's/^max //p' $G/entry-e1/pids.events)\" -ge 1 ] ||
    [ \"\$(cat $G/entry-e1/pids.peak 2>/dev/null || echo 16)\" -le 16 ]"

guest 'muxctl -s /run/muxd/muxd.sock connect j1 e1' >/dev/null 2>&1
tty "$T/s1" send:'spin\n' expect:'spinning' || fail "E1 did not spin"
guest_wait "[ \"\$(sed -n 's/^nr_throttled //p' $G/entry-e1/cpu.stat)\" -ge 1 ]" 30 ||
	fail "E1's spinning was never throttled by cpu.max"
e2_answers spin "while E1 spins"

guest_ok 'kill $(cat /tmp/muxd.pid)'
guest_wait '! kill -0 $(cat /tmp/muxd.pid)' 20 || fail "muxd did not stop"
guest_wait "[ ! -d $G ]" 10 || fail "muxd left its group $G: $(guest "ls $G; cat $G/*/cgroup.procs")"

# As a systemd unit with Delegate=yes: muxd started in a group of its
# own that is marked delegated (trusted.delegate, as systemd marks it)
# moves its processes to muxd/ and puts its entries under entries/.
U=/sys/fs/cgroup/muxd.service
guest_ok "mkdir $U && setfattr -n trusted.delegate -v 1 $U &&
    echo '+memory +pids +cpu' >/sys/fs/cgroup/cgroup.subtree_control"
guest "sh -c 'echo \$\$ >$U/cgroup.procs && exec muxd -v -f /tmp/room.conf' \
    >>/tmp/muxd.log 2>&1 & echo \$! >/tmp/muxd.pid" || fail "cannot start muxd in $U"
guest_wait "[ \$(grep -c ' running, ' /tmp/muxd.log) = 2 ]" 10 ||
	fail "muxd did not start in $U"
for p in j1 j2 e1 e2; do gwait_port $p up; done
guest_ok "grep -q 'control groups under $U/entries\$' /tmp/muxd.log &&
    grep -qx \$(cat /tmp/muxd.pid) $U/muxd/cgroup.procs &&
    ! grep -q . $U/cgroup.procs &&
    grep -q . $U/entries/entry-e1/cgroup.procs &&
    [ \"\$(cat $U/entries/entry-e1/memory.max)\" = 33554432 ]"
guest 'muxctl -s /run/muxd/muxd.sock connect j2 e2' >/dev/null 2>&1
e2_answers unit "with muxd as a delegated unit"
guest_ok 'kill $(cat /tmp/muxd.pid)'
guest_wait '! kill -0 $(cat /tmp/muxd.pid)' 20 || fail "muxd did not stop"
guest_wait "[ ! -d $U/entries ]" 10 || fail "muxd left $U/entries"
shutdown_guest
echo ok
