# The text of a conversation reaches whoever watches now: muxd builds it
# only while someone watches (muxd(8)), so a watcher that comes after
# every other has gone, or the first one after a round has run a while
# unwatched, gets the lines typed from then on.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
LE=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .name')
# The control socket's clients, the one asking included.
clients() { mctl -j status | jq .control.clients; }

# Nobody watches: the round goes on.
tty -d 5 "$T/e1" 'type:Hello, my name is Ada and I am the human.\r\n' >/dev/null

# Watch, stop watching, watch again: each watcher gets what comes next.
for n in 1 2; do
	"$MUXCTL" -s "$SOCK" watch --text >"$T/text$n" 2>&1 &
	w=$!
	PIDS="$PIDS $w"
	# What is typed shows once the watch has begun (no other client
	# meanwhile, so nothing else tells muxd who watches).
	wait_for "tty -d 5 '$T/e1' 'type:line $n for the referee\\r\\n' >/dev/null &&
	    grep -qF -- '$LE E1: line $n for the referee' '$T/text$n'" 10 ||
		fail "watcher $n lacks the lines typed while it watched: $(cat "$T/text$n")"
	kill "$w"
	wait_for "[ \$(clients) = 1 ]" 5 || fail "watcher $n did not go"
	tty -d 5 "$T/e1" "type:unwatched $n\\r\\n" >/dev/null
done
kill -0 "$MUXD_PID" || fail "muxd died"
echo ok
