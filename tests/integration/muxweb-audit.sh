# muxweb's audit page in a real browser (headless chromium): a round is
# recorded, then the page lists its captures, plays one with
# asciinema-player (from the npm registry, make web-player) as the judge
# saw it (transcripts export --screen: both sides, UTF-8 decoded), the raw
# capture a click away, with downloads and an address of its own
# (#cap=NAME); a search finds a line of the transcripts; draws each speaker's
# typing cadence, and shows what transcripts verify says of it; the
# round index shows who met whom with the verdicts, and the round
# manifests verify with the room's key.  Then a capture is changed and
# another's header: each row says BROKEN with verify's finding, the index
# marks the link, the changed header's capture stays listed (and in the
# index as not there), and the player carries a banner.  Nothing
# outside the captures' directory is served.  Screenshots at 1366x768 and
# 390x844 are kept in build/test-logs.
. tests/integration/lib.sh

PLAYER=$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle
if [ ! -f "$PLAYER/asciinema-player.min.js" ]; then
	echo "asciinema-player is not installed (make web-player needs the npm registry)"
	exit 77
fi
ENTRY='eol = "lf"; charset = "utf-8";' room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
tty "$J" 'type:Who goes there, Zoë?\r\r' >/dev/null
tty "$T/e1" 'expect:Who goes there' 'type:Hello, my name is Ada and I am the human. Très bien.\r\n' >/dev/null ||
	fail "the conversation did not go through"
