# Keys that waited in the line say nothing of how they were typed: when a
# judge's terminal stops reading, the entity facing it is held back
# (backpressure) and what it types meanwhile comes in one read once the
# terminal reads again.  That read is counted apart ("released after a
# wait"), not as a burst against 2004 rule 5.
. tests/integration/lib.sh

RULES='queue_limit = 256;' room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
# The entity reads what the judge types; the judge's terminal does not read.
bg sh -c "cat '$T/e1' >/dev/null"
# Its queue passes the limit, short of the hard limit (16 times) where
# bytes would be dropped.
n=0
while [ "$(port_field "$(basename "$J")" queued)" -lt 256 ]; do
	[ $n -lt 300 ] || fail "the judge's terminal never backed up"
	head -c 1000 /dev/zero | tr '\0' x >"$J" || fail "the judge could not type"
	sleep 0.05
	n=$((n + 1))
done

# The entity types by hand while it is held back.
tty -d 30 "$T/e1" 'type:abcdefghijklmnopqrst' >/dev/null
wait_for "[ \"\$(port_field e1 paused)\" = true ]" 5 ||
	fail "the entity was not held back: $(mctl -j status | jq -c '.ports[] | select(.name == "e1")')"
# The terminal reads again: everything arrives, in order.
tty "$J" 'expect:abcdefghijklmnopqrst' >/dev/null ||
	fail "the entity's keys did not arrive after the wait"
mctl round stop >/dev/null
grep 'character E1' "$T/state/compliance.txt" >"$T/verdict"
grep -q 'PASS character E1: 20 characters, 0 bursts' "$T/verdict" ||
	fail "keys that waited counted as a burst: $(cat "$T/verdict")"
grep -Eq ', ([2-9]|1[0-9]) released after a wait' "$T/verdict" ||
	fail "no keys counted as released after the wait: $(cat "$T/verdict")"
echo ok
