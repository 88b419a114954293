# A browser that comes only after the round ended still sees its
# conversations, marked ended: muxweb asks muxd for the screens when a
# link's first text comes (and again before its ring forgets), not only
# when a browser arrives, since muxd has no screen of a link that ended.
. tests/integration/lib.sh

ENTRY='eol = "lf";' room1
muxd_start -f "$T/room.conf"
muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
round_start 1
J=$(facing E1)
tty "$J" 'type:Who goes there?\r\r' >/dev/null
tty "$T/e1" 'expect:Who goes there' 'type:Hello, my name is Ada and I am the human.\r\n' >/dev/null ||
	fail "the conversation did not go through"
# Once muxweb has asked muxd for the screens (muxd counts the requests),
# the round ends; no browser came meanwhile.
wait_for "[ \"\$(mctl -j status | jq .control.screens)\" -ge 1 ]" 20 ||
	fail "muxweb did not ask for the screens when the text came"
mctl round stop >/dev/null || fail "round stop failed"
L=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .name' 2>/dev/null)
[ -n "$L" ] || L=$(grep -o 'link J1-[a-z]*: j1[lr] <-> e1' "$T/muxd.log" | head -1 | sed 's/link \(J1-[a-z]*\):.*/\1/')
[ -n "$L" ] || fail "no link of E1 in the log"
browser_run muxweb-late "$W" "$L" "$WTOKEN" <<'EOP'
import sys
from webdriver import Browser
d, png, w, link, token = sys.argv[1:]
b = Browser(int(d))
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js("var e = document.querySelector('#link-%s'); return e && e.classList.contains('ended') && e.textContent.includes('Who goes there?') && e.textContent.includes('I am the human')" % link, 10)
    b.screenshot(png)
    assert v, "a late browser does not see the ended conversation: %r" % b.js("return document.getElementById('stations').textContent")
    print("a browser after the round's end sees its conversation, ended")
finally:
    b.quit()
EOP
echo ok
