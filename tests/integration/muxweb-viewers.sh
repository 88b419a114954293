# muxweb serves a crowd: 500 browsers' event streams open at once are all
# taken, and a key typed at a judge's terminal reaches every one of them;
# muxweb's page and /status still answer meanwhile, the streams cost
# muxweb a few threads, not one each, and idle streams no CPU.  Browsers
# that go away are let go: a second crowd is taken after the first has
# left.  A muxd that does not answer holds back the requests that wait
# for it (64 at most, the next told 503), not the page or the streams.
# Under a low limit on open files, muxweb says how many it can take, and
# once full it lets go of the browsers that left within seconds.  A
# stream is sent a comment every 15 s.  muxweb stopped with a crowd attached ends their streams and
# exits 0.
# test: serial: it opens 500 streams three times and counts muxweb's CPU
. tests/integration/lib.sh

N=500
room1
muxd_start -f "$T/room.conf"
muxweb_start -c 2000
export MUXWEB_TOKEN=$WTOKEN
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
# One more browser, for the keepalive comment of every 15 s (checked last).
wcurl -sN "http://127.0.0.1:$W/events" >"$T/kept" &
PIDS="$PIDS $!"
round_start 1
J=$(facing E1)

# Open the crowd; wait until each stream has its reply's headers.
crowd() {
	python3 tests/tools/sseviewers.py -m "$2" -t 20 "$W" "$N" "$T/ready.$1" \
	    >"$T/saw.$1" 2>"$T/viewers.$1.err" &
	PIDS="$PIDS $!"
	_pid=$!
	wait_for "[ -e '$T/ready.$1' ]" 30 || fail "the $N streams were not all answered: $(cat "$T/viewers.$1.err")"
	[ "$(cat "$T/ready.$1")" = "open $N refused 0" ] ||
		fail "muxweb took $(cat "$T/ready.$1") of $N browsers' streams"
}

crowd 1 Z
nthreads=$(ls /proc/"$WEB"/task | wc -l)
[ "$nthreads" -le 16 ] || fail "muxweb runs $nthreads threads for $N streams"
wcurl -sf "http://127.0.0.1:$W/status" | jq -e .round >/dev/null ||
	fail "/status does not answer with $N streams open"
wcurl -sf "http://127.0.0.1:$W/" | grep -q "<html" ||
	fail "the page does not load with $N streams open"
# Idle streams cost no CPU: muxweb sleeps while nothing happens.  A
# machine under load may lend it work of the moment in any one second,
# not in every one: one second of 5 ticks or less, of up to 5, is enough.
w=0
while :; do
	t0=$(awk '{ print $14 + $15 }' /proc/"$WEB"/stat)
	sleep 1
	t1=$(awk '{ print $14 + $15 }' /proc/"$WEB"/stat)
	[ $((t1 - t0)) -le 5 ] && break
	w=$((w + 1))
	[ "$w" -lt 5 ] || fail "muxweb used $((t1 - t0)) ticks in a second of $N idle streams, $w seconds in a row"
done
tty "$J" send:Z >/dev/null
wait "$_pid"
[ "$(cat "$T/saw.1")" = "saw $N of $N" ] ||
	fail "the key reached $(cat "$T/saw.1") streams"

# The first crowd has gone: a second one is taken whole.
crowd 2 Y
tty "$J" send:Y >/dev/null
wait "$_pid"
[ "$(cat "$T/saw.2")" = "saw $N of $N" ] ||
	fail "after a crowd left, the key reached $(cat "$T/saw.2") streams"

# muxd stopped: /status waits for it, the page and a new stream do not.
# 64 such requests wait at most: the next is told 503 at once.
kill -STOP "$MUXD_PID"
waiting=
for i in $(seq 64); do
	wcurl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$W/status" >>"$T/codes" &
	waiting="$waiting $!"
