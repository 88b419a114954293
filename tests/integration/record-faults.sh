# The recorder under a full disk and I/O errors (tests/tools/faultsim.so):
# for each call it makes on the captures and transcripts, one error is
# injected in a running round and then passes.  Each time forwarding
# keeps every byte, the capture stays whole JSON lines and the
# transcript whole lines, what was lost is marked ("loss input N output
# M markers K ERRNO" in the capture, "*** LOST ... ***" in the
# transcript), `transcripts verify` tells the loss as a recording fault
# with its line, status showed the fault and then cleared, and the log
# says both.  The calls the recorder never makes on them (pwrite,
# msync, rename) are shown not made.  A capture that cannot be made is
# forwarded unrecorded, the loss told.  Then, when root, a real full
# disk: a small tmpfs filled up and emptied again, during a round,
# before one (its captures made once there is space) and as one stops
# (the recordings' ends written once there is space).
. tests/integration/lib.sh

faultsim_use
TX=$ROOT/$B/transcripts/transcripts
# A long sync: a fault lasts until the next line is recorded, so that
# status is asked while it lasts, whatever the machine's speed.
RULES='sync = 60;'

start() {
	log_reset
	rm -rf "$T/state" "$T/events"
	room1
	FAULTSIM="$1" LD_PRELOAD="$SO" "$MUXD" -v -f "$T/room.conf" >>"$T/muxd.log" 2>&1 &
	MUXD_PID=$!
	wait_for "grep -q ' running, ' '$T/muxd.log'" 10 || fail "$1: muxd did not start"
	watch_events
	round_start 1
	J=$(facing E1)
	relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "$1: the greeting did not reach the judge"
}

# Is a recording fault shown in status now?  (links' or ports')
faulty() {
	mctl -j status | jq -e '[.links[].record, .ports[].record] | map(select(. != null)) | length > 0' >/dev/null
}

# Talk line by line until the fault was seen in status and then cleared
# (at most $2 exchanges); every line must reach the other end.  With
# $3, the fault came and went before (the events tell it): four lines.
talk() {
	seen= cleared= i=0
	if [ -n "${3:-}" ]; then
		seen=0 cleared=0
		while [ "$i" -lt 4 ]; do
			i=$((i + 1))
			relay "$J" "$T/e1" "judge line $i\\r" "$1: judge line $i was not forwarded"
			relay "$T/e1" "$J" "entry line $i\\r\\n" "$1: entry line $i was not forwarded"
		done
		faulty && fail "$1: the recording fault did not clear"
		return 0
	fi
	while [ "$i" -lt "${2:-12}" ]; do
		i=$((i + 1))
		relay "$J" "$T/e1" "judge line $i\\r" "$1: judge line $i was not forwarded"
		if [ -z "$seen" ] && faulty; then seen=$i; fi
		relay "$T/e1" "$J" "entry line $i\\r\\n" "$1: entry line $i was not forwarded"
		if [ -z "$seen" ] && faulty; then seen=$i; fi
		if [ -n "$seen" ] && ! faulty; then cleared=$i; break; fi
	done
	[ -n "$seen" ] || fail "$1: status never showed a recording fault"
	[ -n "$cleared" ] || fail "$1: the recording fault did not clear: $(mctl -j status | jq -c '[.links[].record]')"
}

# After the round: the files whole, verify's findings, the events, the log.
check() {
	mctl round stop >/dev/null
	for c in "$T"/state/captures/*.cast; do
		jq -e . "$c" >/dev/null 2>&1 || fail "$1: $c is not whole JSON lines: $(grep -v '^\[' "$c" | head -2)"
	done
	for x in "$T"/state/transcripts/*/*.TXT; do
		[ "$(tail -c 1 "$x" | od -An -tx1 | tr -d ' ')" = 0a ] || fail "$1: $x ends with a torn line"
	done
	"$TX" verify "$T"/state/captures/round01-*.cast >"$T/verify" 2>&1
	grep -E ': (torn|event|seal|end|mismatch|format):' "$T/verify" &&
		fail "$1: verify finds the files broken: $(cat "$T/verify")"
	# Watchers are given events in batches: waited for, not looked for.
	wait_for "grep -q '\"what\":\"record\".*\"error\":\"[^\"]' '$T/events'" 5 || fail "$1: no fault event"
	wait_for "grep -q '\"what\":\"record\".*\"error\":null' '$T/events'" 5 || fail "$1: no fault cleared event"
	grep -q 'recording fault: what cannot be written' "$T/muxd.log" || fail "$1: the fault is not logged"
	grep -q 'recording again; the fault lost' "$T/muxd.log" || fail "$1: its end is not logged"
}

