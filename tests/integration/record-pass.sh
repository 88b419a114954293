# A sync seals every capture before handing it over, hashing what was
# written since its last seal.  Done for all of them at once, that held
# the loop for milliseconds a second at 128 links; muxd seals and hands
# them over in turns of 64 KB of that work, looking at its lines between
# two turns.  Here 16 unrouted ports are each sent some 40 KB, so that a
# sync has several times that to seal: the handovers of one sync (a dup
# of each file, F_DUPFD_CLOEXEC) must have an epoll_wait among them, and
# every capture must still verify.
. tests/integration/lib.sh
TX=$ROOT/$B/transcripts/transcripts

command -v strace >/dev/null || fail "strace is not installed (apt-get install strace)"
room2004
MUXD_WRAP="strace -f -qq -ttt -y --seccomp-bpf -e trace=fcntl,epoll_wait -o $T/strace" \
    muxd_start -f "$T/room.conf"
main=$MUXD_PID

# No round: every port's bytes go to its own unrouted capture.
send_bulk j1l j1r e1 c1 j2l j2r e2 c2 j3l j3r e3 c3 j4l j4r e4 c4
# Every capture handed over (by the sync a second after the bytes, or
# the next ones, when the machine is slow).
wait_for "[ \$(grep -o 'F_DUPFD_CLOEXEC.*unrouted-[^>]*\.cast>' '$T/strace' | sort -u | wc -l) -ge 16 ]" 60 ||
	fail "not every capture was handed over: $(grep -c F_DUPFD_CLOEXEC "$T/strace") handovers traced"
muxd_stop

# The handovers, by time; a gap of half a second starts another sync.
grep -n 'F_DUPFD_CLOEXEC.*unrouted-.*\.cast>' "$T/strace" |
    awk -F: '{ split($2, f, " "); print $1, f[2] }' >"$T/dups"
[ -s "$T/dups" ] || fail "no capture was handed over: $(grep -c . "$T/strace") lines traced"
awk -v main="$main" '
    BEGIN { n = 0 }
    FILENAME == ARGV[1] {
	if (last != "" && $2 - last > 0.5) n++
	if (!(n in first)) first[n] = $1
	end[n] = $1; count[n]++; last = $2; next }
    { lines[FNR] = $0 }
    END {
	for (i = 0; i <= n; i++) {
		if (count[i] < 2)
			continue
		k = 0
		for (j = first[i] + 1; j < end[i]; j++)
			if (lines[j] ~ ("^" main " .*epoll_wait\\("))
				k++
		printf("sync %d: %d captures, %d epoll_wait among them\n", i, count[i], k)
		if (k > 0)
			ok = 1
	}
	exit !ok }' "$T/dups" "$T/strace" >"$T/turns" ||
	fail "a sync sealed its captures in one go: $(cat "$T/turns")"

n=0
for cap in "$T"/state/captures/unrouted-*.cast; do
	# Alone, without a manifest: intact, but unverified (3).
	"$TX" verify "$cap" >"$T/verify" 2>&1
	[ $? = 3 ] || fail "$(basename "$cap") does not verify: $(cat "$T/verify")"
	n=$((n + 1))
done
[ "$n" = 16 ] || fail "$n unrouted captures, not 16: $(ls "$T/state/captures")"
echo "ok: $(sed -n 1p "$T/turns")"
