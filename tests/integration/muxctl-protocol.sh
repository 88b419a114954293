# The control protocol has one table of commands (protocol/protocol.c):
# muxd's refusal of an unknown command names every command of it, and
# muxctl runs each of them by that name.  "muxctl ports --local" runs
# "muxd --ports" (found as $MUXD) and fails clearly when it cannot.
. tests/integration/lib.sh

cable a
cable b
muxd_start -s "$SOCK" --link "$T/a.dev" "$T/b.dev"

# Every wire name in the table, from the source itself.
sed -n 's/^\t\[PROTOCOL_CMD_[A-Z_]*\] = "\([a-z.]*\)",\{0,1\}$/\1/p' protocol/protocol.c >"$T/cmds"
[ "$(wc -l <"$T/cmds")" -ge 11 ] || fail "could not read the command table: $(cat "$T/cmds")"
err=$(mctl send '{"v":1,"id":1,"cmd":"launch"}' | jq -r '.error')
while read -r c; do
	case ", $(printf '%s' "$err" | sed 's/.*(//; s/)$//'), " in
	*", $c, "*) ;;
	*) fail "unknown-command reply does not list '$c': $err" ;;
	esac
done <"$T/cmds"

# Each command of the table is known to muxd (no "unknown command").
while read -r c; do
	r=$(mctl send "{\"v\":1,\"id\":2,\"cmd\":\"$c\"}") || true
	printf '%s\n' "$r" | grep -q 'unknown command' && fail "muxd does not know '$c': $r"
done <"$T/cmds"

# ports --local through muxd --ports.
MUXD="$MUXD" "$MUXCTL" -j ports --local >"$T/local.json" || fail "ports --local failed"
jq -e '.ports | type == "array"' "$T/local.json" >/dev/null ||
	fail "ports --local printed no list: $(cat "$T/local.json")"
"$MUXD" --ports | jq -e 'type == "array"' >/dev/null || fail "muxd --ports printed no list"
MUXD="$T/no-such-muxd" "$MUXCTL" ports --local >"$T/out" 2>"$T/err" &&
	fail "ports --local succeeded without a muxd to run"
grep -q 'no-such-muxd' "$T/err" || fail "ports --local did not name what it could not run: $(cat "$T/err")"
echo ok
