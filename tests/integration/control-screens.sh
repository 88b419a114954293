# The control command "screens": each link's judge's screen so far as its
# transcript has it (both sides, UTF-8 decoded with the entity's charset,
# the capture read again through the transcript's writer), one link by
# name, an unknown name refused, the capture's final verdicts with it;
# and a refused "round.start" reaches the
# watchers as a round.refused event with the reply's reason; events are
# numbered one by one, after the number a screen holds; a long
# conversation's screens come whole, to a client that closed its side
# too, and requests after them on one connection wait for their reply.
. tests/integration/lib.sh

screens() {
	printf '{"v":1,"id":1,"cmd":"screens"%s}\n' "${1:-}" |
	    socat -t2 - "UNIX-CONNECT:$SOCK"
}
ENTRY='eol = "lf"; charset = "utf-8";' room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
L=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .name')
tty "$J" 'type:Who goes there, Zoë?\r\r' >/dev/null
tty "$T/e1" 'expect:Who goes there' 'type:Hello, my name is Ada and I am the human. Très bien.\r\n' >/dev/null ||
	fail "the conversation did not go through"
wait_for "screens ',\"link\":\"$L\"' | jq -e '.result.links[0].screen | test(\"Très bien\")' >/dev/null" 5 ||
	fail "no screen of $L: $(screens ",\"link\":\"$L\"")"
screens ",\"link\":\"$L\"" >"$T/one"
jq -e --arg l "$L" '.ok and (.result.links | length) == 1 and .result.links[0].link == $l and
    .result.links[0].kind == "entry" and .result.links[0].entity == "E1" and .result.links[0].cut == 0' "$T/one" >/dev/null ||
	fail "screens of $L: $(cat "$T/one")"
jq -r '.result.links[0].screen' "$T/one" | grep -q '^JUDGE07\[..:..:..\]Who goes there, Zoë?$' ||
	fail "the judge's row is not on the screen: $(cat "$T/one")"
jq -r '.result.links[0].screen' "$T/one" | grep -q '^PROGRAM\[..:..:..\]Hello, my name is Ada and I am the human. Très bien.$' ||
	fail "the entity's row is not on the screen: $(cat "$T/one")"
# The capture's final verdicts come with the screen, for a page that
# arrives after them.
wait_for "screens ',\"link\":\"$L\"' | jq -e '.result.links[0].verdicts | any(.verdict == \"PASS\" and .kind == \"assertion\" and .final)' >/dev/null" 5 ||
	fail "no assertion verdict with the screen of $L: $(screens ",\"link\":\"$L\"" | jq -c .result.links[0].verdicts)"
screens | jq -e '.result.links | map(.kind) | sort == ["confederate", "entry"]' >/dev/null ||
	fail "screens of every link: $(screens)"
screens ',"link":"nope"' | jq -e '.ok == false and .error == "no link named nope"' >/dev/null ||
	fail "an unknown link: $(screens ',"link":"nope"')"
# A long conversation's screens are read off the loop and come whole,
# also to a client that closed its side once it asked (socat does): a
# reply of twice 15 KB.
long=$(i=1; while [ $i -le 100 ]; do printf 'line %03d %0190d\\r\\n' $i 0; i=$((i + 1)); done)
tty "$T/e1" "send:$long" >/dev/null
wait_for "screens ',\"link\":\"$L\"' | jq -e '.result.links[0].screen | test(\"line 100\")' >/dev/null" 10 ||
	fail "the long answer is not on the screen: $(screens ",\"link\":\"$L\"" | head -c 300)"
for i in 1 2 3 4 5; do
	screens >"$T/all"
	jq -e '.ok and (.result.links | length) == 2 and
	    (.result.links | map(select(.kind == "entry"))[0] |
	    (.screen | test("line 100")) and .cut > 0)' "$T/all" >/dev/null ||
		fail "the screens of a long conversation, asked $i: $(wc -c <"$T/all") bytes: $(tail -c 200 "$T/all")"
done
# Requests after a "screens" on one connection wait for its reply: the
# replies come in the order asked.
printf '{"v":1,"id":1,"cmd":"screens"}\n{"v":1,"id":2,"cmd":"status"}\n{"v":1,"id":3,"cmd":"screens","link":"%s"}\n' "$L" |
    socat -t5 - "UNIX-CONNECT:$SOCK" >"$T/three"
[ "$(jq -s -c 'map([.id, .ok])' "$T/three")" = '[[1,true],[2,true],[3,true]]' ] ||
	fail "three requests on one connection: $(jq -s -c 'map([.id, .ok, .error])' "$T/three")"
jq -s -e '.[1].result.control.screens >= 2 and (.[2].result.links | length) == 1' "$T/three" >/dev/null ||
	fail "the status or the last screens between them: $(jq -s -c '[.[1].result.control, (.[2].result.links | length)]' "$T/three")"
watch_events
mctl round start 2 >/dev/null 2>&1 && fail "round 2 started over round 1"
wait_for "grep -q '\"event\":\"round.refused\".*\"number\":2.*\"reason\":\"round 1 is running' '$T/events'" 5 ||
	fail "no round.refused event: $(cat "$T/events")"
# Events are numbered (seq) one by one, and a screen says the number of
# the last event it holds, so that a page shows no text twice.
S=$(screens ",\"link\":\"$L\"" | jq '.result.links[0].seq')
[ "$S" -ge 1 ] 2>/dev/null || fail "the screen has no seq: $S"
tty "$J" 'type:one more\r' >/dev/null
wait_for "grep -q '\"event\":\"text\"' '$T/events'" 5 || fail "no text event: $(cat "$T/events")"
jq -s -e --argjson s "$S" '(map(.seq) | . == [range(.[0]; .[0] + length)]) and
    (map(select(.event == "text")) | all(.seq > $s))' "$T/events" >/dev/null ||
	fail "events are not numbered one by one after the screen's $S: $(jq -c '[.event, .seq]' "$T/events")"
echo ok
