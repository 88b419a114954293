# A line that goes away and comes back: comprog says so on its status line,
# keeps what is typed meanwhile and sends it on return (muxd's port code
# reopens the line with backoff), and refuses, visibly, what does not fit
# in the 4096 bytes it keeps.  A pulled serial cable, then a TCP peer that
# leaves and returns.
. tests/integration/lib.sh

mkdir -p "$T/rec"
cable x
cp_run judge "$COMPROG judge -r $T/rec $T/x.dev"
cp_wait judge 'x.dev.* up' 5 "the line did not come up"
cp_type judge 'before'
tty "$T/x" 'expect:before' >/dev/null || fail "no traffic before the fault"

# Pull the cable; the judge types on.
unplug x
cp_wait judge 'LINE DOWN' 5 "the pulled cable is not on the status line"
cp_type judge ' typed while away'
cp_key judge Enter
cp_wait judge '18 keys kept for it' 5 "what was typed during the outage is not said to be kept"
cp_wait judge '^>before typed while away$' 5 "the keys typed during the outage were not echoed"

# Plug it back: the keys arrive.
cable x
tty -t 15000 "$T/x" 'expect: typed while away\r' >/dev/null ||
	fail "what was typed during the outage was lost"
cp_wait judge 'x.dev.* up' 5 "the status line does not show the line back"
cap=$(ls "$T"/rec/comprog-judge-*.cast)
grep -q '"m", "fault line down ' "$cap" || fail "the outage is not marked in the capture"
grep -q '"m", "fault line up"' "$cap" || fail "the return is not marked in the capture"

# More than can be kept: the excess is refused, visibly, not lost silently.
unplug x
cp_wait judge 'LINE DOWN' 5 "the second pull is not on the status line"
i=0; long=
while [ $i -lt 42 ]; do long="${long}0123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 12345678 "; i=$((i + 1)); done
cp_type judge "$long"
cp_wait judge '4096 keys kept for it \| [0-9]+ keys REFUSED' 10 "keys beyond the queue are not refused visibly"
n=$(cp_screen judge | sed -n 's/.*| \([0-9]*\) keys REFUSED.*/\1/p')
[ "$n" = $((4200 - 4096)) ] || fail "$n keys refused, not $((4200 - 4096))"
grep -q '"m", "drop [0-9]* keys refused line down"' "$cap" || fail "the refusal is not marked in the capture"
cable x
tty -t 15000 "$T/x" 'expect:12345678 0123456789' 'drain:500' >/dev/null ||
	fail "the kept keys were not delivered"
cp_key judge C-] q

# A TCP peer that leaves and comes back.
P=$(free_port)
cp_run confed "$COMPROG confederate -n Bob --no-record tcp-listen:127.0.0.1:$P"
cp_run tj "$COMPROG judge --no-record tcp:127.0.0.1:$P"
cp_wait tj "tcp:127.0.0.1:$P up" 10 "the judge did not connect"
cp_type tj 'first'
cp_wait confed '^first$' 5 "nothing crossed before the peer left"
cp_key confed C-] q
cp_wait confed 'comprog-exit=0' 5 "the confederate did not quit"
cp_wait tj 'LINE DOWN' 5 "the judge's side does not say the peer left"
cp_type tj ' while you were out'
cp_wait tj '19 keys kept for it' 5 "the judge's keys are not kept"
tmux kill-session -t "confed-$$"
cp_run confed "$COMPROG confederate -n Bob --no-record tcp-listen:127.0.0.1:$P"
cp_wait confed '^ while you were out$' 15 "what the judge typed while the peer was away was lost"
cp_wait tj "tcp:127.0.0.1:$P up" 5 "the judge's status line does not show the line back"
echo ok
