# No client holds a place on the control socket for nothing: one user
# has control_clients_per_user places at most (the next is refused with
# an error line that says why, other users are not), and a client that
# sends no request for control_idle seconds is told so and closed, where
# a watcher, waiting for events, is kept.
. tests/integration/lib.sh

room1
printf 'control_clients_per_user = 4;\ncontrol_idle = 0;\n' >>"$T/room.conf"
muxd_start -f "$T/room.conf"

# Hold N connections (idle, or watching with -w) until killed; say
# READY in FILE when they are open and answered.
hold() {
	/usr/bin/python3 - "$SOCK" "$@" <<'EOP' &
import json, socket, sys, time
path, n, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
watch = len(sys.argv) > 4
cs = []
for i in range(n):
    c = socket.socket(socket.AF_UNIX)
    c.connect(path)
    if watch:
        c.sendall(b'{"v":1,"id":1,"cmd":"watch"}\n')
        c.recv(65536)
    cs.append(c)
open(ready, "w").write("open %d\n" % n)
time.sleep(600)
EOP
	PIDS="$PIDS $!"
	LAST=$!
}

# One user's places: four, the fifth is refused and told why.
hold 4 "$T/held"
wait_for "[ -s '$T/held' ]" 10 || fail "four clients could not connect"
out=$(printf '{"v":1,"id":1,"cmd":"status"}\n' | socat -t 5 - "UNIX-CONNECT:$SOCK")
echo "$out" | jq -e '.ok == false and (.error | test("too many control clients of user 0 \\(control_clients_per_user = 4\\)"))' >/dev/null ||
	fail "a fifth client of one user: $out"
# Another user is not refused for it.
chmod 711 "$T"
out=$(printf '{"v":1,"id":1,"cmd":"status"}\n' | setpriv --reuid=65534 --regid=0 --clear-groups socat -t 5 - "UNIX-CONNECT:$SOCK" 2>&1)
echo "$out" | jq -e '.ok == true' >/dev/null || fail "another user, while root holds its four places: $out"
kill "$LAST"
wait_for "mctl status >/dev/null 2>&1" 10 || fail "the places were not given back"
grep -q "refusing clients: too many control clients of user 0" "$T/muxd.log" ||
	fail "the refusal is not in the log"

# Idle clients: closed after 2 s, told why; a watcher is kept.
sed -i 's/^control_idle = 0;/control_idle = 2;/' "$T/room.conf"
mctl reload >/dev/null || fail "reload failed"
hold 1 "$T/watching" -w
wait_for "[ -s '$T/watching' ]" 10 || fail "the watcher did not start"
WATCHER=$LAST
out=$(/usr/bin/python3 - "$SOCK" <<'EOP'
import socket, sys, time
c = socket.socket(socket.AF_UNIX)
c.connect(sys.argv[1])
c.settimeout(30)
t0 = time.monotonic()
got = b""
while True:
    d = c.recv(4096)
    if not d:
        break
    got += d
print("%s closed after %.1f" % (got.decode().strip(), time.monotonic() - t0))
EOP
)
echo "idle: $out"
case $out in
*'"error":"idle for 2 s: closed"'*"closed after"*) ;;
*) fail "an idle client: $out" ;;
esac
# A client that asks is answered as before.
mctl status >/dev/null || fail "muxctl after an idle client was closed"
# The watcher outlived the idle time (it has been open for more than
# the idle client's life) and still gets events.
kill -0 "$WATCHER" || fail "the watcher's holder ended"
/usr/bin/python3 - "$SOCK" <<'EOP' || fail "a watcher idle past control_idle"
import json, socket, sys, time
c = socket.socket(socket.AF_UNIX)
c.connect(sys.argv[1])
c.sendall(b'{"v":1,"id":1,"cmd":"watch"}\n')
c.settimeout(30)
buf = c.recv(65536)
time.sleep(3)
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b'{"v":1,"id":2,"cmd":"round.start","round":1}\n')
r = s.recv(65536)
assert b"\"ok\":true" in r, r
while b'"round' not in buf.split(b"\n", 1)[-1]:
    d = c.recv(65536)
    assert d, "the watcher was closed: %r" % buf[-300:]
    buf += d
print("the watcher, idle 3 s, got the round's events")
EOP
echo ok
