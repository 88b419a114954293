# Cable check: muxctl cablecheck writes a banner naming each unlinked port
# on its line and reports where each banner came back: on its own line (a
# loopback plug), on another line (the two are cabled to each other), or
# nowhere.  Ports in a link are skipped: nothing enters a conversation;
# so are exec: ports, an entry's program, whose input a banner would be.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

cable loop
cable left
cable right
cable term
cable busy1
cable busy2
cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
ports = (
  { name = "loop"; address = "$T/loop.dev"; },
  { name = "left"; address = "$T/left.dev"; },
  { name = "right"; address = "$T/right.dev"; },
  { name = "term"; address = "$T/term.dev"; },
  { name = "busy1"; address = "$T/busy1.dev"; },
  { name = "busy2"; address = "$T/busy2.dev"; },
  { name = "bot"; address = "exec:cat >&2"; }
);
EOC
muxd_start -f "$T/room.conf"
for p in loop left right term busy1 busy2 bot; do wait_port $p up; done
mctl connect busy1 busy2 >/dev/null || fail "cannot link busy1 and busy2"
# A loopback plug on "loop"; "left" and "right" cabled to each other.
bg socat "$T/loop,raw,echo=0" PIPE
bg socat "$T/left,raw,echo=0" "$T/right,raw,echo=0"
sleep 0.3

mctl -j cablecheck >"$T/cc.json" || fail "muxctl cablecheck failed"
r() { jq -r "select(.event == \"cablecheck\") | .results[] | select(.port == \"$1\") | .result + \" \" + (.heard_on | join(\",\"))" "$T/cc.json"; }
[ "$(r loop)" = "loopback loop" ] || fail "loop: $(r loop), not a loopback: $(cat "$T/cc.json")"
[ "$(r left)" = "cabled right" ] || fail "left: $(r left), not cabled to right"
[ "$(r right)" = "cabled left" ] || fail "right: $(r right), not cabled to left"
[ "$(r term)" = "silent " ] || fail "term: $(r term), not silent"
[ "$(jq -r 'select(.ok == true) | .result.skipped[] | select(.port == "busy1") | .link' "$T/cc.json")" = busy1=busy2 ] ||
	fail "busy1, in a link, was not skipped"
tty "$T/term" expect:'this line is port term, ' || fail "no banner on term"
tty "$T/busy2" quiet:300 || fail "a banner went into a linked line"
jq -r 'select(.ok == true) | .result.skipped[] | select(.port == "bot") | .skipped' "$T/cc.json" |
    grep -q 'entry program' || fail "the exec: port bot was not skipped as an entry program: $(cat "$T/cc.json")"
# What the entry reads it writes to its standard error, its log.
[ -e "$T/state/logs/bot.log" ] && ! grep -v '^muxd: ' "$T/state/logs/bot.log" | grep -q . ||
	fail "a banner went into the entry program: $(cat "$T/state/logs/bot.log" 2>&1)"

mctl cablecheck term loop >"$T/cc.txt" || fail "muxctl cablecheck (text) failed"
grep -q '^loop  *loopback  *loop$' "$T/cc.txt" || fail "text: $(cat "$T/cc.txt")"
grep -q '^term  *silent ' "$T/cc.txt" || fail "text: $(cat "$T/cc.txt")"
mctl cablecheck nosuch 2>"$T/err.txt" && fail "a check of an unknown port succeeded"
grep -q 'no port named nosuch' "$T/err.txt" || fail "error: $(cat "$T/err.txt")"
echo ok
