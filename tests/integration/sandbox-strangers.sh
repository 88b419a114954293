# Two exec: entries in their sandboxes are strangers to each other and to
# muxd: E1, the attacker, tries to trace E2 (strace -p, /proc/PID/mem),
# to stop it, to signal muxd, to read and write muxd's state and key, its
# entries' logs, to reach its control socket and a TCP port on loopback
# (where muxweb would listen): each fails.  Meanwhile judge 2 asks E2 and
# gets E2's answer, and E2's transcript holds E2's words only.  The two
# run as distinct uids of entry_uids, with no_new_privs.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
command -v bwrap >/dev/null || { echo "no bwrap (apt-get install bubblewrap)"; exit 77; }
command -v strace >/dev/null || { echo "no strace (apt-get install strace)"; exit 77; }

mkdir -p "$T/e1" "$T/e2"
chmod 755 "$T/e1" "$T/e2"
# The victim: answers every line, saying it is E2.
cat >"$T/e2/bot" <<'EOB'
#!/bin/sh
while IFS= read -r line; do
	[ -z "$line" ] && continue
	printf 'E2 heard: %s\r\n' "$line"
done
EOB
# The attacker: once told where E2 and muxd are, tries each and says how
# it went.
cat >"$T/e1/bot" <<'EOB'
#!/bin/sh
IFS= read -r line
set -- $line
v=$2 m=$3 port=$4
t() { if sh -c "$2" >/dev/null 2>&1; then printf '%s:DONE ' "$1"; else printf '%s:denied ' "$1"; fi; }
printf 'uid:%s nnp:%s ' "$(id -u)" "$(awk '/^NoNewPrivs/ { print $2 }' /proc/self/status)"
t strace "timeout 3 strace -p $v -o /dev/null"
t mem "head -c 1 /proc/$v/mem"
t environ "head -c 1 /proc/$v/environ"
t stop "kill -STOP $v"
t signal "kill -0 $m"
t state "cat '$D/state/state.json'"
t forge "echo forged >'$D/state/state.json'"
t key "cat '$D/state/room.key'"
t logs "cat '$D/state/logs/e2.log'"
t socket "socat -u OPEN:/dev/null UNIX-CONNECT:'$D/ctl.sock'"
t tcp "socat -u OPEN:/dev/null TCP:127.0.0.1:$port"
t ps "ps -e -o pid= | grep -qx ' *$v'"
printf 'end\r\n'
sleep 1000
EOB
sed -i "2i D=$T" "$T/e1/bot"
chmod 755 "$T/e1/bot" "$T/e2/bot"

cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
entry_uids = "61000-61099";
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; }, { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "j2l"; address = "pty:$T/j2l"; }, { name = "j2r"; address = "pty:$T/j2r"; },
  { name = "e1"; address = "exec:$T/e1/bot"; },
  { name = "e2"; address = "exec:$T/e2/bot"; },
  { name = "c1"; address = "pty:$T/c1"; }, { name = "c2"; address = "pty:$T/c2"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1l"; right = "j1r"; },
             { name = "J2"; judge = 2; left = "j2l"; right = "j2r"; } );
entities = (
  { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; eol = "lf"; },
  { name = "E2"; kind = "entry"; port = "e2"; approved = "Eve"; eol = "lf"; user = 61099; },
  { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; },
  { name = "C2"; kind = "confederate"; port = "c2"; approved = "Cy"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1"), ("J2", "E2", "C2") ); } ); seed = 5; };
EOC
muxd_start -f "$T/room.conf"
wait_port e1 up
wait_port e2 up
# A listener on loopback, where muxweb would be.
lport=$(free_port)
bg socat TCP-LISTEN:"$lport",bind=127.0.0.1,reuseaddr,fork OPEN:/dev/null
wait_for "ss -Htln 'sport = :$lport' | grep -q ." 5 || fail "no listener on $lport"
round_start 1
wait_for "[ -s '$T/state/state.json' ]" 5 || fail "no state saved"

u1=$(sed -n 's/.*port e1: started .* as uid \([0-9]*\),.*/\1/p' "$T/muxd.log" | tail -1)
u2=$(sed -n 's/.*port e2: started .* as uid \([0-9]*\),.*/\1/p' "$T/muxd.log" | tail -1)
[ "$u2" = 61099 ] || fail "E2 does not run as its user 61099: $u2"
[ -n "$u1" ] && [ "$u1" != "$u2" ] && [ "$u1" -ge 61000 ] && [ "$u1" -le 61099 ] ||
	fail "E1's uid $u1 is not its own in 61000-61099 (E2: $u2)"
wait_for "pgrep -u $u2 -f '$T/e2/bot' >/dev/null" 5 || fail "E2's program does not run as $u2"
v=$(pgrep -u "$u2" -f "$T/e2/bot" | head -1)

J1=$(echo "$T/j1$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .side' | cut -c1)")
J2=$(echo "$T/j2$(mctl -j status | jq -r '.links[] | select(.entity == "E2") | .side' | cut -c1)")
tty "$J1" "type:go $v $MUXD_PID $lport\\r" 'expect:end' "save:$T/judge1.bytes" >/dev/null ||
	fail "the attacker did not answer: $(cat "$T/judge1.bytes")"
out=$(tr -d '\r\n' <"$T/judge1.bytes")
for w in "uid:$u1" nnp:1 strace:denied mem:denied environ:denied stop:denied \
    signal:denied state:denied forge:denied key:denied logs:denied \
    socket:denied tcp:denied ps:denied; do
	printf '%s' "$out" | grep -q "$w" ||
		fail "the attacker's attempts did not go as they should ($w): $out"
done
# E2 was never stopped, and its judge gets its answers.
grep -q '^State:.*T' /proc/"$v"/status && fail "E2 was stopped"
tty "$J2" 'type:secret question for E2\r' 'expect:E2 heard: secret question for E2' \
    "save:$T/judge2.bytes" >/dev/null || fail "E2 did not answer its judge: $(cat "$T/judge2.bytes")"
# muxd saves its state as it goes: what it holds must be muxd's.
jq -e .round "$T/state/state.json" >/dev/null && ! grep -q forged "$T/state/state.json" ||
	fail "state.json was forged: $(cat "$T/state/state.json")"
mctl round stop >/dev/null
tr=$(ls "$T"/state/transcripts/E2/*.TXT)
grep -q 'secret question for E2' $tr || fail "E2's transcript lacks the question"
grep -q 'E2 heard: secret question for E2' $tr || fail "E2's transcript lacks E2's answer"
grep -qi 'forged\|uid:\|denied' $tr && fail "E2's transcript has words not E2's: $(cat $tr)"
# Its logs are root's, out of the entries' reach.
[ "$(stat -c '%U %a' "$T/state/logs")" = "root 750" ] ||
	fail "the entries' logs directory is $(stat -c '%U %a' "$T/state/logs")"
muxd_stop
echo ok
