# The live page's "Faults now" lists each kind of fault that lasts, with
# what failed and since when: the room's state that cannot be saved, and
# the recordings of a station's two links that cannot write (their
# transcripts refused from the first write on, tests/tools/faultsim.so);
# muxctl status and the status line for systemctl status say the same.  The end of a recording that
# waits for a full disk is muxweb-faults' (root).
. tests/integration/lib.sh

faultsim_use
notify_listen
room1
NOTIFY_SOCKET=$T/notify.sock FAULTSIM='write:LP*.TXT:ENOSPC:1:0' \
    LD_PRELOAD="$SO" muxd_start -f "$T/room.conf"
wait_port e1 up
state_block
mctl round start 1 --force >/dev/null || fail "round 1 did not start"
J=$(facing E1)
relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "no greeting"
relay "$J" "$T/e1" 'judge line\r' "the judge's line was not forwarded"
wait_for "mctl -j status | jq -e '.state.error != null and ([.links[].record | select(. != null)] | length) > 0' >/dev/null" 10 ||
	fail "status does not show both faults: $(mctl -j status | jq -c '{state, links: [.links[].record]}')"
mctl status >"$T/mstatus"
grep -q '^FAULT: the state cannot be saved' "$T/mstatus" ||
	fail "muxctl status does not show the state's fault: $(cat "$T/mstatus")"
[ "$(grep -c '^FAULT: the recording of link J1-\(left\|right\): .*No space left' "$T/mstatus")" = 2 ] ||
	fail "muxctl status does not show both recordings' faults: $(cat "$T/mstatus")"
wait_for "notify_last | grep -q 'FAULT: the state cannot be saved: .* (and 2 more)'" 5 ||
	fail "the status line does not count the three faults: $(notify_last)"

muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
browser_run muxweb-faults-now "$W" "$WTOKEN" <<'EOP'
import sys
from webdriver import Browser
d, png, w, token = sys.argv[1:]
b = Browser(int(d))
now = "return document.getElementById('faults-now').textContent"
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js(now + ".match(/the room's state cannot be saved: .*File exists/) !== null", 10)
    b.screenshot(png)
    assert v, "the page does not show the state's fault: %r" % b.js(now)
    print("the page shows the room's state that cannot be saved")
    for side in ("left", "right"):
        v, _ = b.wait_js("return Array.from(document.getElementById('faults-now').children).some(function (li) { return /^the recording of link J1-%s: .*No space left.*\\(since [0-9]/.test(li.textContent); })" % side, 10)
        assert v, "the page does not show J1-%s's recording fault, since when: %r" % (side, b.js(now))
    print("the page shows both links' recordings that cannot write, since when")
    n = b.js("return document.getElementById('faults-now').children.length")
    assert n == 3, "the page lists %d faults now, not 3: %r" % (n, b.js(now))
finally:
    b.quit()
EOP
echo ok
