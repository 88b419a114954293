# The referee's live page in a real browser (headless chromium), as a
# referee uses it: the round started from the page by keyboard; the
# terminals tagged entry and confederate; a held entity shown HELD with a
# Release button that releases it; a round start refused shows why; a
# reload shows the conversations so far, both sides as the transcript has
# them (muxd's "screens"), with their verdicts, even on a muxweb started
# after them; at the round's end the
# conversations stay, marked ended, a reload too; the lines' states are
# listed between rounds.  The verdicts and faults are announced
# (aria-live).  At 390 px wide the page is no wider than the window and
# its terminals take the width.  Screenshots at 1366x768 and 390x844 are
# kept in build/test-logs.
. tests/integration/lib.sh

RULES='rules = { assertion = "hold"; };' ENTRY='charset = "utf-8";' room1
muxd_start -f "$T/room.conf"
muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$W/favicon.ico")" = 200 ] ||
	fail "no favicon"
browser_run muxweb-room "$W" "$T" "$TOOLS" "$WTOKEN" <<'EOP'
import subprocess, sys, time
from webdriver import Browser
d, png, w, t, tools, token = sys.argv[1:]
b = Browser(int(d), 1366, 768)
mctl = [tools + "/../../muxctl/muxctl", "-s", t + "/ctl.sock", "-j"]
def ttyio(*args):
    subprocess.run([tools + "/ttyio", "-t", "3000"] + list(args), check=True,
                   stdout=subprocess.DEVNULL)
def text(sel):
    return b.js("var e = document.querySelector(%r); return e ? e.textContent : null" % sel)
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js("return document.querySelectorAll('#lines li').length === 4", 10)
    assert v, "the lines are not listed: %r" % text("#lines")
    assert "e1: up" in text("#line-e1"), text("#line-e1")
    # The round started by keyboard: Tab to the start button, Enter.
    b.js("document.getElementById('n').focus()")
    b.key("Tab")
    assert b.js("return document.activeElement.id") == "start", b.js("return document.activeElement.outerHTML")
    b.key("Enter")
    v, _ = b.wait_js("return document.querySelectorAll('.term').length === 2", 10)
    assert v, "the round did not start from the page: %r" % text("#refused")
    import json
    st = json.loads(subprocess.run(mctl + ["status"], check=True, capture_output=True).stdout)
    link = [l for l in st["links"] if l["entity"] == "E1"][0]
    L, judge = link["name"], t + "/j1" + link["side"][0]
    conf = [l for l in st["links"] if l["entity"] == "C1"][0]["name"]
    assert text("#link-%s .tag" % L) == "entry", text("#link-%s .tag" % L)
    assert text("#link-%s .tag" % conf) == "confederate", text("#link-%s .tag" % conf)
    # A refused start: the reason is on the page.
    b.js("document.getElementById('n').value = '2'")
    b.js("document.getElementById('start').click()")
    v, _ = b.wait_js("return document.getElementById('refused').textContent", 5)
    assert v and "round 1 is running" in v, "no refusal shown: %r" % v
    # The conversation: the entity fails its assertion, and is held.
    ttyio(judge, "type:Who goes there, Zoë?\r\r")
    ttyio(t + "/e1", "type:Greetings, I am a program. Très bien.\r\n")
    v, _ = b.wait_js("return !document.querySelector('#link-%s .held').hidden" % L, 10)
    assert v, "the held entity is not shown HELD: %r" % text("#link-%s h3" % L)
    v, _ = b.wait_js("return document.querySelector('#link-%s').className.includes('fail')" % L, 5)
    assert v, "no FAIL on the page"
    assert "FAIL" in text("#announce"), "the verdict was not announced: %r" % text("#announce")
    # Release by keyboard.
    b.js("document.querySelector('#link-%s .release').focus()" % L)
    b.key("Enter")
    v, _ = b.wait_js("return document.querySelector('#link-%s .held').hidden" % L, 10)
    assert v, "the release did not release"
    ttyio(judge, "expect:Très bien.")
    pre = "#link-%s pre" % L
    v, _ = b.wait_js("return document.querySelector('%s').textContent.includes('Très bien.')" % pre, 5)
    assert v, "the released text is not on the page: %r" % text(pre)
    # A reload: the screen so far, both sides, and the verdict.
    time.sleep(0.5)
    b.go("http://127.0.0.1:%s/" % w)
    v, _ = b.wait_js("var e = document.querySelector('%s'); return e && e.textContent.includes('Très bien.')" % pre, 10)
    assert v, "the reload shows no conversation: %r" % text(pre)
    screen = text(pre)
    assert ">Who goes there, Zoë?" in screen, "the judge's side is missing: %r" % screen
    assert "Greetings, I am a program. Très bien." in screen, screen
    assert "FAIL" in text("#link-%s .verdict" % L), text("#link-%s h3" % L)
    b.screenshot(png)
    # A muxweb started after the verdict (a fresh one, that never saw
    # it): the verdict comes with the screens, from the capture.
    import socket
    so = socket.socket()
    so.bind(("127.0.0.1", 0))
    w2 = so.getsockname()[1]
    so.close()
    web2 = subprocess.Popen([tools + "/../../muxweb/muxweb", "-s", t + "/ctl.sock",
                             "-l", str(w2), "-t", t + "/web.token"],
                            stderr=subprocess.DEVNULL)
    try:
        for i in range(100):
            try:
                socket.create_connection(("127.0.0.1", w2)).close()
                break
            except OSError:
                time.sleep(0.1)
        b.go("http://127.0.0.1:%d/login?token=%s" % (w2, token))
        v, _ = b.wait_js("var e = document.querySelector('#link-%s .verdict'); return e && e.textContent.includes('FAIL')" % L, 10)
        assert v, "a muxweb started after the verdict does not show it: %r" % text("#link-%s h3" % L)
    finally:
        web2.terminate()
    b.go("http://127.0.0.1:%s/" % w)
    # The round's end: the conversations stay, ended; after a reload too.
    subprocess.run(mctl + ["round", "stop"], check=True, stdout=subprocess.DEVNULL)
    v, _ = b.wait_js("return document.querySelector('#link-%s').classList.contains('ended')" % L, 10)
    assert v, "the conversation did not stay, ended"
    assert "Très bien." in text(pre), text(pre)
    b.go("http://127.0.0.1:%s/" % w)
    v, _ = b.wait_js("var e = document.querySelector('#link-%s'); return e && e.classList.contains('ended') && e.textContent.includes('Très bien.')" % L, 10)
    assert v, "a late arrival does not see the ended round: %r" % b.js("return document.getElementById('stations').textContent")
    assert "FAIL" in text("#link-%s .verdict" % L)
    v, _ = b.wait_js("return document.querySelectorAll('#lines li').length === 4", 5)
    assert v, "no lines between rounds"
    for sel in ("#faults", "#announce", "#sealed"):
        assert b.js("return document.querySelector('%s').getAttribute('aria-live')" % sel) == "polite", sel
    b.screenshot(png.replace(".png", "-1366.png"))
    # A phone.
    b.size(390, 844)
    time.sleep(0.3)
    sw = b.js("return document.documentElement.scrollWidth")
    iw = b.js("return window.innerWidth")
    tw = b.js("return document.querySelector('#link-%s pre').getBoundingClientRect().width" % L)
    b.screenshot(png.replace(".png", "-390.png"))
    assert sw <= iw, "the page is %d px wide in a %d px window" % (sw, iw)
    assert tw >= 300, "a terminal is %d px wide at 390 px" % tw
    print("390 px: page %d px, terminal %d px" % (sw, tw))
finally:
    b.quit()
EOP
echo ok
