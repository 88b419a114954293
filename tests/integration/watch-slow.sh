# A watcher that never reads is dropped once a megabyte waits for it, as
# muxctl(8) says, and its backlog freed at once: muxd does not keep it
# (its connection is closed), while a watcher that reads keeps every event.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
wait_port e1 up
round_start 1
J=$(facing E1)
fds() { ls /proc/"$MUXD_PID"/fd | wc -l; }
before=$(fds)
# socat -u sends the watch request and never reads what comes back.
(printf '{"v":1,"id":1,"cmd":"watch"}\n'; sleep 60) | socat -u - "UNIX-CONNECT:$SOCK" &
PIDS="$PIDS $!"
mctl -j watch >"$T/events" &
PIDS="$PIDS $!"
wait_for "[ \$(fds) -ge \$((before + 2)) ]" 5 || fail "the two watchers did not connect"
cat "$J" >/dev/null &
PIDS="$PIDS $!"
# About 3 MB of the entity's text, each chunk a "text" event.
head -c 3000000 /dev/zero | tr '\0' 'y' >"$T/bulk"
"$TOOLS/ttyio" -t 30000 "$T/e1" "send:$(head -c 60000 "$T/bulk")" >/dev/null
i=0
while [ $i -lt 50 ] && ! grep -q 'a client that does not read' "$T/muxd.log"; do
	"$TOOLS/ttyio" -t 30000 "$T/e1" "send:$(head -c 60000 "$T/bulk")" >/dev/null
	i=$((i + 1))
done
grep -q 'a client that does not read' "$T/muxd.log" || fail "the watcher that does not read was not dropped"
wait_for "[ \$(fds) = \$((before + 1)) ]" 5 ||
	fail "muxd keeps the dropped watcher: $(fds) descriptors, $before before"
kill -0 "$MUXD_PID" || fail "muxd died"
wait_for "grep -c '\"event\":\"text\"' '$T/events' | grep -qv '^0$'" 5 || fail "the reading watcher got no text events"
echo ok
