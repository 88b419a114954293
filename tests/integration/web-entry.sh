# A web entry of the 2003 rules (comprog web): the judge's turn is posted
# as an HTML form to a local HTTP server, the reply taken from its page
# (id="reply", entities decoded) and typed to the judge a character at a
# time; an entry that answers in under five seconds is held back to five
# (rule 30), and the log says so; the session's cookie is kept.
. tests/integration/lib.sh

COMPROG=$ROOT/$B/comprog/comprog
RULES='rules = { assertion = "off"; };' room1
bg python3 "$ROOT/tests/tools/webentry.py" "$T/port" 0.2
wait_for "[ -s '$T/port' ]" 5 || fail "the web entry did not start"
URL=http://127.0.0.1:$(cat "$T/port")/
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
bg "$COMPROG" web --no-record --typing 10+-5 -l "$T/web.log" "$T/e1" "$URL"
wait_for "grep -q 'port line: up' '$T/web.log'" 5 || fail "comprog web: $(cat "$T/web.log")"
tty "$J" 'drain:200' >/dev/null
TTY_TIMEOUT=15000 tty -d 20 "$J" 'type:Hello there\r\r' 'expect:Echo: Hello there & more (turn 1)' >"$T/j.out" ||
	fail "no reply: $(cat "$T/j.out"; cat "$T/web.log")"
TTY_TIMEOUT=15000 tty -d 20 "$J" 'type:again\r\r' 'expect:Echo: again & more (turn 2)' >/dev/null ||
	fail "the session was not kept: $(cat "$T/web.log")"
grep -q "answered in 0\.[0-9] s, under rule 30's 5 s: held back to 5 s" "$T/web.log" ||
	fail "the early answer was not told: $(cat "$T/web.log")"
mctl round stop >/dev/null
cap=$(grep -l '"entity": "E1"' "$T"/state/captures/round01-*.cast)
# From the judge's second Return to the first character of the reply: at
# least five seconds; the reply came a character at a time.
jq -rs '[.[1:][] | select(.[1] == "i" or .[1] == "o")] as $e |
    ([$e[] | select(.[1] == "i" and .[2] == "\r")][1][0]) as $t |
    ([$e[] | select(.[1] == "o" and .[0] > $t)][0][0]) - $t' "$cap" >"$T/gap"
awk '{ exit !($1 >= 5.0 && $1 < 8.0) }' "$T/gap" || fail "the reply came $(cat "$T/gap") s after the turn"
n=$(jq -s '[.[1:][] | select(.[1] == "o")] | length' "$cap")
[ "$n" -ge 40 ] || fail "the reply came in $n pieces, not a character at a time"
grep -q '^PROGRAM\[[0-9:]*\]Echo: Hello there & more (turn 1)$' "$T"/state/transcripts/E1/*.TXT ||
	fail "transcript: $(cat "$T"/state/transcripts/E1/*.TXT)"
echo ok
