#!/bin/sh
# make demo in a terminal, as a person sees it.  From a plain terminal its
# tmux session shows the judge's two terminals side by side, the
# confederate's under the left one and the operator's events under the
# right one; the judge types to the entry in tio (a message ends with an
# empty line, as under the 1996 rules) and reads its answer;
# Ctrl-b d ends the demo and muxd with it.  From inside tmux, where attach
# would nest, the client switches to the demo's session, and Ctrl-b ( takes
# it back and ends the demo.  The person's terminal is a pane of a tmux
# server of the scenario's own (-L term); every server lives under $T.
# test: entries: its entries' programs run as uids another muxd would share
. tests/integration/lib.sh

command -v tmux >/dev/null || fail "tmux is not installed (sh mk/deps check installs it)"
command -v tio >/dev/null || fail "tio is not installed (sh mk/deps check installs it)"
export TMUX_TMPDIR="$T" TMPDIR="$T"
unset TMUX CI
# Stop the tmux servers and anything the demo left, then the usual.
demo_cleanup() {
	tmux -L term kill-server 2>/dev/null
	tmux kill-server 2>/dev/null
	pkill -f "$T/muxd-demo" 2>/dev/null
	cleanup
}
trap demo_cleanup EXIT

# The pane of the demo's session at a corner: tl, tr, bl or br.
pane_at() {
	tmux list-panes -t muxd-demo -F '#{pane_id} #{pane_left} #{pane_top}' |
	    awk -v c="$1" '{
		k = ($3 == 0 ? "t" : "b") ($2 == 0 ? "l" : "r")
		if (k == c) print $1 }'
}

# What a pane of the demo's session shows.
shows() { tmux capture-pane -p -t "$1" 2>/dev/null; }

# Check the demo session's layout: every corner has its terminal.
check_layout() {
	for c in "tl:JUDGE, left terminal" "tr:JUDGE, right terminal" \
	    "bl:CONFEDERATE terminal" "br:OPERATOR: muxctl watch"; do
		p=$(pane_at "${c%%:*}")
		[ -n "$p" ] || fail "the demo has no pane at ${c%%:*}: $(tmux list-panes -t muxd-demo -F '#{pane_left},#{pane_top} #{pane_width}x#{pane_height}' | tr '\n' ' ')"
		wait_for "shows $p | grep -q '${c#*:}'" 5 ||
		    fail "the pane at ${c%%:*} does not show '${c#*:}': $(shows "$p" | head -3)"
	done
}

# 1. From a plain terminal.
tmux -L term new-session -d -s t1 -x 170 -y 50 \
    "cd '$ROOT' && env -u TMUX sh contrib/demo/run '$B'; echo \$? >'$T/t1.exit'; sleep 600"
wait_for 'tmux list-clients -t muxd-demo | grep -q .' 15 ||
	fail "make demo did not open its tmux session in the terminal: $(tmux -L term capture-pane -p -t t1 | grep -v '^$' | tail -3)"
check_layout
ctl=$(ls -d "$T"/muxd-demo.*/muxd.sock)
side=$("$MUXCTL" -s "$ctl" -j status | jq -r '.links[] | select(.entity == "E1") | .side')
p=$(pane_at "t$(echo "$side" | cut -c1)")
tmux send-keys -t "$p" -l 'Hello, who are you?'
tmux send-keys -t "$p" Enter Enter
wait_for "shows $p | grep -q 'Hello, my name is Ada and I am the human'" 15 ||
	fail "the judge's $side terminal did not show the entry's answer: $(shows "$p" | grep -v '^$' | tail -3)"
pgrep -f "muxd/muxd -f $T/muxd-demo" >/dev/null || fail "muxd is not running during the demo"
tmux detach-client -s muxd-demo
wait_for "[ -s '$T/t1.exit' ]" 10 || fail "detaching did not end the demo"
[ "$(cat "$T/t1.exit")" = 0 ] || fail "make demo exited $(cat "$T/t1.exit")"
wait_for "! pgrep -f 'muxd/muxd -f $T/muxd-demo'" 5 || fail "muxd outlived the demo"
tmux has-session -t muxd-demo 2>/dev/null && fail "the demo's session outlived it"

# 2. From inside tmux: the person's own session runs make demo.
tmux new-session -d -s user -x 160 -y 48 \
    "while [ ! -e '$T/go' ]; do sleep 0.1; done; cd '$ROOT' && sh contrib/demo/run '$B'; echo \$? >'$T/t2.exit'; sleep 600"
tmux -L term new-session -d -s t2 -x 170 -y 50 "env -u TMUX tmux attach -t user"
wait_for 'tmux list-clients -t user | grep -q .' 10 || fail "no client on the session user"
touch "$T/go"
wait_for 'tmux list-clients -t muxd-demo | grep -q .' 15 ||
	fail "inside tmux, make demo did not show its session: $(tmux capture-pane -p -t user | grep -v '^$' | tail -3)"
[ -e "$T/t2.exit" ] && fail "inside tmux, make demo ended at once"
check_layout
shows "$(pane_at br)" | grep -q 'Ctrl-b ( takes you back' ||
	fail "the operator's pane does not say how to leave: $(shows "$(pane_at br)" | head -3)"
tmux -L term send-keys -t t2 C-b '('
wait_for "[ -s '$T/t2.exit' ]" 10 || fail "Ctrl-b ( did not end the demo"
[ "$(cat "$T/t2.exit")" = 0 ] || fail "make demo exited $(cat "$T/t2.exit")"
tmux list-clients -t user | grep -q . || fail "the client did not go back to its own session"
wait_for "! pgrep -f 'muxd/muxd -f $T/muxd-demo'" 5 || fail "muxd outlived the demo"
echo "ok: the demo's session in a terminal and inside tmux, laid out, used and left"
