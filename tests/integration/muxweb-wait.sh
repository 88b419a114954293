# A round that waits for its lines (ready_wait), on the referee's live
# page in a real browser (headless chromium): the page names the line it
# waits for and its station, as muxctl status does, also after a reload;
# when the line comes up the round starts and the notice goes.
. tests/integration/lib.sh

for c in j1l j1r e1 c1; do cable $c; done
CABLES=1 SCHEDULE_EXTRA='ready_wait = 60;' room1
muxd_start -f "$T/room.conf"
wait_port e1 up
unplug e1
wait_port e1 down
muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
mctl round start 1 >/dev/null || fail "round start with ready_wait was refused"
browser_run muxweb-wait "$W" "$T" "$WTOKEN" <<'EOP'
import subprocess, sys
from webdriver import Browser
d, png, w, t, token = sys.argv[1:]
b = Browser(int(d), 1366, 768)
cable = None
def waiting():
    return b.js("return document.getElementById('waiting').textContent")
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js("return document.getElementById('waiting').textContent.includes('J1 e1 (down')", 10)
    assert v, "the page does not name the line the round waits for: %r" % waiting()
    assert "round 1 waits for its lines until" in waiting(), waiting()
    b.go("http://127.0.0.1:%s/" % w)
    v, _ = b.wait_js("return document.getElementById('waiting').textContent.includes('J1 e1 (down')", 10)
    assert v, "after a reload: %r" % waiting()
    print("waiting:", waiting())
    b.screenshot(png)
    # The cable back: the round starts and the notice goes.
    cable = subprocess.Popen(["socat", "pty,raw,echo=0,link=%s/e1.dev" % t,
                              "pty,raw,echo=0,link=%s/e1" % t])
    v, _ = b.wait_js("return document.getElementById('waiting').textContent === '' && document.querySelectorAll('.term').length === 2", 20)
    assert v, "the round did not start on the page: %r" % waiting()
finally:
    if cable is not None:
        cable.terminate()
    b.quit()
EOP
[ "$(mctl -j status | jq '.round.active')" = true ] || fail "round 1 is not running"
echo ok
