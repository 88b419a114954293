# The live page shows the faults that last now, whenever they began: a
# referee who loads the page in round 2 still sees that the end of a
# round 1 recording waits for a full disk (a round's start forgets the
# events before it), and the page follows that end, live, to its
# writing once there is space: it leaves the faults that last, and the
# faults as they came say it cleared.  A real full disk: the room's
# state on a small tmpfs (root).
. tests/integration/lib.sh

if [ "$(id -u)" != 0 ] || ! mkdir -p "$T/small" ||
    ! mount -t tmpfs -o size=4m tmpfs "$T/small" 2>/dev/null; then
	echo "a real full disk needs root and a tmpfs"
	exit 77
fi
trap 'for p in $PIDS $MUXD_PID; do kill "$p" 2>/dev/null; done; sleep 0.3;
    umount -l "$T/small" 2>/dev/null; cleanup' EXIT

# Keep the disk full, taking at once the space a closed file gives back
# (a capture's mapping is cut to its size as it closes), until $T/free.
hog() {
	n=0
	until [ -e "$T/free" ]; do
		n=$((n + 1))
		cat /dev/zero >"$T/small/hog.$n" 2>/dev/null
		[ -s "$T/small/hog.$n" ] || rm -f "$T/small/hog.$n"
		sleep 0.01
	done
	rm -f "$T"/small/hog.*
}

# A sync every 20 s: an end that waits is tried again at each, and may
# be written before there is space (into a page its file has), so the
# page is loaded well before the first.
RULES='sync = 20;' room1
sed -i "s|state = \"$T/state\"|state = \"$T/small/state\"|" "$T/room.conf"
muxd_start -f "$T/room.conf"
muxweb_start
wait_for "wcurl -sf http://127.0.0.1:$W/status >/dev/null" 5 || fail "muxweb does not answer"
round_start 1
J=$(facing E1)
relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "no greeting"
hog &
PIDS="$PIDS $!"
talk_long
mctl round stop >/dev/null
wait_for "grep -q 'record J1-[a-z]*: its end cannot be written yet' '$T/muxd.log'" 10 ||
	fail "no recording's end waits: $(grep 'record' "$T/muxd.log" | tail -5)"
# The room's state cannot be saved either, on that disk: started anyway.
mctl round start 2 --force >/dev/null || fail "round 2 did not start"
[ "$(mctl -j status | jq '.ends_waiting | length')" -ge 1 ] ||
	fail "status shows no end waiting once round 2 started"

browser_run muxweb-faults "$W" "$WTOKEN" "$T/free" <<'EOP'
import sys
from webdriver import Browser
d, png, w, token, free = sys.argv[1:]
b = Browser(int(d))
now = "return document.getElementById('faults-now').textContent"
came = "return document.getElementById('faults').textContent"
try:
    b.go("http://127.0.0.1:%s/login?token=%s" % (w, token))
    v, _ = b.wait_js(now + ".match(/the end of the recording of J1-[a-z]+ waits for the disk: [^;]+; kept open/) !== null", 10)
    b.screenshot(png)
    assert v, "the page loaded in round 2 does not show round 1's end waiting: %r" % b.js(now)
    print("loaded in round 2, the page shows round 1's end waiting for the disk")
    open(free, "w").close()
    v, _ = b.wait_js("return !/waits for the disk/.test(document.getElementById('faults-now').textContent) && /record end J1-[a-z]+: cleared/.test(document.getElementById('faults').textContent)", 40)
    b.screenshot(png)
    assert v, "once written, the end does not leave the faults now, or is not said cleared: now %r, as they came %r" % (b.js(now), b.js(came))
    print("once there is space, the end leaves the faults now and is said cleared")
finally:
    b.quit()
EOP
grep -q 'record J1-[a-z]*: its end written, closed' "$T/muxd.log" ||
	fail "the log does not say the end was written"
echo ok
