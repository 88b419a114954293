# comprog's entry adapter puts a console chatbot (a sh script) on a line:
# each judge's turn is handed to it as a line, its answer typed out a key
# at a time with the typing model; when it dies it is started again, told
# the turn it had not answered, and that is logged and marked, never shown
# to the judge.  Then the whole chain: comprog's judge side, muxd, the
# adapter.
. tests/integration/lib.sh

cat >"$T/bot" <<'EOF'
#!/bin/sh
# Answers each line; exits with status 3 once, when $DIE exists; says
# goodbye and exits when told bye.
while IFS= read -r line; do
	if [ -e "$DIE" ]; then rm -f "$DIE"; exit 3; fi
	case $line in *bye*) echo "Goodbye."; exit 0 ;; esac
	echo "You said: $line"
	echo "bot: answered a line of ${#line} bytes" >&2
done
EOF
chmod +x "$T/bot"
export DIE="$T/die"
mkdir -p "$T/rec"

cable line
bg "$COMPROG" entry --typing 20+-10 --seed 7 -r "$T/rec" -l "$T/entry.log" "$T/line.dev" -- "$T/bot"
wait_for "grep -q 'port line: up' '$T/entry.log'" 5 || fail "the adapter's line did not come up"

# A two-line turn is one line for the program; the answer is typed.
tty "$T/line" 'type:Hello\rthere\r\r' 'expect:You said: Hello there\r\n' >/dev/null ||
	fail "no answer to the judge's turn"
# What the program says on its standard error is in comprog's log.
wait_for "grep -q 'program: bot: answered a line of 11 bytes' '$T/entry.log'" 5 ||
	fail "the program's standard error is not in the log: $(cat "$T/entry.log")"
cap=$(ls "$T"/rec/comprog-entry-*.cast)
n=$(grep -c '^\[[0-9.]*, "o", "[^"]"\]$' "$cap")
[ "$n" -ge 21 ] || fail "the answer was not typed one key at a time ($n one-key events): $(cat "$cap")"
first=$(grep '"o"' "$cap" | head -1 | sed 's/^\[\([0-9.]*\),.*/\1/')
last=$(grep '"o"' "$cap" | tail -1 | sed 's/^\[\([0-9.]*\),.*/\1/')
awk "BEGIN { exit !($last - $first >= 0.3) }" ||
	fail "22 keys at 20+-10 ms (more after ':') took only $first..$last s"

# The program dies on the next turn; a new one answers that turn.
touch "$DIE"
tty -t 8000 "$T/line" 'type:please die\r\r' 'expect:You said: please die\r\n' >"$T/died" ||
	fail "the restarted program did not answer the turn the dead one left"
grep -qi 'exit\|restart\|status' "$T/died" && fail "the judge was told about the restart: $(cat "$T/died")"
grep -q "program $T/bot exited with status 3; restarting it in 250 ms" "$T/entry.log" ||
	fail "the restart is not in the log: $(cat "$T/entry.log")"
grep -q '"m", "fault program exited with status 3 restarting"' "$cap" ||
	fail "the restart is not marked in the capture"
tty "$T/line" 'type:still there?\r\r' 'expect:You said: still there?\r\n' >/dev/null ||
	fail "no answer after the restart"
# A program's last words before it exits are typed too.
tty -t 8000 "$T/line" 'type:bye\r\r' 'expect:Goodbye.\r\n' >/dev/null ||
	fail "the answer of a program that then exited was lost"
wait_for "grep -q 'exited with status 0; restarting' '$T/entry.log'" 5 ||
	fail "the program's exit is not in the log"
tx=$(ls "$T"/rec/LP*.TXT)
grep -q '^JUDGE??\[[0-9:]*\]please die$' "$tx" || fail "the judge's turn is not in the transcript: $(cat "$tx")"
grep -q '^PROGRAM\[[0-9:]*\]You said: still there?$' "$tx" || fail "the answer is not in the transcript: $(cat "$tx")"

# With --echo the adapter prompts and echoes for a plain terminal.
cable plain
bg "$COMPROG" entry --echo --typing 0 --no-record -l "$T/echo.log" "$T/plain.dev" -- "$T/bot"
tty "$T/plain" 'expect:>' 'type:hi\r\r' 'expect:hi\r\n>\r\n' 'expect:You said: hi\r\n' >/dev/null ||
	fail "no prompt and echo with --echo"

# A program that cannot run is retried, and the log says why, in its words.
cable none
bg "$COMPROG" entry --no-record -l "$T/none.log" "$T/none.dev" -- "$T/no-such-bot" 2>"$T/none.err"
wait_for "grep -q 'exited with status 127; restarting' '$T/none.log'" 5 ||
	fail "a program that cannot run is not reported: $(cat "$T/none.log")"
grep -q "program: comprog: cannot run $T/no-such-bot: No such file or directory" "$T/none.log" ||
	fail "the reason it cannot run is not in the log: $(cat "$T/none.log")"

# The chain: comprog's judge side, muxd (prompt, echo), the adapter.
room1
muxd_start -f "$T/room.conf"
round_start 1
J=$(facing E1)
bg "$COMPROG" entry --typing 5 --no-record -l "$T/chain.log" "$T/e1" -- "$T/bot"
cp_run judge "$COMPROG judge --remote-echo --no-record $J"
cp_wait judge '^>' 5 "no prompt through muxd"
cp_type judge 'Are you a program?'
cp_key judge Enter Enter
cp_wait judge '^You said: Are you a program\?$' 10 "the entry's answer did not reach the judge's screen"
echo ok
