# Both muxweb pages, live and audit, checked with axe-core (npm, fetched
# into build/ by make web-player) injected through webdriver: no serious
# or critical violation (contrast, names, headings, landmarks...) with a
# round's conversations on the live page and a capture playing on the
# audit page.  Without axe-core the scenario is skipped, and says so.
. tests/integration/lib.sh

AXE=$ROOT/$B/npm/node_modules/axe-core/axe.min.js
PLAYER=$ROOT/$B/npm/node_modules/asciinema-player/dist/bundle
if [ ! -f "$AXE" ]; then
	echo "axe-core is not installed (make web-player needs the npm registry)"
	exit 77
fi
if [ ! -f "$PLAYER/asciinema-player.min.js" ]; then
	echo "asciinema-player is not installed (make web-player needs the npm registry)"
	exit 77
fi
ENTRY='eol = "lf";' room1
muxd_start -f "$T/room.conf"
PATH=$ROOT/$B/transcripts:$PATH muxweb_start -a "$T/state/captures" -p "$PLAYER"
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
round_start 1
J=$(facing E1)
tty "$J" 'type:Who goes there?\r\r' >/dev/null
tty "$T/e1" 'expect:Who goes there' 'type:Greetings, I am a program.\r\n' >/dev/null ||
	fail "the conversation did not go through"
cap=$(cd "$T/state/captures" && ls ./*.cast | head -1 | sed 's|^\./||')
browser_run muxweb-axe "$W" "$WTOKEN" "$AXE" "$cap" <<'EOP'
import sys
from webdriver import Browser
d, png, w, token, axe, cap = sys.argv[1:]
b = Browser(int(d), 1366, 768)
bad = []
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js("return document.querySelectorAll('.term.fail').length", 10)
    assert v, "the live page shows no FAIL"
    for size in ((1366, 768), (390, 844)):
        b.size(*size)
        bad += ["live %dx%d: %s" % (size + (x,)) for x in b.axe(axe)]
    b.size(1366, 768)
    b.go("http://127.0.0.1:%s/audit#cap=%s" % (w, cap))
    v, _ = b.wait_js("return (document.querySelector('.ap-term') || {}).textContent", 15)
    assert v, "the audit page plays nothing"
    b.wait_js("return document.getElementById('verify').getAttribute('data-status')", 10)
    for size in ((1366, 768), (390, 844)):
        b.size(*size)
        bad += ["audit %dx%d: %s" % (size + (x,)) for x in b.axe(axe)]
    b.screenshot(png)
    assert not bad, "axe-core: serious or critical:\n" + "\n".join(bad)
    print("axe-core: no serious or critical violation on either page")
finally:
    b.quit()
EOP
echo ok
