#!/bin/sh
# muxctl against canned replies: socat serves a unix socket in a temporary
# directory and answers every connection with the file $T/reply, in which
# @ID@ stands for the id of the request it got.  Checks muxctl's output and
# exit status for: a status reply (text and -j), round start, events before
# the reply, watch, send, a long reply, an error reply (1), usage errors (2),
# no daemon (3), and a closed connection, a malformed or overlong reply (4).
#
# Run from the repository root: B=build sh tests/integration/muxctl-client.sh
. tests/integration/lib.sh

command -v socat >/dev/null 2>&1 || fail "socat is not installed"
[ -x "$MUXCTL" ] || fail "$MUXCTL is not built"

# Local times in the expected outputs are in UTC.
TZ=UTC
export TZ
unset MUXD_SOCKET

# The fake daemon, run in $T so that its socat addresses need no quoting:
# log the request line, answer with the reply file, hang up.
cat >"$T/serve.sh" <<'EOF'
IFS= read -r req
printf '%s\n' "$req" >>req
id=$(printf '%s\n' "$req" | sed -n 's/.*"id":\("[^"]*"\).*/\1/p')
sed "s/@ID@/${id:-null}/g" reply
EOF
: >"$T/reply"
bg sh -c 'cd "$1" && exec socat UNIX-LISTEN:ctl.sock,fork,unlink-early \
    SYSTEM:"sh serve.sh" 2>socat.err' sh "$T"
wait_for "[ -S '$SOCK' ]" 5 ||
	fail "socat did not listen on $SOCK: $(cat "$T/socat.err")"

# reply TEXT: the canned reply for the next connections.
reply() {
	printf '%s\n' "$1" >"$T/reply"
}

# run ARGS...: run muxctl on the test socket; sets rc, $T/out and $T/err.
run() {
	: >"$T/req"
	rc=0
	"$MUXCTL" -s "$SOCK" "$@" >"$T/out" 2>"$T/err" || rc=$?
}

# expect_rc WHAT RC: expect exit status RC.
expect_rc() {
	[ "$rc" = "$2" ] ||
	    fail "$1: expected exit status $2, got $rc; stderr: $(cat "$T/err")"
}

# expect_out WHAT TEXT: expect stdout to be exactly TEXT and a newline.
expect_out() {
	printf '%s\n' "$2" >"$T/want"
	cmp -s "$T/want" "$T/out" || fail "$1: expected output:
$(cat "$T/want")
--- seen:
$(cat "$T/out")"
}

# expect_err WHAT TEXT: expect stderr to contain TEXT.
expect_err() {
	grep -F -e "$2" "$T/err" >/dev/null ||
	    fail "$1: expected '$2' on stderr, seen: $(cat "$T/err")"
}

# expect_req WHAT TEXT: expect the request line to contain TEXT.
expect_req() {
	grep -F -e "$2" "$T/req" >/dev/null ||
	    fail "$1: expected '$2' in the request, seen: $(cat "$T/req")"
}

# 2004-09-18 10:00:00 UTC
t0=1095501600

STATUS_RESULT='{"version":"0.1.0","config":"/etc/muxd.conf","round":{"active":true,"number":3,"seed":42,"started":'$t0',"ends":'$((t0 + 1500))',"placements":[{"station":"J1","judge":1,"left":"E1","right":"C1"}]},"ports":[{"name":"j1-left","address":"/dev/ttyUSB0,baud=9600","kind":"device","state":"up","error":null,"bytes_in":1234,"bytes_out":56789,"dropped":0,"unrouted":0,"queued":0,"downs":0,"last_in":null,"last_out":null,"since":'$t0'.5,"link":"J1-left"},{"name":"j1-right","address":"/dev/ttyUSB1,baud=9600","kind":"device","state":"down","error":"open: No such file or directory","bytes_in":0,"bytes_out":0,"dropped":12,"unrouted":3,"queued":100,"downs":2,"last_in":null,"last_out":null,"since":'$t0',"link":null},{"name":"e1","address":"exec:/usr/games/eliza","kind":"exec","state":"up","error":null,"bytes_in":5,"bytes_out":7,"dropped":0,"unrouted":0,"queued":0,"downs":0,"last_in":null,"last_out":null,"since":'$t0',"link":"J1-left"}],"links":[{"name":"J1-left","a":"j1-left","b":"e1","origin":"round","round":3,"station":"J1","side":"left","entity":"E1","kind":"entry","since":'$t0'}]}'

