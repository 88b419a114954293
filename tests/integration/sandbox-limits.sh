# An exec: entry's limits and its log: E1 floods its standard error (its
# log stops at entry_log_limit, the cut said; muxd's log gets nothing of
# it), fills its file size limit (the write fails), writes more memory
# than its limit (refused) but reserves more address space than it (as
# a JVM does: allowed), forks without end
# (its process limit is reached: it is stopped, recorded in muxd's log
# and the capture, and started again).  Meanwhile E2's judge asks and
# gets E2's answers, and E2's transcript holds E2's words only.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

[ "$(id -u)" = 0 ] || { echo "needs root"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3"; exit 77; }
command -v bwrap >/dev/null || { echo "no bwrap (apt-get install bubblewrap)"; exit 77; }

mkdir -p "$T/e1" "$T/e2"
chmod 755 "$T/e1" "$T/e2"
cat >"$T/e2/bot" <<'EOB'
#!/bin/sh
while IFS= read -r line; do
	[ -z "$line" ] && continue
	printf 'E2 heard: %s\r\n' "$line"
done
EOB
cat >"$T/e1/bot" <<'EOB'
#!/bin/sh
printf 'E1 here\r\n'
while IFS= read -r line; do
	case $line in
	flood*)
		head -c 20000000 /dev/zero | tr '\0' x >&2
		printf 'flooded\r\n' ;;
	fsize*)
		if dd if=/dev/zero of=/tmp/big bs=64k count=64 2>/dev/null; then
			r=DONE; else r=denied; fi
		printf 'fsize:%s size:%s\r\n' "$r" "$(stat -c %s /tmp/big)" ;;
	memory*)
		# 3 GiB written is refused; 8 GiB reserved (as a JVM or V8
		# reserves its heap) is not.
		/usr/bin/python3 -c 'import mmap
try:
    m = mmap.mmap(-1, 8 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=0)
    r = "ok"
except Exception:
    r = "denied"
try:
    b = bytearray(3 << 30)
    a = "DONE"
except MemoryError:
    a = "denied"
print("reserve:" + r + " alloc:" + a, end="\r\n")' ;;
	fork*)
		# A bomb that keeps trying (sh would give up at once).
		printf 'forking\r\n'
		exec /usr/bin/python3 -c 'import os, time
while True:
    try:
        if os.fork() == 0:
            time.sleep(1000)
    except OSError:
        time.sleep(0.01)' ;;
	?*)
		printf 'E1 heard: %s\r\n' "$line" ;;
	esac
done
EOB
chmod 755 "$T/e1/bot" "$T/e2/bot"

cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
entry_log_limit = 65536;
ports = (
  { name = "j1l"; address = "pty:$T/j1l"; }, { name = "j1r"; address = "pty:$T/j1r"; },
  { name = "j2l"; address = "pty:$T/j2l"; }, { name = "j2r"; address = "pty:$T/j2r"; },
  { name = "e1"; address = "exec:$T/e1/bot"; },
  { name = "e2"; address = "exec:$T/e2/bot"; },
  { name = "c1"; address = "pty:$T/c1"; }, { name = "c2"; address = "pty:$T/c2"; }
);
stations = ( { name = "J1"; judge = 1; left = "j1l"; right = "j1r"; },
             { name = "J2"; judge = 2; left = "j2l"; right = "j2r"; } );