# The loss is marked, with its counts, and verify tells it where it is.
lost() {
	grep -h -q "\"m\", \"loss input [0-9]* output [0-9]* markers [0-9]* $2\"" "$T"/state/captures/round01-*.cast ||
		fail "$1: no loss marker: $(grep -h '"m", "loss' "$T"/state/captures/*.cast)"
	grep -q "round01-.*cast:[0-9]*: offset [0-9]*: fault: recording fault, events lost or not synced: marker \"loss input" "$T/verify" ||
		fail "$1: verify does not tell the loss: $(cat "$T/verify")"
	grep -h -q '^\*\*\* LOST JUDGE [0-9]* BYTES PROGRAM [0-9]* BYTES \*\*\*$' "$T"/state/transcripts/E1/*.TXT "$T"/state/transcripts/C1/*.TXT ||
		fail "$1: no loss line in the transcripts"
}

stop() {
	kill -0 "$MUXD_PID" 2>/dev/null || fail "$1: muxd died"
	muxd_stop
}

row() { printf '%-48s %s\n' "$1" "$2" >>"$T/matrix"; }

# The entity sends N random bytes in base64 lines, then BULKEND, which
# the judge must all receive ($2 names the case); $T/bulk.sent and
# $T/bulk.got keep what was sent and received.
bulk() {
	tty "$J" 'expect:BULKEND' "save:$T/bulk.got" >/dev/null &
	reader=$!
	head -c "$1" /dev/urandom | base64 -w 76 >"$T/bulk.sent"
	cat "$T/bulk.sent" >"$T/e1"
	printf 'BULKEND\r\n' >"$T/e1"
	wait "$reader" || fail "$2: the bulk did not reach the judge"
}
: >"$T/matrix"

# The capture written with write(2) (its mapping refused at the start):
# two event lines fail, whole.
for e in ENOSPC EIO; do
	f="fallocate:round01-*.cast:$e:1:1,write:round01-*.cast:$e:12:2"
	start "$f"; talk "$f"; check "$f"; lost "$f" "$e"; stop "$f"
	row "write capture $e" "events lost, marked with counts"
done

# The capture's mapping cannot grow: the events that do not fit are lost.
f='fallocate:round01-*.cast:ENOSPC:3:2'
start "$f"
bulk 240000 "$f"
[ "$(tr -d '\r\n' <"$T/bulk.got" | sed 's/BULKEND$//')" = "$(tr -d '\r\n' <"$T/bulk.sent")" ] ||
	fail "$f: forwarding lost bytes of the bulk"
grep -q 'faultsim: fallocate' "$T/muxd.log" || fail "$f: the mapping never had to grow"
talk "$f" 4 passed; check "$f"; lost "$f" ENOSPC; stop "$f"
row "fallocate capture (growth) ENOSPC" "events lost, marked with counts"

# The transcript's write: its text is kept and written with the next,
# nothing lost.
for e in ENOSPC EIO; do
	f="write:LP*.TXT:$e:4:2"
	start "$f"; talk "$f"; check "$f"; stop "$f"
	grep -q 'transcript .* matches' "$T/verify" || fail "$f: the transcript is not the capture rendered: $(cat "$T/verify")"
	row "write transcript $e" "text kept, written again: nothing lost"
done

# The sync (syncfs, then fsync file by file): marked in the capture as
# a recording fault, shown until a sync succeeds.
RULES='sync = 1;'
f='syncfs:*:EIO:1:1,fsync:round01-*.cast:EIO:1:1'
start "$f"
relay "$J" "$T/e1" 'judge line\r' "$f: not forwarded"
wait_for "grep -q '\"what\":\"record\".*sync: Input/output error' '$T/events'" 10 || fail "$f: no fault event"
relay "$J" "$T/e1" 'another line\r' "$f: not forwarded"
wait_for "grep -q '\"what\":\"record\".*\"error\":null' '$T/events'" 10 || fail "$f: the fault did not clear"
check "$f"; stop "$f"
grep -h -q '"m", "fault record sync EIO round01-' "$T"/state/captures/round01-*.cast || fail "$f: the sync fault is not marked"
grep -q 'fault: recording fault, events lost or not synced: marker "fault record sync EIO' "$T/verify" ||
	fail "$f: verify does not tell the sync fault: $(cat "$T/verify")"
row "syncfs+fsync capture EIO" "marked as a recording fault until a sync succeeds"
RULES='sync = 60;'

# The cut of the mapping's tail when a capture closes: left with its
# zeros, cut off at the next start.
f='ftruncate:round01-*.cast:EIO:1:1'
start "$f"
relay "$J" "$T/e1" 'judge line\r' "$f: not forwarded"
mctl round stop >/dev/null
grep -q 'ftruncate' "$T/muxd.log" || fail "$f: the failed ftruncate is not logged"
stop "$f"
muxd_start -f "$T/room.conf"
grep -q 'zero bytes cut off its end' "$T/muxd.log" || fail "$f: the tail was not cut at the start"
for c in "$T"/state/captures/round01-*.cast; do
	jq -e . "$c" >/dev/null 2>&1 || fail "$f: $c is not whole JSON lines"
done
muxd_stop
row "ftruncate capture EIO (at close)" "zero tail kept, cut at the next start"

# The calls the recorder never makes on its files: none fails.
f='pwrite:*.cast:EIO:1:0,pwrite:*.TXT:EIO:1:0,msync:*:EIO:1:0,rename:*.cast:EIO:1:0,rename:*.TXT:EIO:1:0'
start "$f"
relay "$J" "$T/e1" 'judge line\r' "$f: not forwarded"
mctl round stop >/dev/null
stop "$f"
grep 'faultsim:' "$T/muxd.log" && fail "$f: the recorder makes these calls after all"
row "pwrite, msync, rename (captures, transcripts)" "never called"

# A transcript that cannot be written while more than 4 MiB of its text
# comes: what is past that is given up, a cut line in its place says how
# much, verify tells it as a recording fault (the capture renders it
# all), and the transcript goes on once it can be written.
log_reset
rm -rf "$T/state" "$T/events"
room1
FAULTSIM_WHILE="$T/full" FAULTSIM='write:LP*.TXT:ENOSPC:1:0' LD_PRELOAD="$SO" \
    "$MUXD" -v -f "$T/room.conf" >>"$T/muxd.log" 2>&1 &
MUXD_PID=$!
wait_for "grep -q ' running, ' '$T/muxd.log'" 10 || fail "cut: muxd did not start"
round_start 1
J=$(facing E1)
# The disk full from now on (FAULTSIM_WHILE), for the transcripts alone.
: >"$T/full"
bulk 3900000 cut
rm "$T/full"
relay "$T/e1" "$J" 'written again\r\n' "cut: not forwarded"
mctl round stop >/dev/null
stop cut
x=$(ls "$T"/state/transcripts/E1/*.TXT)
grep -q '^\*\*\* TRANSCRIPT CUT: [1-9][0-9]* BYTES LOST ON A FULL DISK \*\*\*$' "$x" ||
	fail "cut: no cut line in the transcript: $(grep -c . "$x") lines"
grep -q 'written again$' "$x" || fail "cut: the transcript did not go on"
"$TX" verify "$T"/state/captures/round01-*.cast >"$T/verify" 2>&1
grep -E ': (torn|event|seal|end|mismatch|format):' "$T/verify" &&
	fail "cut: verify finds the files broken"
grep -q 'fault: recording fault: the transcript gave up [1-9][0-9]* bytes on a full disk here (its cut line)' "$T/verify" ||
	fail "cut: verify does not tell the cut: $(cat "$T/verify")"
mkdir "$T/render"
"$TX" render -o "$T/render" "$T"/state/captures/round01-J1-*.cast >/dev/null ||
	fail "cut: the captures do not render"
w=$(sed -n 40000p "$T/bulk.sent")
grep -q "$w" "$T"/render/*.TXT || fail "cut: the capture does not render the text the transcript gave up"
grep -q "$w" "$x" && fail "cut: the text given up is in the transcript after all"
row "write transcript ENOSPC past 4 MiB" "text given up, a cut line says how much"

# A capture that can never be made: the round goes on unrecorded, every
# byte forwarded, the fault shown in status all along, and what was lost
# told when the link ends.
f='open:round01-*.cast:ENOSPC:1:0'
start "$f"
faulty || fail "$f: status shows no recording fault"
relay "$J" "$T/e1" 'judge line\r' "$f: not forwarded"
mctl round stop >/dev/null
wait_for "grep -q 'never recorded, its files could not be made: [0-9]* bytes input, [1-9][0-9]* output' '$T/muxd.log'" 10 ||
	fail "$f: the loss of the unrecorded link is not logged: $(grep record "$T/muxd.log")"
wait_for "grep '\"error\":\"never recorded\"' '$T/events' | grep -q '\"lost_output\":[1-9]'" 5 ||
	fail "$f: no event tells the loss: $(grep 'never' "$T/events")"
ls "$T"/state/captures/round01-*.cast >/dev/null 2>&1 && fail "$f: a capture was made after all"
stop "$f"
row "open capture ENOSPC (always)" "forwarded unrecorded, the loss told"

# A real full disk: the state on a small tmpfs, filled, then emptied.
if [ "$(id -u)" != 0 ] || ! mkdir -p "$T/small" || ! mount -t tmpfs -o size=4m tmpfs "$T/small" 2>/dev/null; then
	echo "full disk: skipped (needs root and tmpfs)"
	row "a real full disk (tmpfs)" "skipped"
else
	umount_small() { umount "$T/small" 2>/dev/null; }
	rm -rf "$T/state"
	room1
	sed -i "s|state = \"$T/state\"|state = \"$T/small/state\"|" "$T/room.conf"
	muxd_start -f "$T/room.conf"
	watch_events
	round_start 1
	J=$(facing E1)
	relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "full disk: no greeting"
	dd if=/dev/zero of="$T/small/filler" bs=64k 2>/dev/null
	talk_full() { talk_long "full disk: "; }
	talk_full
	faulty || { umount_small; fail "full disk: status shows no recording fault"; }
	rm -f "$T/small/filler"
	relay "$J" "$T/e1" 'space again\r' "full disk: not forwarded"
	relay "$T/e1" "$J" 'space again too\r\n' "full disk: not forwarded"
	faulty && { umount_small; fail "full disk: the fault did not clear"; }
	mctl round stop >/dev/null
	muxd_stop
	for c in "$T"/small/state/captures/*.cast; do
		jq -e . "$c" >/dev/null 2>&1 || { umount_small; fail "full disk: $c is not whole JSON lines"; }
	done
	"$TX" verify "$T"/small/state/captures/round01-*.cast >"$T/verify" 2>&1
	if grep -E ': (torn|event|seal|end|mismatch|format):' "$T/verify"; then
		umount_small; fail "full disk: verify finds the files broken"
	fi
	n=$(cat "$T"/small/state/transcripts/E1/*.TXT | grep -c '\]FULL \(judge\|entry\)')
	umount_small
	[ "$n" = 60 ] || fail "full disk: the transcript keeps $n of 60 lines"
	row "a real full disk (tmpfs)" "transcript kept, written when space returns"

	# Full before the round starts: its captures cannot be made; each
	# sync tries again, and once there is space they are, their start
	# marking what passed before.
	mount -t tmpfs -o size=4m tmpfs "$T/small" || fail "cannot mount a tmpfs again"
	RULES='sync = 1;'
	room1
	sed -i "s|state = \"$T/state\"|state = \"$T/small/state\"|" "$T/room.conf"
	muxd_start -f "$T/room.conf"
	watch_events
	dd if=/dev/zero of="$T/small/filler" bs=64k 2>/dev/null
	# The state cannot be saved either: the operator starts it anyway.
	mctl round start 1 --force >/dev/null || { umount_small; fail "full at start: the round did not start"; }
	J=$(facing E1)
	relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "full at start: no greeting"
	relay "$J" "$T/e1" 'typed while full\r' "full at start: not forwarded"
	faulty || { umount_small; fail "full at start: status shows no recording fault"; }
	grep -q "record J1-left: .*(its files made again at each sync); recording fault" "$T/muxd.log" ||
		{ umount_small; fail "full at start: the failed open is not said: $(grep record: "$T/muxd.log")"; }
	rm -f "$T/small/filler"
	wait_for "grep -q 'recording again; the fault lost [0-9]* bytes input, [1-9][0-9]* output' '$T/muxd.log'" 10 ||
		{ umount_small; fail "full at start: the capture was not made once there was space"; }
	relay "$J" "$T/e1" 'after the space\r' "full at start: not forwarded"
	mctl round stop >/dev/null
	muxd_stop
	c=$(grep -l '"m", "loss input [0-9]* output [1-9][0-9]* markers [0-9]* ENOSPC"' "$T"/small/state/captures/round01-*.cast)
	[ -n "$c" ] || { umount_small; fail "full at start: no loss marker: $(grep -h '"m"' "$T"/small/state/captures/round01-*.cast)"; }
	grep -q '"m", "fault record open ENOSPC"' "$c" || { umount_small; fail "full at start: the open's fault is not marked"; }
	grep -q 'after the space' "$c" || { umount_small; fail "full at start: what came after is not recorded"; }
	"$TX" verify "$T"/small/state/captures/round01-*.cast >"$T/verify" 2>&1
	if grep -E ': (torn|event|seal|end|mismatch|format):' "$T/verify"; then
		umount_small; fail "full at start: verify finds the files broken"
	fi
	grep -q 'recording fault, events lost or not synced: marker "loss input' "$T/verify" ||
		{ umount_small; fail "full at start: verify does not tell the loss: $(cat "$T/verify")"; }
	grep -h -q '^\*\*\* LOST JUDGE [0-9]* BYTES PROGRAM [1-9][0-9]* BYTES \*\*\*$' "$T"/small/state/transcripts/E1/*.TXT ||
		{ umount_small; fail "full at start: no loss line in the transcript"; }
	umount_small
	row "a disk full as a round starts (tmpfs)" "captures made once there is space, the loss marked"

	# Full as the round stops: the recordings' ends are kept, written
	# once there is space, and the captures closed whole (no crash at
	# the next start), the transcripts with their last lines.
	mount -t tmpfs -o size=4m tmpfs "$T/small" || fail "cannot mount a tmpfs again"
	room1
	sed -i "s|state = \"$T/state\"|state = \"$T/small/state\"|" "$T/room.conf"
	muxd_start -f "$T/room.conf"
	round_start 1
	J=$(facing E1)
	relay "$T/e1" "$J" 'Hello, my name is Ada and I am the human\r\n' "full at the end: no greeting"
	dd if=/dev/zero of="$T/small/filler" bs=64k 2>/dev/null
	talk_full
	tty "$J" 'send:the last words' >/dev/null
	tty "$T/e1" 'expect:the last words' >/dev/null || { umount_small; fail "full at the end: not forwarded"; }
	mctl round stop >/dev/null
	wait_for "grep -q 'record J1-left: its end cannot be written yet' '$T/muxd.log'" 10 ||
		{ umount_small; fail "full at the end: the refused end is not said: $(grep 'record' "$T/muxd.log" | tail -5)"; }
	# Status shows the recordings that wait, though their links ended.
	mctl -j status | jq -e '.ends_waiting | any(.record == "J1-left" and (.error | length > 0))' >/dev/null ||
		{ umount_small; fail "full at the end: status does not show the end that waits: $(mctl -j status | jq -c .ends_waiting)"; }
	mctl status | grep -q '^FAULT: the end of the recording of J1-left waits for the disk: .*kept open' ||
		{ umount_small; fail "full at the end: muxctl status does not say the end waits: $(mctl status)"; }
	rm -f "$T/small/filler"
	wait_for "grep -q 'record J1-left: its end written, closed' '$T/muxd.log'" 10 ||
		{ umount_small; fail "full at the end: the end was not written once there was space"; }
	[ "$(mctl -j status | jq '.ends_waiting | length')" = 0 ] ||
		{ umount_small; fail "full at the end: status still shows ends waiting: $(mctl -j status | jq -c .ends_waiting)"; }
	muxd_stop
	log_reset
	muxd_start -f "$T/room.conf"
	muxd_stop
	grep -i 'crash' "$T/muxd.log" && { umount_small; fail "full at the end: a capture was taken for a crash's"; }
	"$TX" verify "$T"/small/state/captures/round01-*.cast >"$T/verify" 2>&1
	if grep -E ': (torn|event|seal|end|mismatch|format):' "$T/verify"; then
		umount_small; fail "full at the end: verify finds the files broken"
	fi
	grep -q 'JUDGE.*the last words$' "$T"/small/state/transcripts/E1/*.TXT ||
		{ umount_small; fail "full at the end: the transcript lost its last line: $(tail -3 "$T"/small/state/transcripts/E1/*.TXT)"; }
	umount_small
	row "a disk full as a round stops (tmpfs)" "ends written once there is space, no crash"
fi

cat "$T/matrix"
echo ok