done
PIDS="$PIDS $waiting"
sleep 0.5
code=$(timeout 2 curl -H "Authorization: Bearer $WTOKEN" -s -o "$T/busy" -w '%{http_code}' "http://127.0.0.1:$W/status")
[ "$code" = 503 ] || fail "a 65th request waiting for muxd was answered '$code', not 503"
jq -e '.error | test("64 requests already wait for muxd")' "$T/busy" >/dev/null ||
	fail "the 503 does not say why: $(cat "$T/busy")"
timeout 2 curl -H "Authorization: Bearer $WTOKEN" -sf "http://127.0.0.1:$W/" | grep -q "<html" ||
	fail "the page waits for a muxd that does not answer"
timeout 2 curl -H "Authorization: Bearer $WTOKEN" -sN "http://127.0.0.1:$W/events" -D "$T/hdr" -o /dev/null
grep -q "^HTTP/1.1 200" "$T/hdr" ||
	fail "a stream waits for a muxd that does not answer: $(cat "$T/hdr")"
kill -CONT "$MUXD_PID"
wait $waiting
[ "$(grep -c '^200$' "$T/codes")" = 64 ] ||
	fail "the 64 requests that waited for muxd: $(sort "$T/codes" | uniq -c)"

# The stream open from the start was sent its keepalive comment.
wait_for "grep -q '^: muxweb' '$T/kept'" 20 ||
	fail "no keepalive comment on a stream open for 15 s: $(cat "$T/kept")"

# Under a low limit on open files muxweb says how many it can take.
W2=$(free_port)
prlimit --nofile=256:256 "$ROOT/$B/muxweb/muxweb" -s "$SOCK" -l "$W2" \
    -t "$T/web.token" -c 2000 2>"$T/web2.err" &
PIDS="$PIDS $!"
wait_for "wcurl -sf http://127.0.0.1:$W2/status >/dev/null" 5 ||
	fail "muxweb under 256 open files does not answer: $(cat "$T/web2.err")"
grep -q "^muxweb: 112 connections at most, not 2000: the limit on open files (RLIMIT_NOFILE)" "$T/web2.err" ||
	fail "muxweb under 256 open files did not say its limit: $(cat "$T/web2.err")"
# Full, it lets go of the browsers that went away within seconds, not
# at the next line or keepalive (15 s after its start): a new crowd that
# comes once they left is taken whole at once.
python3 tests/tools/sseviewers.py "$W2" 112 "$T/ready.w2a" 2>"$T/viewers.w2a.err" &
_pid=$!
PIDS="$PIDS $_pid"
wait_for "[ -e '$T/ready.w2a' ]" 10 || fail "112 streams were not answered under 256 open files"
[ "$(cat "$T/ready.w2a")" = "open 112 refused 0" ] ||
	fail "muxweb under 256 open files took $(cat "$T/ready.w2a") of 112 streams"
kill "$_pid"
python3 tests/tools/sseviewers.py "$W2" 112 "$T/ready.w2b" 2>"$T/viewers.w2b.err" &
PIDS="$PIDS $!"
wait_for "[ -e '$T/ready.w2b' ]" 4 ||
	fail "a full muxweb did not let go of 112 browsers that went away: a new crowd waited"
[ "$(cat "$T/ready.w2b")" = "open 112 refused 0" ] ||
	fail "after 112 browsers went away, muxweb took $(cat "$T/ready.w2b") of 112"

# Stopped with a crowd attached: the streams end, muxweb exits 0.
python3 tests/tools/sseviewers.py "$W" "$N" "$T/ready.3" 2>"$T/viewers.3.err" &
PIDS="$PIDS $!"
_pid=$!
wait_for "[ -e '$T/ready.3' ]" 30 || fail "the third crowd was not answered"
kill -TERM "$WEB"
wait_for "! kill -0 $WEB" 10 || fail "muxweb did not stop with $N streams open"
wait "$WEB"
st=$?
[ "$st" = 0 ] || fail "muxweb exited $st when stopped with $N streams open"
wait_for "! kill -0 $_pid" 5 || fail "muxweb's stop did not end the streams"
echo ok
