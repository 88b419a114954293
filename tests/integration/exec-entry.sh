# exec: runs a local entry on a raw pty: it gets the judge's bytes as they
# are typed, never an echo; when it ends it is marked down, started again
# with backoff, and what the judge typed meanwhile reaches the new one.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

cable judge
cat >"$T/bot" <<'EOB'
#!/bin/sh
# answers one line, then leaves
IFS= read -r line
printf 'you said [%s], bye\r\n' "$line"
EOB
chmod +x "$T/bot"
muxd_start -s "$SOCK" --link "$T/judge.dev" "exec:$T/bot"
wait_port link1-b up
tty "$T/judge" 'type:hello bot\n' 'expect:you said [hello bot], bye\r\n' 'quiet:300' >"$T/out" ||
	fail "the exec'd entry did not answer (or echoed): $(cat "$T/out")"
wait_for "grep -q 'port link1-b: down: program ended' '$T/muxd.log'" 5 || fail "the program's end was not noticed"
grep -q 'program exited with status 0' "$T/muxd.log" || fail "exit status not logged"
tty "$T/judge" 'send:second\n' >/dev/null
wait_port link1-b up 10
tty "$T/judge" 'expect:you said [second], bye\r\n' >/dev/null ||
	fail "the restarted entry did not get what was typed meanwhile"
[ "$(port_field link1-b downs)" -ge 1 ] || fail "restarts not counted"
echo ok
