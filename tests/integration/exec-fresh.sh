# An exec: entry with "fresh = true" runs a new program for each
# conversation: the one of round 1 ends with its link, the next starts at
# once and is held until linked, so the judge of round 2 gets the new
# one's greeting and nothing it remembers.  Without it, the program of
# round 1 carries on into round 2.  fresh on a port that is no exec: is
# refused with file and line.  (A sandboxed program has a pid namespace of
# its own, so it greets with a random token; its pid on the host is in
# muxd's log.)
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

cat >"$T/bot" <<'EOB'
#!/bin/sh
# Greets with a token of its own; answers with how many lines it has heard.
printf 'Hello, my name is Ada and I am the human (pid %s)\r\n' \
    "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
n=0
while IFS= read -r line; do
	[ -z "$line" ] && continue
	n=$((n + 1))
	printf 'heard %d\r\n' "$n"
done
EOB
chmod +x "$T/bot"
ENTRY='eol = "lf"; fresh = true;' room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot"|' "$T/room.conf"
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
J=$(facing E1)
tty "$J" 'expect:(pid ' 'expect:)\r\n' 'send:one\r\r' 'expect:heard 1' "save:$T/r1" >/dev/null ||
	fail "round 1: no greeting or no answer"
pid1=$(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' "$T/r1" | head -1)
host1=$(sed -n "s/.*port e1: started .*, pid \([0-9]*\)$/\1/p" "$T/muxd.log" | tail -1)
mctl round stop >/dev/null
round_start 2
J=$(facing E1)
tty "$J" 'expect:(pid ' 'expect:)\r\n' 'send:two\r\r' 'expect:heard 1' "save:$T/r2" >/dev/null ||
	fail "round 2 did not get a fresh program (a greeting, and heard 1): $(cat "$T/r2" 2>/dev/null)"
pid2=$(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' "$T/r2" | head -1)
[ -n "$pid1" ] && [ -n "$pid2" ] && [ "$pid1" != "$pid2" ] ||
	fail "the same program in both rounds (pid $pid1, $pid2)"
wait_for "! kill -0 $host1 2>/dev/null" 5 || fail "the program of round 1 still runs"
mctl round stop >/dev/null
muxd_stop

sed -i 's|address = "exec:'"$T"'/bot"|address = "pty:'"$T"'/e1"|' "$T/room.conf"
"$MUXD" -n -f "$T/room.conf" 2>"$T/err" && fail "fresh on a pty: port accepted"
grep -q "room.conf:[0-9]*: entity 'E1': fresh needs an exec: port" "$T/err" ||
	fail "the refusal does not name the file, line and why: $(cat "$T/err")"
echo ok
