# muxd -u: the lines and the control socket are opened first, then muxd
# becomes the user for good; it still routes, records and saves its state,
# its directories and socket are the user's; an exec: entry runs as the
# entries' user: here, unsandboxed, the same (said in the log and status,
# as it gives the entry muxd's files), in quick mode a sandboxed uid of
# the default range (entry-user.sh and sandbox-*.sh have rooms of their
# own).
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

id nobody >/dev/null 2>&1 || { echo "no user nobody"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
chmod 755 "$T"
ENTRY='eol = "lf";' RULES='entry_user = "nobody"; sandbox = false;' room1
sed -i 's|address = "pty:'"$T"'/e1"|address = "exec:/bin/sh -c \\"read x; id -un; exec cat\\""|' "$T/room.conf"
muxd_start -f "$T/room.conf" -u nobody
grep -q 'running as user nobody' "$T/muxd.log" || fail "muxd did not say it dropped to nobody"
uid=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' /proc/"$MUXD_PID"/status)
[ "$uid" = "$(id -u nobody) $(id -u nobody) $(id -u nobody) $(id -u nobody)" ] ||
	fail "muxd runs with uids $uid, not nobody's"
grep -q "entries run as nobody, muxd's own user" "$T/muxd.log" ||
	fail "muxd did not say its entries share its user"
[ "$(mctl -j status | jq -r .entries.own)" = false ] ||
	fail "status does not say the entries share muxd's user"
mctl status | grep -q "^WARNING: entries run as nobody, muxd's own user" ||
	fail "muxctl status does not warn: $(mctl status | head -3)"
[ "$(stat -c %U "$SOCK")" = nobody ] || fail "the control socket is not nobody's"
[ "$(stat -c %U "$T/state")" = nobody ] || fail "the state directory is not nobody's"

# A round as usual: routed, recorded, saved, the entry run as nobody.
round_start 1
J=$(facing E1)
tty "$J" 'type:who\r' 'expect:nobody' >/dev/null ||
	fail "the exec: entry did not run as nobody"
tty "$J" 'send:still here\r' 'sleep:500' "save:$T/judge.bytes" >/dev/null
[ "$("$TOOLS/vtscreen" "$T/judge.bytes" | grep -c 'still here$')" = 2 ] ||
	fail "the room does not route as nobody: $("$TOOLS/vtscreen" "$T/judge.bytes")"
wait_for "grep -q 'still here' '$T'/state/transcripts/E1/*.TXT" 5 ||
	fail "nothing recorded as nobody"
[ "$(stat -c %U "$T"/state/transcripts/E1)" = nobody ] ||
	fail "the entity's transcript directory was not made by nobody"
[ "$(stat -c %U "$T/state/state.json")" = nobody ] ||
	fail "state.json was not saved by nobody"
mctl round stop >/dev/null || fail "round stop failed"
muxd_stop

# Quick mode too: muxd runs as nobody, the link's program sandboxed as a
# uid of the default range, 61000-61099.
command -v bwrap >/dev/null || { echo ok; exit 0; }
muxd_start -s "$SOCK" -u nobody --link "pty:$T/q" \
    'exec:/bin/sh -c "read x; echo uid=\$(id -u); exec cat"'
[ "$(awk '/^Uid:/ { print $2 }' /proc/"$MUXD_PID"/status)" = "$(id -u nobody)" ] ||
	fail "muxd in quick mode did not become nobody"
tty "$T/q" 'type:who\n' "expect:uid=610" "save:$T/q.bytes" >/dev/null ||
	fail "the exec: program in quick mode did not run as a uid of 61000-61099: $(cat "$T/q.bytes")"
echo ok
