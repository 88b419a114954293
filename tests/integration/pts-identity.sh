# A port on a /dev/pts/N path takes only a pty muxd may take: never a
# session's controlling terminal (a login, a shell), and never another
# pty that got the number after the port's own went away (until a reload
# says so): both are refused, logged and shown in status.
. tests/integration/lib.sh

# A pty that is the controlling terminal of a program's session.
sleep 60 | socat STDIO "EXEC:sleep 61,pty,setsid,ctty" >/dev/null &
PIDS="$PIDS $!"
wait_for "pgrep -f '^sleep 61\$' >/dev/null" 5 || fail "no session on a pty"
login=$(readlink /proc/"$(pgrep -f '^sleep 61$' | head -1)"/fd/0)
case $login in /dev/pts/*) ;; *) fail "the session's terminal is $login" ;; esac
# A pty whose own path is configured, to be replaced by another one.
socat pty,raw,echo=0,link="$T/own" pty,raw,echo=0,link="$T/own.peer" &
own_pid=$!
PIDS="$PIDS $own_pid"
wait_for "[ -e '$T/own' ]" 5 || fail "no pty"
own=$(readlink "$T/own")
room <<EOC
control = "$SOCK"; state = "$T/state";
ports = ( { name = "login"; address = "$login"; },
          { name = "own"; address = "$own"; } );
EOC
muxd_start -f "$T/room.conf"
wait_port own up
wait_for "port_field login error | grep -q 'controlling terminal of process'" 5 ||
	fail "the login's pty was not refused: $(port_field login state) $(port_field login error)"
[ "$(port_field login state)" = down ] || fail "the login's pty is $(port_field login state)"

kill "$own_pid"
wait_port own down
socat pty,raw,echo=0,link="$T/new" pty,raw,echo=0,link="$T/new.peer" &
PIDS="$PIDS $!"
wait_for "[ -e '$T/new' ]" 5 || fail "no new pty"
if [ "$(readlink "$T/new")" = "$own" ]; then
	wait_for "port_field own error | grep -q 'another pseudo-terminal now'" 10 ||
		fail "another pty with the number was taken: $(port_field own state) $(port_field own error)"
	grep -q 'port own: .*another pseudo-terminal now' "$T/muxd.log" || fail "the refusal was not logged"
	mctl reload >/dev/null
	wait_port own up 15
else
	echo "the new pty got another number ($(readlink "$T/new")), the identity part is not exercised"
fi
echo ok
