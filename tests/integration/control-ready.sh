# The control socket appears only once muxd listens on it: a script that
# waits for the path and then runs muxctl (as operators' scripts and
# service managers do) never finds a socket that refuses it.  Here muxd's
# listen(2) is held back for 2 s (strace), the widest a busy host could
# make the moment between bind(2) and listen(2); muxctl is run the moment
# the path exists.  The longest path allowed is taken, one more refused.
. tests/integration/lib.sh

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
cable judge
cable entity
MUXD_WRAP="strace -f -qq -o /dev/null -e trace=listen -e inject=listen:delay_enter=2000000" \
    muxd_spawn -s "$SOCK" --link "$T/judge.dev" "$T/entity.dev"
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 1000 ]; do
	kill -0 "$MUXD_PID" 2>/dev/null || fail "muxd exited at start-up"
	sleep 0.01
	i=$((i + 1))
done
[ -S "$SOCK" ] || fail "no control socket at $SOCK after 10 s"
mctl -j status >"$T/status" 2>"$T/status.err" ||
    fail "muxctl was refused by a control socket that had appeared: $(cat "$T/status.err")"
jq -e '.ports | length == 2' "$T/status" >/dev/null ||
    fail "status does not show the two ports: $(cat "$T/status")"
[ ! -e "$SOCK~" ] || fail "the temporary name $SOCK~ was left behind"
muxd_stop
[ ! -e "$SOCK" ] || fail "the control socket was left behind at exit"

# A path of 106 bytes is the longest: its temporary name takes one more
# of the 108 of a unix socket address, the last being the NUL.
long=$T/$(printf '%0*d' $((105 - ${#T})) 0)
[ ${#long} = 106 ] || fail "test: the long path is ${#long} bytes"
muxd_start -s "$long" --link "$T/judge.dev" "$T/entity.dev"
[ -S "$long" ] || fail "no control socket at a path of 106 bytes"
muxd_stop
if "$MUXD" -s "${long}x" --link "$T/judge.dev" "$T/entity.dev" >"$T/out" 2>&1; then
	fail "muxd took a control socket path of 107 bytes"
fi
grep -qF "control socket path ${long}x is too long (at most 106 bytes)" "$T/out" ||
    fail "a path of 107 bytes: expected that it is too long, got: $(cat "$T/out")"
echo "ok: muxctl answered the moment the control socket appeared"
