# muxweb in a real browser (headless Debian chromium through
# chromedriver): the live room page shows each judge's link as the judge
# sees it; a key typed into a judge's pty appears on the page by itself
# (the time it took is told); a failed opening assertion turns its
# terminal red; the round's end shows the evidence sealed (the manifest,
# signed, its short form as the log has it) and then the referee's
# countersignature (muxctl witness); muxweb binds loopback, refuses a
# command without the token, and starts a round with it.  A screenshot
# is kept in build/test-logs for people to look at.
. tests/integration/lib.sh

room1
minisign -G -W -p "$T/referee.pub" -s "$T/referee.key" >/dev/null 2>&1 <&- || fail "minisign -G"
echo "witness_key = \"$T/referee.pub\";" >>"$T/room.conf"
muxd_start -f "$T/room.conf"
muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
ss -ltnH "sport = :$W" | grep -q "127.0.0.1:$W" || fail "muxweb does not bind loopback alone"
# Commands need the token.
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$W/round/start?n=1")" = 401 ] ||
	fail "a round started without the token"
curl -sf -X POST -H "Authorization: Bearer a-token-for-the-tests-0123456789" \
    "http://127.0.0.1:$W/round/start?n=1" >"$T/start" || fail "round start with the token failed: $(cat "$T/start")"
[ "$(mctl -j status | jq -r .round.active)" = true ] || fail "the round did not start"
J=$(facing E1)
L=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .name')

browser_run muxweb-live "$W" "$J" "$L" "$T" "$TOOLS" "$WTOKEN" <<'EOP'
import subprocess, sys, time
from webdriver import Browser
d, png, w, judge, link, t, tools, token = sys.argv[1:]
b = Browser(int(d))
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    pre = "return (document.querySelector('#link-%s pre') || {}).textContent || ''" % link
    v, _ = b.wait_js(pre + " !== undefined && document.querySelector('#link-%s')" % link, 10)
    assert v, "the page shows no terminal for link %s" % link
    # A key typed at the judge's terminal: on the page, without another
    # key or a reload; the time it took is told (a second at most on an
    # idle machine), and decides nothing on a loaded one.
    t0 = time.monotonic()
    subprocess.run([tools + "/ttyio", "-t", "2000", judge, "send:Q"], check=True,
                   stdout=subprocess.DEVNULL)
    v, secs = b.wait_js(pre + ".includes('Q')", 10)
    took = time.monotonic() - t0
    assert v, "the key did not reach the page: %r" % b.js(pre)
    print("key on the page after %.3f s" % took)
    subprocess.run([tools + "/ttyio", "-t", "2000", judge, "type:uestion?\r\r"],
                   check=True, stdout=subprocess.DEVNULL)
    # The entity does not assert it is human: FAIL, the terminal red.
    subprocess.run([tools + "/ttyio", "-t", "2000", t + "/e1",
                    "send:Greetings, I am a program.\r\n"], check=True,
                   stdout=subprocess.DEVNULL)
    cls = "return document.querySelector('#link-%s').className" % link
    v, _ = b.wait_js(cls + ".includes('fail') ? 'fail' : ''", 5)
    assert v, "the failed assertion did not turn the terminal red: %r" % b.js(cls)
    color = b.js("return getComputedStyle(document.querySelector('#link-%s h3')).backgroundColor" % link)
    assert color == "rgb(204, 0, 0)", "the failed terminal's title is %s, not red" % color
    v, _ = b.wait_js(pre + ".includes('Greetings, I am a program.')", 5)
    assert v, "the entity's text is not on the page: %r" % b.js(pre)
    # The round's end seals the evidence: the page says so.
    subprocess.run([tools + "/../../muxctl/muxctl", "-s", t + "/ctl.sock",
                    "round", "stop"], check=True, stdout=subprocess.DEVNULL)
    sealed = "return document.getElementById('sealed').textContent"
    v, _ = b.wait_js(sealed + ".includes('(round 1 end)') ? 'yes' : ''", 5)
    assert v, "no manifest on the page: %r" % b.js(sealed)
    assert b.js(sealed).endswith(", signed"), b.js(sealed)
    # Its short form, as the judges' terminals and the log have it.
    log = open(t + "/muxd.log").read()
    short = [l.split(": ", 2)[-1] for l in log.splitlines()
             if "(round 1 end): evidence " in l]
    assert short and b.js(sealed).startswith(short[-1] + " at "), \
        "the page says %r, the log %r" % (b.js(sealed), short)
    witnessed = "return document.getElementById('witnessed').textContent"
    assert b.js(witnessed) == "not countersigned yet (muxctl witness)", b.js(witnessed)
    subprocess.run([tools + "/../../muxctl/muxctl", "-s", t + "/ctl.sock",
                    "witness", "-s", t + "/referee.key"], check=True,
                   stdout=subprocess.DEVNULL)
    v, _ = b.wait_js(witnessed + ".startsWith('" + short[-1][:13] +
                     " countersigned by witness key ') ? 'yes' : ''", 5)
    assert v, "the countersignature is not on the page: %r" % b.js(witnessed)
    b.screenshot(png)
    print("screenshot", png)
finally:
    b.quit()
EOP
echo ok
