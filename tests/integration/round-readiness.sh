# A round starts only when every line it joins is up: with the entry's
# cable out, "round start" is refused, naming the line, its state and
# why, and nothing is linked; with --force it starts, what the judge types
# for the entry waits, and reaches it when the cable is back.
. tests/integration/lib.sh

for c in j1l j1r e1 c1; do cable $c; done
CABLES=1 RULES='rules = { convention = false; };' room1
muxd_start -f "$T/room.conf"
wait_port e1 up
unplug e1
wait_port e1 down

mctl round start 1 >"$T/out" 2>"$T/err" && fail "round 1 started with e1 down"
grep -q 'e1 (down' "$T/err" || fail "the refusal does not name e1 and its state: $(cat "$T/err")"
grep -q -- '--force' "$T/err" || fail "the refusal does not say how to go ahead: $(cat "$T/err")"
[ "$(mctl -j status | jq '.links | length')" = 0 ] || fail "a refused round left links"
[ "$(mctl -j status | jq '.round.active')" = false ] || fail "a refused round is marked running"

mctl round start 1 --force >/dev/null || fail "round start --force refused"
[ "$(mctl -j status | jq '.links | length')" = 2 ] || fail "round 1 with --force should make 2 links"
grep -q 'round 1 started with 1 line not up: e1' "$T/muxd.log" || fail "the forced start was not logged"
el=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .a')
tty "$T/$el" 'send:waiting for e1\r' >/dev/null
cable e1
wait_port e1 up 15
tty "$T/e1" 'expect:waiting for e1' >/dev/null || fail "what the judge typed did not reach e1 when it came back"
mctl round stop >/dev/null || fail "round stop failed"

# With every line up, no --force is needed.
mctl round start 1 >/dev/null || fail "round 1 refused with every line up: $(mctl round start 1 2>&1)"
echo ok