# status: the round line, the ports with the down port's error, the links.
reply '{"v":1,"id":@ID@,"ok":true,"result":'"$STATUS_RESULT"'}'
run status
expect_rc status 0
expect_req status '"cmd":"status"'
expect_req status '"v":1'
expect_out status "round 3 running since 2004-09-18 10:00:00, ends 2004-09-18 10:25:00, seed 42

NAME      STATE    IN    OUT  DROP  QUEUED  LAST-ACTIVITY  LINK     ADDRESS
j1-left   up     1234  56789     0       0  -              J1-left  /dev/ttyUSB0,baud=9600
j1-right  down      0      0    12     100  -              -        /dev/ttyUSB1,baud=9600
    error: open: No such file or directory
e1        up        5      7     0       0  -              J1-left  exec:/usr/games/eliza

NAME     A        B   ORIGIN  ROUND  STATION  SIDE  ENTITY
J1-left  j1-left  e1  round       3  J1       left  E1"

# -j status: the result exactly as sent, on one line.
run -j status
expect_rc "-j status" 0
expect_out "-j status" "$STATUS_RESULT"

# Events and another client's reply before ours are skipped.
printf '%s\n' \
    '{"v":1,"event":"port.up","time":1095501600.5,"port":"e1"}' \
    '{"v":1,"id":"someone-else","ok":false,"error":"not yours"}' \
    '{"v":1,"id":@ID@,"ok":true,"result":{"config":"/etc/muxd.conf"}}' \
    >"$T/reply"
run reload
expect_rc "reload after an event" 0
expect_out "reload after an event" "reloaded /etc/muxd.conf"

# round start: the number is sent as an integer, the placements printed.
reply '{"v":1,"id":@ID@,"ok":true,"result":{"active":true,"number":3,"seed":42,"started":'$t0',"ends":null,"placements":[{"station":"J1","judge":1,"left":"E1","right":"C1"},{"station":"J2","judge":2,"left":"C2","right":"E3"}]}}'
run round start 3
expect_rc "round start" 0
expect_req "round start" '"cmd":"round.start"'
expect_req "round start" '"round":3'
expect_out "round start" "round 3 started at 2004-09-18 10:00:00, no time limit, seed 42
J1 (judge 1): left E1, right C1
J2 (judge 2): left C2, right E3"

# schedule: the rules' table.
reply '{"v":1,"id":@ID@,"ok":true,"result":{"preset":"loebner2004","duration":1500,"rounds":[{"round":1,"pairs":[{"station":"J1","judge":1,"entry":"E1","confederate":"C1"},{"station":"J2","judge":2,"entry":"E3","confederate":"C2"},{"station":"J3","judge":3,"entry":"E2","confederate":"C4"}],"excused":"J4 C3"},{"round":6,"pairs":[{"station":"J1","judge":1,"entry":"E4","confederate":"C4"}],"excused":"J2 J3 J4 C1 C2 C3"}]}}'
run schedule
expect_rc schedule 0
expect_out schedule "schedule: preset loebner2004, rounds of 25 min
1  J1:E1:C1 J2:E3:C2 J3:E2:C4   excused J4 C3
6  J1:E4:C4                     excused J2 J3 J4 C1 C2 C3"

# watch: events after the reply, one line each, until muxd hangs up.
printf '%s\n' \
    '{"v":1,"event":"early","time":1095501599}' \
    '{"v":1,"id":@ID@,"ok":true,"result":{"watching":true}}' \
    '{"v":1,"event":"port.down","time":1095501601.234,"port":"j1-right","error":"No such device"}' \
    '{"v":1,"event":"link.up","time":1095501602,"link":"J1-left","a":"j1-left","b":"e1","round":3,"station":null}' \
    >"$T/reply"
run watch --events
expect_rc "watch --events" 0
expect_req "watch --events" '"cmd":"watch"'
expect_out "watch --events" '10:00:01.234 port.down port=j1-right error="No such device"
10:00:02.000 link.up link=J1-left a=j1-left b=e1 round=3 station=-'

run -j watch
expect_rc "-j watch" 0
expect_out "-j watch" '{"v":1,"event":"port.down","time":1095501601.234,"port":"j1-right","error":"No such device"}
{"v":1,"event":"link.up","time":1095501602,"link":"J1-left","a":"j1-left","b":"e1","round":3,"station":null}'

