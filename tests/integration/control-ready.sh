# The control socket appears only once muxd listens on it: a script that
# waits for the path and then runs muxctl (as operators' scripts and
# service managers do) never finds a socket that refuses it.  Here muxd's
# listen(2) is held back for 2 s (strace), the widest a busy host could
# make the moment between bind(2) and listen(2); muxctl is run the moment
# the path exists.
. tests/integration/lib.sh

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
# LeakSanitizer cannot work under ptrace.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
cable judge
cable entity
strace -f -qq -o /dev/null -e trace=listen -e inject=listen:delay_enter=2000000 \
    "$MUXD" -v -s "$SOCK" --link "$T/judge.dev" "$T/entity.dev" >>"$T/muxd.log" 2>&1 &
WRAP_PID=$!
PIDS="$PIDS $WRAP_PID"

i=0
while [ ! -S "$SOCK" ] && [ $i -lt 1000 ]; do
	kill -0 "$WRAP_PID" 2>/dev/null || fail "muxd exited at start-up"
	sleep 0.01
	i=$((i + 1))
done
[ -S "$SOCK" ] || fail "no control socket at $SOCK after 10 s"
# muxd itself, so that it is stopped whatever happens next.
MUXD_PID=$(pgrep -P "$WRAP_PID") || fail "no muxd under strace"
mctl -j status >"$T/status" 2>"$T/status.err" ||
    fail "muxctl was refused by a control socket that had appeared: $(cat "$T/status.err")"
jq -e '.ports | length == 2' "$T/status" >/dev/null ||
    fail "status does not show the two ports: $(cat "$T/status")"
[ ! -e "$SOCK~" ] || fail "the temporary name $SOCK~ was left behind"

muxd_stop
[ ! -e "$SOCK" ] || fail "the control socket was left behind at exit"
echo "ok: muxctl answered the moment the control socket appeared"
