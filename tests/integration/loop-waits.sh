# While a timed round runs and its recordings are written, muxd's loop
# waits for the next byte with no timeout: the round's end and the next
# sync of the recordings are timer descriptors armed once, not timeouts
# passed to every epoll_wait(2) (each of which arms a kernel timer, once
# per byte at typing speed).  The round still ends when its time is up.
. tests/integration/lib.sh

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
DURATION=8 room2004
MUXD_WRAP="strace -f -qq -ttt -e trace=epoll_wait,epoll_pwait,epoll_pwait2 -o $T/strace" \
    muxd_start -f "$T/room.conf"
wait_port c4 up
round_start 1
sleep 1

# Two stations and four entities type a key at a time, 160 keys in all.
mark=$(date +%s.%N)
i=0
while [ $i -lt 20 ]; do
	for p in j1l j1r e1 c1 j2l j2r e3 c2; do
		printf 'k' >"$T/$p"
		sleep 0.01
	done
	i=$((i + 1))
done
end=$(date +%s.%N)
wait_for "mctl -j status | jq -e '.round.active == false and .round.last == 1'" 15 ||
	fail "round 1 did not stop when its duration was up"
muxd_stop

# The waits that ended while the keys were typed, and their timeouts.
awk -v mark="$mark" -v end="$end" '
    $2 + 0 >= mark && $2 + 0 <= end && /epoll_p?wait2?[(]|epoll_p?wait2? resumed/ &&
    match($0, /, -?[0-9]+(, NULL, [0-9]+)?[)] += /) {
	t = substr($0, RSTART + 2)
	sub(/[,)].*/, "", t)
	n++
	if (t != "-1") { timed++; if (ex == "") ex = $0 }
    }
    END { printf("%d %d %s\n", n, timed, ex) }' "$T/strace" >"$T/waits"
read -r n timed ex <"$T/waits"
# Some 160 waits when each key wakes muxd alone; a loaded machine has it
# read several keys a wake-up: 20 at least show the waits were traced.
[ "$n" -ge 20 ] || fail "only $n waits seen while 160 keys were typed: $(head -5 "$T/strace")"
[ "$timed" = 0 ] || fail "$timed of $n waits had a timeout while bytes flowed, as: $ex"
echo ok
