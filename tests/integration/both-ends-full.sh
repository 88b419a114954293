# Both ends of a link send at once while neither is read.  muxd holds one
# end back once the queue it feeds reaches the limit, but never the other
# as well (a peer that stops reading while it cannot write, socat for one,
# would leave neither queue able to drain): the queue fed by the end still
# read grows to 16 times the limit, and what is past that is dropped,
# counted, and logged with the size the queue reached.  Once the ends are
# read again, the link carries bytes both ways.
. tests/integration/lib.sh

cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state"; queue_limit = 256;
ports = (
  { name = "a"; address = "pty:$T/a"; },
  { name = "b"; address = "pty:$T/b"; }
);
EOC
muxd_start -f "$T/room.conf"
mctl connect a b >/dev/null || fail "connect failed"

head -c 300000 /dev/urandom >"$T/data"
bg sh -c "exec cat '$T/data' >'$T/a'"
wa=$LAST_PID
bg sh -c "exec cat '$T/data' >'$T/b'"
wb=$LAST_PID

# The queue that overflowed is that of the end held back: the other queue
# filled first, and the end still read feeds this one.
wait_for "[ \"\$(port_field a dropped)\" -gt 0 ] ||
    [ \"\$(port_field b dropped)\" -gt 0 ]" 15 ||
	fail "nothing was dropped (a queued $(port_field a queued), b queued $(port_field b queued))"
if [ "$(port_field a dropped)" -gt 0 ]; then full=a read=b; else full=b read=a; fi
[ "$(port_field $read dropped)" = 0 ] || fail "both ports dropped bytes"
[ "$(port_field $full paused)" = true ] || fail "port $full was not held back"
[ "$(port_field $read paused)" = false ] || fail "both ends were held back"
[ "$(port_field $full queued)" = 4096 ] ||
	fail "port $full queued $(port_field $full queued) bytes, not 16 times 256"
q=$(port_field $read queued)
if [ "$q" -lt 256 ] || [ "$q" -gt $((256 + 4096)) ]; then
	fail "port $read queued $q bytes, not from its limit to one read past it"
fi
grep -q "port $full: queue full (4096 bytes), dropping bytes for it" \
    "$T/muxd.log" || fail "the drop was not logged with the queue's size"

# Both ends are read again: the queues drain, and the link carries bytes
# both ways (after what was still waiting in the lines).
kill "$wa" "$wb" 2>/dev/null
bg sh -c "exec cat '$T/a' >/dev/null"
ra=$LAST_PID
bg sh -c "exec cat '$T/b' >/dev/null"
rb=$LAST_PID
wait_for "[ \"\$(port_field a queued)\" = 0 ] &&
    [ \"\$(port_field b queued)\" = 0 ] &&
    [ \"\$(port_field a paused)\" = false ] &&
    [ \"\$(port_field b paused)\" = false ]" 15 ||
	fail "the queues did not drain once the ends were read"
# The readers gone before the relay below, which one still dying on a
# loaded machine would read from under it.
kill "$ra" "$rb"
wait "$ra" "$rb" 2>/dev/null
wait_for "grep -q 'port $full: queue drained; [0-9]* bytes were dropped' \
    '$T/muxd.log'" 5 || fail "the end of the drop episode was not logged"
relay "$T/a" "$T/b" 'from a, after it all\r' \
    "the link no longer carries bytes from a to b"
relay "$T/b" "$T/a" 'from b, after it all\r' \
    "the link no longer carries bytes from b to a"
echo ok
