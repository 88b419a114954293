# Unsandboxed (sandbox = false, said loudly in the log), an exec: entry
# runs as the entries' own user (entry_user), not as muxd's
# (-u): the chatbot can neither truncate state.json, forge compliance.txt
# nor reach the control socket, nor signal muxd; status names the user;
# an entry_user of root, or one that does not exist, is refused, saying
# so; when muxd is killed outright, its entries' programs end with it.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "no user nobody"; exit 77; }
# The room's entries' user, as an operator creates it.
id muxd-entry >/dev/null 2>&1 ||
	useradd --system --no-create-home --home-dir /nonexistent \
	    --shell /usr/sbin/nologin muxd-entry ||
	fail "cannot create the user muxd-entry"

# The chatbot of an attacker: once asked, it tries each, and says how it went.
cat >"$T/bot" <<'EOB'
#!/bin/sh
IFS= read -r line
t() { if sh -c "$2" 2>/dev/null; then printf '%s:DONE ' "$1"; else printf '%s:denied ' "$1"; fi; }
printf 'user:%s ' "$(id -un)"
t state ": >'$D/state/state.json'"
t compliance "echo forged >>'$D/state/compliance.txt'"
t socket "socat -u OPEN:/dev/null UNIX-CONNECT:'$D/ctl.sock'"
t signal "kill -0 $(cat "$D/muxd.pid")"
printf 'end\r\n'
sleep 1000
EOB
sed -i "2i D=$T" "$T/bot"
chmod 755 "$T/bot"
ENTRY='eol = "lf";' RULES='entry_user = "muxd-entry"; sandbox = false;' room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot"|' "$T/room.conf"
muxd_start -f "$T/room.conf" -u nobody
grep -q 'WARNING: sandbox = false: exec: entries run unsandboxed, all as user muxd-entry' \
    "$T/muxd.log" || fail "sandbox = false was not warned of"
echo "$MUXD_PID" >"$T/muxd.pid"; chmod 644 "$T/muxd.pid"
round_start 1
wait_for "[ -s '$T/state/state.json' ]" 5 || fail "no state saved"
cp "$T/state/state.json" "$T/state.before"
J=$(facing E1)
tty "$J" 'type:go\r' 'expect:end' "save:$T/judge.bytes" >/dev/null ||
	fail "the entry did not answer"
out=$(tr -d '\r' <"$T/judge.bytes")
for w in user:muxd-entry state:denied compliance:denied socket:denied \
    signal:denied; do
	printf '%s' "$out" | grep -q "$w" ||
		fail "the entry's attempts did not go as they should ($w): $out"
done
cmp -s "$T/state/state.json" "$T/state.before" || fail "state.json changed"
grep -q forged "$T/state/compliance.txt" 2>/dev/null &&
	fail "the entry forged compliance.txt"
[ "$(mctl -j status | jq -r '.entries.user, .entries.own' | tr '\n' ' ')" = \
    "muxd-entry true " ] ||
	fail "status does not name the entries' user: $(mctl -j status | jq -c .entries)"
pid=$(pgrep -u muxd-entry -f "$T/bot") || fail "no program of muxd-entry runs"
# Killed outright, muxd leaves no program of an entry behind.
muxd_stop KILL
wait_for "! pgrep -u muxd-entry -f '$T/bot' >/dev/null" 5 ||
	fail "the entry's program outlived muxd: $(pgrep -u muxd-entry -f "$T/bot")"

# Root is refused where it is written; a user that does not exist where
# the program would start.
RULES='entry_user = "root";' room1
"$MUXD" -n -f "$T/room.conf" >"$T/err" 2>&1 && fail "entry_user root was taken"
grep -q 'room.conf:[0-9]*: entry_user .root.: entries never run as root' \
    "$T/err" || fail "entry_user root: $(cat "$T/err")"
RULES='entry_user = "no-such-entry"; sandbox = false;' room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:'"$T"'/bot"|' "$T/room.conf"
muxd_start -f "$T/room.conf" -u nobody
wait_for "port_field e1 error | grep -q 'user no-such-entry: no such user'" 5 ||
	fail "the missing user is not said: $(port_field e1 error)"
muxd_stop
echo ok