# watch for people: a judge's keys, one text event each, are one line.
printf '%s\n' \
    '{"v":1,"id":@ID@,"ok":true,"result":{"watching":true}}' \
    '{"v":1,"event":"text","time":1095501603,"link":"J1-left","entity":"E1","judge":7,"who":"judge","text":"H"}' \
    '{"v":1,"event":"text","time":1095501603.1,"link":"J1-left","entity":"E1","judge":7,"who":"judge","text":"i"}' \
    '{"v":1,"event":"text","time":1095501603.2,"link":"J1-left","entity":"E1","judge":7,"who":"judge","text":"!"}' \
    '{"v":1,"event":"text","time":1095501603.3,"link":"J1-left","entity":"E1","judge":7,"who":"judge","text":"\r"}' \
    >"$T/reply"
run watch
expect_rc watch 0
expect_out watch '10:00:03 J1-left JUDGE07> Hi!'

# A reply longer than a socket buffer, in many reads.
long=$(dd if=/dev/zero bs=1000 count=60 2>/dev/null | tr '\0' a)
reply '{"v":1,"id":@ID@,"ok":true,"result":{"config":"/'"$long"'"}}'
run reload
expect_rc "long reply" 0
expect_out "long reply" "reloaded /$long"

# send: the raw reply line, whatever its id.
reply '{"v":1,"id":5,"ok":true,"result":{"number":3}}'
run send '{"v":1,"id":5,"cmd":"round.stop"}'
expect_rc send 0
expect_req send '{"v":1,"id":5,"cmd":"round.stop"}'
expect_out send '{"v":1,"id":5,"ok":true,"result":{"number":3}}'

# An error reply: exit 1, the message on stderr, nothing on stdout.
reply '{"v":1,"id":@ID@,"ok":false,"error":"no such port: j9-left"}'
run connect j9-left e1
expect_rc "error reply" 1
expect_req "error reply" '"a":"j9-left"'
expect_req "error reply" '"b":"e1"'
expect_err "error reply" "muxctl: no such port: j9-left"
[ -s "$T/out" ] && fail "error reply: expected nothing on stdout, seen: $(cat "$T/out")"

# Usage errors: exit 2 with the usage, and nothing sent.
for args in "" "frobnicate" "round" "round start" "round start 0" \
    "round start -3" "round start 3x" "round start 99999999999" \
    "round stop 3" "connect j1-left" "disconnect" "status extra" "-x status"; do
	# shellcheck disable=SC2086
	run $args
	expect_rc "usage '$args'" 2
	expect_err "usage '$args'" "usage: muxctl [-j] [-s socket] status"
	[ -s "$T/req" ] && fail "usage '$args': expected no request, seen: $(cat "$T/req")"
done
run round start x
expect_err "round start x" "not a positive integer: x"

# No daemon: exit 3, naming the socket and the reason.
rc=0
"$MUXCTL" -s "$T/nosock" status >"$T/out" 2>"$T/err" || rc=$?
expect_rc "no daemon" 3
expect_err "no daemon" "muxctl: $T/nosock: No such file or directory (is muxd running?)"
rc=0
MUXD_SOCKET=$T/nosock "$MUXCTL" status >"$T/out" 2>"$T/err" || rc=$?
expect_rc "no daemon via MUXD_SOCKET" 3
expect_err "no daemon via MUXD_SOCKET" "$T/nosock: No such file or directory"

# A malformed reply: exit 4.
reply 'this is not JSON'
run status
expect_rc "malformed reply" 4
expect_err "malformed reply" "malformed reply"

reply '{"v":1,"id":@ID@,"result":{}}'
run status
expect_rc "reply without ok" 4
expect_err "reply without ok" "malformed reply"

reply '{"v":2,"id":@ID@,"ok":true,"result":{}}'
run status
expect_rc "protocol version 2" 4

# The connection closed before a reply: exit 4.
: >"$T/reply"
run status
expect_rc "closed connection" 4
expect_err "closed connection" "connection closed before a reply"

# A reply line over 65536 bytes: exit 4.
long=$(dd if=/dev/zero bs=1000 count=66 2>/dev/null | tr '\0' a)
reply '{"v":1,"id":@ID@,"ok":true,"result":{"config":"/'"$long"'"}}'
run reload
expect_rc "overlong reply" 4
expect_err "overlong reply" "longer than 65536 bytes"

exit 0
