# A real terminal program as the judge terminal: tio, in tmux, on a pty
# muxd creates.  Keys typed in tio reach the entity one by one; what the
# entity writes appears on tio's screen.  picocom does the same on a
# serial cable.
. tests/integration/lib.sh

cable entity
cable e2
cable j2
S=muxd-tio-$$
muxd_start -s "$SOCK" --link "pty:$T/judge" "$T/entity.dev" --link "$T/j2.dev" "$T/e2.dev"
wait_port link1-a up
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 80 -y 24 "tio --baudrate 9600 $T/judge; sleep 5"
trap 'tmux kill-session -t "$S" 2>/dev/null; cleanup' EXIT
screen() { tmux capture-pane -p -t "$S"; }
wait_for "screen | grep -qi 'connected'" 10 || fail "tio did not connect: $(screen)"

# Each key the judge presses reaches the entity before the next one.
for key in H e l l o '?'; do
	tmux send-keys -t "$S" -l "$key"
	tty -t 2000 "$T/entity" "expect:$key" >/dev/null || fail "key '$key' not delivered at once"
done
tmux send-keys -t "$S" Enter
tty "$T/entity" 'expect:\r' >/dev/null || fail "Enter did not arrive as CR"

# The entity answers; the judge sees it.
tty "$T/entity" 'type:Hello, my name is Ada and I am the human\r\n' >/dev/null
wait_for "screen | grep -q 'Hello, my name is Ada and I am the human'" 5 ||
	fail "the answer is not on tio's screen: $(screen)"

# picocom as the other judge terminal, on a serial cable.
P=muxd-pico-$$
tmux new-session -d -s "$P" -x 80 -y 24 "picocom -b 9600 $T/j2; sleep 5"
trap 'tmux kill-session -t "$S" 2>/dev/null; tmux kill-session -t "$P" 2>/dev/null; cleanup' EXIT
wait_for "tmux capture-pane -p -t $P | grep -q 'Terminal ready'" 10 || fail "picocom did not start"
tmux send-keys -t "$P" -l 'Are you human?'
tty "$T/e2" 'expect:Are you human?' >/dev/null || fail "picocom's keys not delivered"
tty "$T/e2" 'type:Yes.\r\n' >/dev/null
wait_for "tmux capture-pane -p -t $P | grep -q 'Yes.'" 5 || fail "picocom did not show the answer"
echo ok
