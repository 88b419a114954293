# tcp: ports take host names, looked up without holding up the loop: a
# name in /etc/hosts connects (each address it has tried in turn), and a
# name that does not resolve leaves the port down with the resolver's
# reason, retried with backoff, while the other links carry on.
. tests/integration/lib.sh

cable j
cable k
P=$(free_port)
bg socat TCP4-LISTEN:"$P",bind=127.0.0.1,reuseaddr PTY,link="$T/ent",raw,echo=0
wait_for "ss -Hltn 'sport = :$P' | grep -q ." 5 || fail "socat is not listening"
muxd_start -s "$SOCK" --link "$T/j.dev" "tcp:localhost:$P" \
    --link "$T/k.dev" "tcp:no-such-host.invalid:$P"
wait_port link1-b up
wait_for "[ -e '$T/ent' ]" 5 || fail "no connection reached the listener"
tty "$T/j" 'type:over tcp\r' >/dev/null
tty "$T/ent" 'expect:over tcp\r' 'send:and back\r' >/dev/null ||
	fail "the judge's keys did not cross the tcp link"
tty "$T/j" 'expect:and back\r' >/dev/null || fail "the entity's reply did not come back"

# The name that does not resolve: down, with the reason, and retried.
wait_for "[ \"\$(port_field link2-b state)\" = down ]" 40 ||
	fail "link2-b is $(port_field link2-b state), not down"
port_field link2-b error | grep -q '^no-such-host.invalid:'"$P"': ' ||
	fail "the error does not name the host: $(port_field link2-b error)"
[ "$(port_field link1-b state)" = up ] || fail "link 1 went down meanwhile"
echo ok
