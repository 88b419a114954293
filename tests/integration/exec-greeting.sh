# An exec: entry that greets at start-up, before any link, is not read
# until it is linked: its greeting reaches the judge of its first
# conversation (2004 rule 3 passes), counted as released after a wait, not
# as unrouted nor as a burst.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

cat >"$T/bot" <<'EOB'
#!/bin/sh
printf 'Hello, my name is Ada and I am the human\r\n'
exec cat
EOB
chmod +x "$T/bot"
room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot"|' "$T/room.conf"
muxd_start -f "$T/room.conf"
wait_port e1 up
sleep 0.5
[ "$(port_field e1 unrouted)" = 0 ] || fail "the greeting was read with no link: $(port_field e1 unrouted) bytes unrouted"
watch_events
round_start 1
J=$(facing E1)
tty "$J" 'expect:Hello, my name is Ada and I am the human\r\n' >/dev/null ||
	fail "the greeting did not reach the judge of the first link"
wait_for "grep '\"event\":\"verdict\"' '$T/events' | grep -q 'PASS.*assertion E1'" 5 ||
	fail "the greeting did not pass the opening assertion: $(grep verdict "$T/events")"
tty "$J" 'send:and now?\r' 'expect:and now?' >/dev/null || fail "the entry does not answer once linked"
mctl round stop >/dev/null
# The greeting (42 characters with its CR LF) counts as released after a
# wait; the answer cat gives at once is the burst it is.
grep -q 'character E1: .* 42 released after a wait' "$T/state/compliance.txt" ||
	fail "the greeting was not counted as released after a wait: $(cat "$T/state/compliance.txt")"
echo ok
