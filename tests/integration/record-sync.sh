# muxd syncs its recordings with one syncfs(2) a batch, once every "sync"
# seconds (here 2) while something is written, and never with an fsync(2)
# per capture or transcript: on a journaling filesystem each of those is a
# journal commit of its own, which held back the loop's own writes.  The
# recordings are complete once the round stops.
. tests/integration/lib.sh

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
room2004
echo "sync = 2;" >>"$T/room.conf"
MUXD_WRAP="strace -f -qq -ttt -y -e trace=fsync,fdatasync,syncfs -o $T/strace" \
    muxd_start -f "$T/room.conf"
round_start 1

# Four stations and eight entities type for three seconds: 8 links, each
# with a capture and a transcript.
i=0
while [ $i -lt 15 ]; do
	w=
	for s in 1 2 3 4; do
		for p in "j${s}l" "j${s}r" "e$s" "c$s"; do
			printf 'line %d from %s\r' $i $p >"$T/$p" &
			w="$w $!"
		done
	done
	# shellcheck disable=SC2086
	wait $w
	sleep 0.2
	i=$((i + 1))
done
sleep 1.5
stop=$(date +%s.%N)
mctl round stop >/dev/null || fail "round 1 did not stop"
sleep 1.5
muxd_stop

grep 'syncfs(.*/state/\(captures\|transcripts\)/' "$T/strace" |
    awk '{ print $2 }' >"$T/syncs"
n=$(wc -l <"$T/syncs")
[ "$n" -ge 2 ] || fail "the recordings were synced $n times with syncfs:
$(cat "$T/strace")"
# Before the stop they are 2 s apart (below), however long a slow
# machine took to type; after it, the round's end and muxd's own: a few.
after=$(awk -v stop="$stop" '$1 >= stop' "$T/syncs" | wc -l)
[ "$after" -le 3 ] || fail "the recordings were synced $after times once the round stopped:
$(cat "$T/syncs")"
# While the round ran, syncs came 2 s apart (the round's end hands its
# last writes over at once).
awk -v stop="$stop" '$1 < stop { if (last != "" && $1 - last < 1.9) bad = bad " " $1 - last; last = $1; k++ }
    END { if (k < 2 || bad != "") { printf("%d syncs, gaps%s\n", k, bad); exit 1 } }' \
    "$T/syncs" >"$T/gaps" || fail "syncs not 2 s apart: $(cat "$T/gaps")"
if grep -E 'f(data)?sync\(.*\.(cast|TXT)>' "$T/strace" >"$T/per-file"; then
	fail "recordings were synced one by one, $(wc -l <"$T/per-file") times:
$(head -5 "$T/per-file")"
fi

# Each link's capture has the last line of both its ends.
n=0
for cap in "$T"/state/captures/round01-*.cast; do
	[ "$(grep -c 'line 14 from' "$cap")" = 2 ] ||
		fail "$(basename "$cap") lacks a last line: $(grep 'line 14' "$cap")"
	n=$((n + 1))
done
[ "$n" -ge 6 ] || fail "only $n captures: $(ls "$T/state/captures")"
echo ok
