# muxweb's audit page in a real browser (headless chromium): a round is
# recorded, then the page lists its captures, plays one with
# asciinema-player (from the npm registry, make web-player) until the
# conversation's text is on the player's screen, draws each speaker's
# typing cadence, and shows what transcripts verify says of it; the
# round index shows who met whom with the verdicts, and the round
# manifests verify with the room's key.  Nothing
# outside the captures' directory is served.  A screenshot is kept in
# build/test-logs.
. tests/integration/lib.sh

PLAYER=$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle
[ -f "$PLAYER/asciinema-player.min.js" ] || fail "asciinema-player is not installed (make web-player)"
ENTRY='eol = "lf";' room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
tty "$J" 'type:Who goes there?\r\r' >/dev/null
tty "$T/e1" 'expect:Who goes there?' 'type:Hello, my name is Ada and I am the human\r\n' >/dev/null ||
	fail "the conversation did not go through"
sleep 0.3
mctl round stop >/dev/null || fail "round stop failed"
C=$T/state/captures
cap=$(cd "$C" && grep -l '"E1"' ./*.cast | head -1 | sed 's|^\./||')
[ -n "$cap" ] || fail "no capture of E1"
ln -s /etc/passwd "$C/evil.cast"
curl_manifests() { curl -sf "http://127.0.0.1:$W/audit/manifests"; }

W=$(free_port)
PATH=$ROOT/$B/transcripts:$PATH bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" \
    -l "$W" -a "$C" -p "$PLAYER" -k "$T/state/room.pub"
wait_for "curl -sf http://127.0.0.1:$W/audit/list >/dev/null" 5 || fail "muxweb does not answer"
for bad in /audit/cast/..%2fstate.json /audit/cast/evil.cast /audit/cast/../state.json /player/..%2f..%2fpasswd; do
	code=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "http://127.0.0.1:$W$bad")
	[ "$code" = 404 ] || fail "$bad was served ($code)"
done
curl -sf "http://127.0.0.1:$W/audit/list" | jq -e ".[] | select(.name == \"$cap\")" >/dev/null ||
	fail "the list lacks $cap: $(curl -s "http://127.0.0.1:$W/audit/list")"
# A manifest changed: the page's status turns bad.  While muxd runs the
# chain is open, intact so far (4).
curl_manifests | jq -e '.status == 4' >/dev/null || fail "manifests: $(curl_manifests)"
cp "$T/state/manifests/manifest-0002.json" "$T/m2"
sed -i 's/"round 1 end"/"round 9 end"/' "$T/state/manifests/manifest-0002.json"
curl_manifests | jq -e '.status == 1 and (.output | test("manifest-0002.json: signature: the signature does not match"))' >/dev/null ||
	fail "a changed manifest: $(curl_manifests)"
cp "$T/m2" "$T/state/manifests/manifest-0002.json"
browser_run muxweb-audit "$W" "$cap" <<'EOP'
import sys
from webdriver import Browser
d, png, w, cap = sys.argv[1:]
b = Browser(int(d))
try:
    b.go("http://127.0.0.1:%s/audit" % w)
    row = "document.getElementById('cap-%s')" % cap
    v, _ = b.wait_js("return !!" + row, 10)
    assert v, "the audit page does not list %s" % cap
    b.js(row + ".click()")
    screen = "return (document.querySelector('.ap-term') || {}).textContent || ''"
    v, _ = b.wait_js(screen + ".includes('I am the human') ? 'yes' : ''", 15)
    if not v: b.screenshot(png)
    assert v, "the capture did not play: %r" % b.js("return document.getElementById('player').innerHTML.slice(0, 1500)")
    bars = "return document.querySelectorAll('svg.cadence rect.bar').length"
    v, _ = b.wait_js(bars, 5)
    assert v and v >= 18, "no cadence histograms (%r bars)" % v
    judge = "return document.querySelector('svg.cadence[data-who=judge] text').textContent"
    assert "intervals" in b.js(judge), b.js(judge)
    entity = "return document.getElementById('cap-%s').children[2].textContent" % cap
    assert b.js(entity) == "E1", "the list names %r, not E1" % b.js(entity)
    status = "return document.getElementById('verify').getAttribute('data-status')"
    v, _ = b.wait_js(status, 10)
    out = b.js("return document.getElementById('verify').textContent")
    assert v == "3", "verify says %s: %s" % (v, out)  # alone: unverified
    print("verify status", v, b.js("return document.getElementById('verify').textContent"))
    # The round index: E1 met judge 7 in round 1, its capture sealed.
    row = "document.getElementById('index-1-J1-%s')" % ("left" if "left" in cap else "right")
    v, _ = b.wait_js("return !!" + row, 10)
    assert v, "no round index row: %r" % b.js("return document.getElementById('index').innerHTML.slice(0, 800)")
    cells = b.js("return Array.from(%s.children).map(function (c) { return c.textContent; })" % row)
    assert cells[2] == "7" and cells[3] == "E1 (entry)" and cells[5] == "sealed", cells
    assert "assertion" in cells[4], cells
    # The round manifests: the round's end sealed them, signed.
    ms = "return document.getElementById('mstatus').getAttribute('data-status')"
    v, _ = b.wait_js(ms, 10)
    mout = b.js("return document.getElementById('moutput').textContent")
    assert v == "4", "manifests: %s: %s" % (v, mout)  # muxd runs: open
    assert "signed: muxd manifest 2: round 1 end" in mout, mout
    b.screenshot(png)
finally:
    b.quit()
EOP

# Without the player, the page says so in its place, and how to add it.
W2=$(free_port)
PATH=$ROOT/$B/transcripts:$PATH bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" \
    -l "$W2" -a "$C" -p "$T/noplayer" -k "$T/state/room.pub"
wait_for "curl -sf http://127.0.0.1:$W2/audit/list >/dev/null" 5 || fail "muxweb does not answer"
browser_run muxweb-audit-noplayer "$W2" "$cap" <<'EOP'
import sys
from webdriver import Browser
d, png, w, cap = sys.argv[1:]
b = Browser(int(d))
try:
    b.go("http://127.0.0.1:%s/audit" % w)
    row = "document.getElementById('cap-%s')" % cap
    v, _ = b.wait_js("return !!" + row, 10)
    assert v, "the audit page does not list %s" % cap
    b.js(row + ".click()")
    said = "return document.getElementById('player').textContent"
    v, _ = b.wait_js(said + ".includes('not installed') ? 'yes' : ''", 10)
    assert v, "the page does not say the player is missing: %r" % b.js(said)
    assert "make web-player" in b.js(said), b.js(said)
    b.screenshot(png)
finally:
    b.quit()
EOP
echo ok