entities = (
  { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; eol = "lf";
    limits = { processes = 16; file_size = 1048576; }; },
  { name = "E2"; kind = "entry"; port = "e2"; approved = "Eve"; eol = "lf"; },
  { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; },
  { name = "C2"; kind = "confederate"; port = "c2"; approved = "Cy"; } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1"), ("J2", "E2", "C2") ); } ); seed = 5; };
EOC
muxd_start -f "$T/room.conf"
wait_port e1 up
wait_port e2 up
round_start 1
J1=$(echo "$T/j1$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .side' | cut -c1)")
J2=$(echo "$T/j2$(mctl -j status | jq -r '.links[] | select(.entity == "E2") | .side' | cut -c1)")
ask_e2() {
	tty "$J2" "type:$1\\r" "expect:E2 heard: $1" "save:$T/j2.bytes" >/dev/null ||
		fail "E2 did not answer '$1': $(cat "$T/j2.bytes")"
}
tty "$J1" 'expect:E1 here' >/dev/null || fail "E1 did not greet"
ask_e2 "question one"

# The flood: the entry's log stops at its limit; muxd's log is untouched.
s0=$(stat -c %s "$T/muxd.log")
tty "$J1" 'type:flood\r' 'expect:flooded' "save:$T/j1.bytes" >/dev/null ||
	fail "E1 did not flood: $(cat "$T/j1.bytes")"
log=$T/state/logs/e1.log
wait_for "grep -q '^muxd: .*cut: this log has reached its limit of 65536 bytes' '$log'" 5 ||
	fail "the cut is not said in E1's log: $(tail -c 300 "$log")"
sz=$(stat -c %s "$log")
[ "$sz" -le $((65536 + 1024)) ] || fail "E1's log grew to $sz bytes, past its limit"
tail -c +"$((s0 + 1))" "$T/muxd.log" | grep -q xxxx && fail "the flood reached muxd's log"
[ $(( $(stat -c %s "$T/muxd.log") - s0 )) -lt 400 ] ||
	fail "muxd's log grew by more than a line: $(tail -c +"$((s0 + 1))" "$T/muxd.log")"
ask_e2 "question two"

# The file size limit: the write fails at 1 MiB.
tty "$J1" 'type:fsize\r' 'expect:fsize:' 'expect:\r\n' "save:$T/j1.bytes" >/dev/null ||
	fail "E1 did not try its file size: $(cat "$T/j1.bytes")"
grep -q 'fsize:denied size:1048576' "$T/j1.bytes" ||
	fail "the file size limit did not hold: $(tr -d '\r' <"$T/j1.bytes")"
ask_e2 "question three"

# Memory: writing 3 GiB is refused at the room's 2 GiB; reserving 8 GiB
# of address space, as a JVM does, is not.
tty "$J1" 'type:memory\r' 'expect:alloc:' 'expect:\r\n' "save:$T/j1.bytes" >/dev/null ||
	fail "E1 did not try its memory: $(cat "$T/j1.bytes")"
grep -q 'reserve:ok alloc:denied' "$T/j1.bytes" ||
	fail "the memory limit: $(tr -d '\r' <"$T/j1.bytes")"
ask_e2 "question four"

# The fork bomb: stopped at its limit, recorded, started again.
starts=$(grep -c 'port e1: started' "$T/muxd.log")
tty "$J1" 'type:fork\r' 'expect:forking' >/dev/null || fail "E1 did not fork"
wait_for "grep -q 'port e1: stopped: its processes reached their limit of 16' '$T/muxd.log'" 10 ||
	fail "the fork bomb was not stopped"
grep -q 'port e1: down: program ended: stopped: its processes reached their limit of 16' \
    "$T/muxd.log" || fail "the line did not go down with why"
grep -q 'stopped: its processes reached their limit of 16' "$log" ||
	fail "E1's log does not say it was stopped"
wait_for "[ \$(grep -c 'port e1: started' '$T/muxd.log') -gt $starts ]" 10 ||
	fail "E1 was not started again"
wait_port e1 up
tty "$J1" 'expect:E1 here' 'type:back?\r' 'expect:E1 heard: back?' "save:$T/j1.bytes" >/dev/null ||
	fail "the new E1 did not answer: $(cat "$T/j1.bytes")"
u1=$(sed -n 's/.*port e1: started .* as uid \([0-9]*\),.*/\1/p' "$T/muxd.log" | tail -1)
[ "$(pgrep -c -u "$u1")" -lt 16 ] || fail "E1's processes outlived its stop: $(pgrep -c -u "$u1")"
ask_e2 "question four"
mctl round stop >/dev/null
cap=$(grep -l '"E1"' "$T"/state/captures/round01-J1-*.cast)
grep -q 'processes reached their limit of 16' "$cap" ||
	fail "E1's capture does not note the stop"
tr=$(ls "$T"/state/transcripts/E2/*.TXT)
for q in one two three four; do
	grep -q "E2 heard: question $q" $tr || fail "E2's transcript lacks its answer $q"
done
grep -qi 'E1 \|flood\|fsize\|fork' $tr && fail "E2's transcript has words not E2's: $(cat $tr)"
muxd_stop
echo ok
