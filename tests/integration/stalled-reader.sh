# A judge terminal that stops reading must not slow any other link: its
# entity is held back (backpressure, nothing lost) while the other link
# still delivers each byte at once; when the terminal reads again, every
# byte arrives, in order.
. tests/integration/lib.sh

cable j1
cable e1
cable j2
cable e2
muxd_start -s "$SOCK" --link "$T/j1.dev" "$T/e1.dev" --link "$T/j2.dev" "$T/e2.dev"

# The entity on link 1 sends 2 MB towards a terminal nobody reads.
head -c 2000000 /dev/urandom >"$T/data"
bg sh -c "cat '$T/data' >'$T/e1'"
writer=$LAST_PID
wait_for "[ \"\$(port_field link1-a queued)\" -gt 0 ]" 10 ||
	fail "link 1's terminal never backed up"

# Link 2 carries on byte by byte, many times over.
n=0
while [ $n -lt 20 ]; do
	"$TOOLS/typer" -q -t 1000 "$T/j2" "$T/e2" 'still here\r\r' ||
		fail "link 2 was held up by link 1's stalled terminal"
	"$TOOLS/typer" -q -t 1000 "$T/e2" "$T/j2" 'me too\r\n' ||
		fail "link 2 (reverse) was held up by link 1's stalled terminal"
	n=$((n + 1))
done
kill -0 "$writer" 2>/dev/null || fail "the writer finished: nothing was stalled"
q=$(port_field link1-a queued)
[ "$q" -le $((65536 + 4096)) ] || fail "queue grew to $q bytes, past its limit"

# The terminal reads again: all 2 MB arrive intact, nothing dropped.
head -c 2000000 "$T/j1" >"$T/got" &
reader=$!
wait_for "! kill -0 $reader" 60 || fail "only $(wc -c <"$T/got") of 2000000 bytes arrived"
cmp "$T/data" "$T/got" || fail "the stalled link's bytes arrived altered"
[ "$(port_field link1-a dropped)" = 0 ] || fail "bytes were dropped"
echo ok
