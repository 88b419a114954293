# Garbage on the control socket gets an error reply and the connection is
# closed; a valid but wrong request gets an error and the connection stays;
# the daemon carries on answering.
. tests/integration/lib.sh

cable a
cable b
muxd_start -s "$SOCK" --link "$T/a.dev" "$T/b.dev"
[ "$(stat -c %a "$SOCK")" = 660 ] || fail "control socket mode is $(stat -c %a "$SOCK"), not 660"

# Send lines on one connection; print every reply line until it closes.
talk() {
	printf "$1" | socat -t 2 - "UNIX-CONNECT:$SOCK"
}

for garbage in 'hello\n' '{"v":1,"cmd":\n' '[1,2,3]\n' '{"cmd":"status"}\n' \
    '{"v":2,"cmd":"status"}\n' '{"v":1,"cmd":42}\n' '\001\002\377\376\n'; do
	out=$(talk "$garbage""{\"v\":1,\"cmd\":\"status\"}\n")
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] ||
		fail "after garbage '$garbage' the connection stayed open: $out"
	printf '%s\n' "$out" | jq -e '.v == 1 and .ok == false and (.error | length > 0)' >/dev/null ||
		fail "garbage '$garbage' got no error reply: $out"
done

# A line of a megabyte without a newline.
head -c 1100000 /dev/zero | tr '\0' 'x' | socat -t 2 - "UNIX-CONNECT:$SOCK" >"$T/long" 2>/dev/null
jq -e '.ok == false' "$T/long" >/dev/null || fail "an endless line got no error reply"

# Unknown commands and bad arguments: an error, then the connection goes on.
out=$(talk '{"v":1,"id":7,"cmd":"launch"}\n{"v":1,"id":8,"cmd":"connect","a":"link1-a"}\n{"v":1,"id":9,"cmd":"status"}\n')
[ "$(printf '%s\n' "$out" | wc -l)" = 3 ] || fail "errors closed a good connection: $out"
printf '%s\n' "$out" | sed -n 1p | jq -e '.id == 7 and .ok == false and (.error | test("unknown command"))' >/dev/null ||
	fail "unknown command not explained: $out"
printf '%s\n' "$out" | sed -n 2p | jq -e '.id == 8 and .ok == false' >/dev/null || fail "bad arguments accepted: $out"
printf '%s\n' "$out" | sed -n 3p | jq -e '.id == 9 and .ok == true' >/dev/null || fail "status after errors failed: $out"

# muxctl send, and the daemon still forwards.
mctl send '{"v":1,"cmd":"status"}' | jq -e '.ok' >/dev/null || fail "muxctl send failed"
"$TOOLS/typer" -q "$T/a" "$T/b" 'still forwarding\r' || fail "daemon stopped forwarding"
kill -0 "$MUXD_PID" || fail "muxd died"
grep -q 'control: bad request' "$T/muxd.log" || fail "garbage not logged"
echo ok
