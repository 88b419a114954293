# An exec: entry's program runs in a process group of its own, ended whole:
# what it started in the background does not outlive it, neither when it
# ends by itself (and is started again) nor when muxd ends it, even when
# it ignores the hang-up of the pty.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

cable judge
cat >"$T/bot" <<EOB
#!/bin/sh
(trap "" HUP; exec sleep 97$$) &
IFS= read -r line
printf 'bye\r\n'
EOB
chmod +x "$T/bot"
count() { pgrep -f "^sleep 97$$\$" | wc -l; }
muxd_start -s "$SOCK" --link "$T/judge.dev" "exec:$T/bot"
wait_port link1-b up
wait_for "[ \$(count) = 1 ]" 5 || fail "the program's background child did not start"
tty "$T/judge" 'send:hello\n' 'expect:bye' >/dev/null || fail "the program did not answer"
wait_for "grep -q 'port link1-b: down: program ended' '$T/muxd.log'" 5 || fail "the program's end was not noticed"
wait_port link1-b up 10
wait_for "[ \$(count) = 1 ]" 5 ||
	fail "the children of ended programs pile up: $(count) of them"
muxd_stop
wait_for "[ \$(count) = 0 ]" 5 || fail "a program's child outlived muxd: $(count) left"
echo ok
