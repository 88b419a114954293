# Eight links at once carry random bytes (every value) both ways, byte for
# byte, with no byte crossing to another link: six serial-to-serial links
# and two serial-to-TCP links in one muxd.
. tests/integration/lib.sh

args=
pairs=
i=1
while [ $i -le 6 ]; do
	cable "j$i"
	cable "e$i"
	args="$args --link $T/j$i.dev $T/e$i.dev"
	pairs="$pairs $T/j$i=$T/e$i"
	i=$((i + 1))
done
for i in 7 8; do
	cable "j$i"
	P=$(free_port)
	args="$args --link $T/j$i.dev tcp-listen:127.0.0.1:$P"
	pairs="$pairs $T/j$i=tcp:127.0.0.1:$P"
done
# shellcheck disable=SC2086
muxd_start -s "$SOCK" $args
wait_port link8-b waiting
wait_port link7-b waiting

# xfer names the directions that went wrong.  The end of muxd's log is
# mostly pauses and resumes, so say here what muxd still holds and what it
# dropped: a stream whose end was dropped looks like a stall to xfer.
# shellcheck disable=SC2086
if ! "$TOOLS/xfer" -n 300000 -s 42 -t 120 $pairs; then
	fail "bulk transfer not exact; ports queuing, held or dropping:
$(mctl -j status | jq -r '.ports[] | select(.queued > 0 or .paused or
    .dropped > 0) | "  \(.name): in \(.bytes_in) out \(.bytes_out) queued \(.queued) paused \(.paused) dropped \(.dropped)"')
$(grep -E 'queue full|were dropped' "$T/muxd.log")"
fi

# Nothing was dropped and every byte was counted.
for i in 1 2 3 4 5 6 7 8; do
	[ "$(port_field link$i-a dropped)" = 0 ] || fail "link$i dropped bytes"
	[ "$(port_field link$i-a bytes_in)" = 300000 ] ||
		fail "link$i-a counted $(port_field link$i-a bytes_in) bytes in, not 300000"
	[ "$(port_field link$i-b bytes_out)" = 300000 ] ||
		fail "link$i-b counted $(port_field link$i-b bytes_out) bytes out, not 300000"
done
echo ok