# Stopped once the answer is through (the judge sees it), not before.
tty "$J" 'expect:bien.' >/dev/null || fail "the answer did not reach the judge"
mctl round stop >/dev/null || fail "round stop failed"
C=$T/state/captures
cap=$(cd "$C" && grep -l '"E1"' ./*.cast | head -1 | sed 's|^\./||')
[ -n "$cap" ] || fail "no capture of E1"
ln -s /etc/passwd "$C/evil.cast"
curl_manifests() { wcurl -sf "http://127.0.0.1:$W/audit/manifests"; }

PATH=$ROOT/$B/transcripts:$PATH muxweb_start -a "$C" -p "$PLAYER" \
    -k "$T/state/room.pub"
wait_for "wcurl -sf http://127.0.0.1:$W/audit/list >/dev/null" 5 || fail "muxweb does not answer"
for bad in /audit/cast/..%2fstate.json /audit/cast/evil.cast /audit/cast/../state.json /player/..%2f..%2fpasswd; do
	code=$(wcurl -s -o /dev/null -w '%{http_code}' --path-as-is "http://127.0.0.1:$W$bad")
	[ "$code" = 404 ] || fail "$bad was served ($code)"
done
wcurl -sf "http://127.0.0.1:$W/audit/list" | jq -e ".[] | select(.name == \"$cap\")" >/dev/null ||
	fail "the list lacks $cap: $(wcurl -s "http://127.0.0.1:$W/audit/list")"
# A manifest changed: the page's status turns bad.  While muxd runs the
# chain is open, intact so far (4).
curl_manifests | jq -e '.status == 4' >/dev/null || fail "manifests: $(curl_manifests)"
cp "$T/state/manifests/manifest-0002.json" "$T/m2"
sed -i 's/"round 1 end"/"round 9 end"/' "$T/state/manifests/manifest-0002.json"
curl_manifests | jq -e '.status == 1 and (.output | test("manifest-0002.json: signature: the signature does not match"))' >/dev/null ||
	fail "a changed manifest: $(curl_manifests)"
cp "$T/m2" "$T/state/manifests/manifest-0002.json"
other=$(cd "$C" && ls ./*.cast | grep -v "$cap" | grep -v evil | head -1 | sed 's|^\./||')
wcurl -sf "http://127.0.0.1:$W/audit/transcript/$cap" | grep -q '^JUDGE07\[..:..:..\]Who goes there, Zoë?$' ||
	fail "no transcript served: $(wcurl -s "http://127.0.0.1:$W/audit/transcript/$cap")"
browser_run muxweb-audit "$W" "$cap" "$WTOKEN" "$C" "$other" <<'EOP'
import sys, time
from webdriver import Browser
d, png, w, cap, token, capdir, other = sys.argv[1:]
b = Browser(int(d), 1366, 768)
try:
    b.go("http://127.0.0.1:%s/login?token=%s&next=/audit" % (w, token))
    row = "document.getElementById('cap-%s')" % cap
    v, _ = b.wait_js("return !!" + row, 10)
    assert v, "the audit page does not list %s" % cap
    # Picked by keyboard: its name is a link, focused and Enter.
    b.js(row + ".querySelector('a').focus()")
    b.key("Enter")
    v, _ = b.wait_js("return location.hash", 5)
    assert v == "#cap=" + cap, "no address of its own: %r" % v
    screen = "return (document.querySelector('.ap-term') || {}).textContent || ''"
    v, _ = b.wait_js(screen + ".includes('Très bien.') ? 'yes' : ''", 15)
    if v:
        v, _ = b.wait_js(screen + ".includes('Who goes there, Zoë?') ? 'yes' : ''", 5)
    assert v, "the judge's screen did not play both sides in UTF-8: %r" % b.js(screen)
    assert "Ã" not in b.js(screen), b.js(screen)
    links = b.js("return Array.from(document.querySelectorAll('#downloads a')).map(function (a) { return a.getAttribute('href'); })")
    assert len(links) == 4 and any("/audit/transcript/" in l for l in links), links
    raw = b.js("return document.getElementById('mode').textContent")
    assert raw == "Play the raw capture", raw
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
    # A search of the transcripts.
    b.js("document.getElementById('q').value = 'zoë'")
    b.js("document.querySelector('#search button').click()")
    v, _ = b.wait_js("return document.querySelectorAll('#results li').length", 10)
    assert v and v >= 1, "the search found nothing"
    assert "Who goes there, Zoë?" in b.js("return document.getElementById('results').textContent")
    b.screenshot(png)
    # A changed capture, another's header changed.
    p = capdir + "/" + cap
    lines = open(p, encoding="utf-8").read().split("\n")
    for i, l in enumerate(lines):
        if ', "o", "' in l:
            k = l.index(', "o", "') + 8
            lines[i] = l[:k] + "K" + l[k + 1:]
            break
    open(p, "w", encoding="utf-8").write("\n".join(lines))
    p = capdir + "/" + other
    text = open(p, encoding="utf-8").read()
    open(p, "w", encoding="utf-8").write(text.replace('"C1"', '"C9"', 1).replace('"J1"', '"J9"', 1))
    b.go("http://127.0.0.1:%s/audit?again=1#cap=%s" % (w, cap))
    v, _ = b.wait_js("var r = document.getElementById('cap-%s'); return r && r.getAttribute('data-state')" % cap, 15)
    assert v == "broken", "the changed capture's row says %r" % v
    cell = b.js("return document.getElementById('cap-%s').querySelector('td.state').textContent" % cap)
    assert cell.startswith("BROKEN: ") and "seal" in cell, cell
    v, _ = b.wait_js("return document.getElementById('banner').textContent", 10)
    assert v and "did not verify" in v, "no banner over the changed capture: %r" % v
    v, _ = b.wait_js("var r = document.getElementById('cap-%s'); return r && r.getAttribute('data-state')" % other, 5)
    assert v == "broken", "the changed header's capture: %r" % v
    idx = "return Array.from(document.querySelectorAll('#index tr')).map(function (r) { return r.textContent; }).join('|')"
    v, _ = b.wait_js(idx + ".includes('BROKEN') ? 'y' : ''", 10)
    assert v, "the index does not mark the changed capture: %r" % b.js(idx)
    print("index:", b.js(idx))
    b.screenshot(png.replace(".png", "-1366.png"))
    b.size(390, 844)
    time.sleep(0.3)
    sw = b.js("return document.documentElement.scrollWidth")
    b.screenshot(png.replace(".png", "-390.png"))
    assert sw <= 390, "the audit page is %d px wide at 390 px" % sw
    print("390 px: page %d px" % sw)
finally:
    b.quit()
EOP

# Without the player, the page says so in its place, and how to add it.
W2=$(free_port)
PATH=$ROOT/$B/transcripts:$PATH bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" \
    -l "$W2" -a "$C" -p "$T/noplayer" -k "$T/state/room.pub" -t "$T/web.token"
wait_for "wcurl -sf http://127.0.0.1:$W2/audit/list >/dev/null" 5 || fail "muxweb does not answer"
browser_run muxweb-audit-noplayer "$W2" "$cap" "$WTOKEN" <<'EOP'
import sys
from webdriver import Browser
d, png, w, cap, token = sys.argv[1:]
b = Browser(int(d))
try:
    b.go("http://127.0.0.1:%s/login?token=%s&next=/audit" % (w, token))
    row = "document.getElementById('cap-%s')" % cap
    v, _ = b.wait_js("return !!" + row, 10)
    assert v, "the audit page does not list %s" % cap
    b.go("http://127.0.0.1:%s/audit#cap=%s" % (w, cap))
    said = "return document.getElementById('player').textContent"
    v, _ = b.wait_js(said + ".includes('not installed') ? 'yes' : ''", 10)
    assert v, "the page does not say the player is missing: %r" % b.js(said)
    assert "make web-player" in b.js(said), b.js(said)
    b.screenshot(png)
finally:
    b.quit()
EOP
echo ok
