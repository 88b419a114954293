# comprog gives the terminal back as it found it on every exit path:
# C-] q, SIGTERM, SIGHUP, SIGINT, a crash (SIGSEGV), and an error after the screen was taken
# (an exec: address, muxd's alone, refused once the screen is up), whose
# message is then printed on the restored terminal.  stty -g in the tmux
# pane before and after; while comprog runs, the terminal is raw.
. tests/integration/lib.sh

cable line
S=restore-$$
tmux new-session -d -s "$S" -x 80 -y 24 sh || fail "tmux could not start"
trap 'tmux kill-session -t "$S" 2>/dev/null; cleanup' EXIT
PTY=$(tmux display -p -t "$S" '#{pane_tty}')

# Run comprog in the pane with stty -g before and after it.
run() {
	rm -f "$T/pid" "$T/done" "$T/before" "$T/after"
	tmux send-keys -t "$S" "stty -g >$T/before; sh -c 'echo \$\$ >$T/pid; exec $*' 2>$T/err; echo \$? >$T/done; stty -g >$T/after" Enter
	wait_for "[ -s '$T/pid' ]" 5 || fail "comprog did not start in the pane"
}
# Check that the pane's terminal is as it was, and comprog's exit status.
restored() {
	wait_for "[ -s '$T/done' ]" 5 || fail "$1: comprog did not end"
	wait_for "[ -s '$T/after' ]" 5 || fail "$1: the shell did not run stty after comprog"
	cmp -s "$T/before" "$T/after" ||
		fail "$1: terminal not restored: $(cat "$T/before") became $(cat "$T/after")"
	[ "$(cat "$T/done")" = "$2" ] || fail "$1: exit status $(cat "$T/done"), not $2"
}

for how in q TERM HUP INT SEGV; do
	run "$COMPROG judge --no-record $T/line.dev"
	wait_for "tmux capture-pane -p -t '$S' | grep -q 'line.dev.* up'" 5 ||
		fail "comprog's screen did not come up"
	[ "$(stty -g <"$PTY")" != "$(cat "$T/before")" ] ||
		fail "the terminal is not in raw mode while comprog runs"
	case $how in
	q) tmux send-keys -t "$S" C-] q ;;
	*) kill "-$how" "$(cat "$T/pid")" ;;
	esac
	# A crash dies of its signal (128 + 11), the terminal given back.
	[ "$how" = SEGV ] && restored "$how" 139 || restored "$how" 0
done

# The confederate's split screen too.
run "$COMPROG confederate -n Bob --no-record $T/line.dev"
wait_for "tmux capture-pane -p -t '$S' | grep -q 'Begin with'" 5 || fail "no confederate screen"
kill -TERM "$(cat "$T/pid")"
restored "confederate, SIGTERM" 0

# An error once the screen is up: restored, then the message.
run "$COMPROG judge --no-record exec:/bin/cat"
restored "error" 1
grep -q "comprog: bad address 'exec:/bin/cat': exec: is muxd's" "$T/err" ||
	fail "the error was not printed after the screen: $(cat "$T/err")"
echo ok
