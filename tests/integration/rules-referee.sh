# The referee view: "muxctl watch --text" shows every live conversation as
# lines of text (backspaces applied, CRLF and LFCR one line end, control
# characters escaped, an open line shown after a pause, "@@nn" followed),
# with verdicts and faults marked: plain "*** FAIL ***" into a file, in
# colour on a terminal.
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
mctl -j watch --text >/dev/null 2>&1
[ $? = 2 ] || fail "-j with watch --text is not a usage error"
mctl watch --text >"$T/text" 2>"$T/text.err" &
PIDS="$PIDS $!"
watch_events
round_start 1
LE=$(mctl -j status | jq -r '.links[] | select(.entity == "E1") | .name')
LC=$(mctl -j status | jq -r '.links[] | select(.entity == "C1") | .name')
J=$(facing E1)

# Wait until the referee's file has a line matching a fixed string.
seen() {
	wait_for "grep -qF -- '$1' '$T/text'" 5 ||
		fail "the referee view lacks '$1': $(cat "$T/text" "$T/text.err")"
}

tty -d 5 "$J" 'type:Hi there\x7f\x7fre, who are you?\r\r' >/dev/null
seen "$LE JUDGE07> Hi there, who are you?"
tty -d 5 "$T/e1" 'type:Hello, my nmae\x08\x08\x08ame is Ada and I am the human.\r\nI like caf\xc3\xa9 au lait\x07\e[2J.\n\rback\\slash\r\n' >/dev/null
seen "$LE E1: Hello, my name is Ada and I am the human."
seen "$LE E1: I like café au lait\\x07."
seen "$LE E1: back\\\\slash"
seen "*** PASS *** $LE JUDGE07 round 1: assertion E1 at byte 46"
seen "*** FILTERED *** $LE: csi, 4 bytes"

tty -d 5 "$T/c1" 'type:hello, my name is Bob and I am the humanoid\r\n' >/dev/null
seen "*** FAIL (provisional) *** $LC JUDGE07 round 1: assertion C1 (so far) at byte 40"
seen "*** FAIL *** $LC JUDGE07 round 1: assertion C1 at byte 40"
seen "$LC C1: hello, my name is Bob and I am the humanoid"
# The provisional FAIL came before the line ended, the final one after.
awk '/FAIL \(provisional\).*assertion C1/ { print "provisional" }
    /\*\*\* FAIL \*\*\*.*assertion C1/ { print "final" }
    / C1: hello/ { print "line" }' "$T/text" |
	tr '\n' ' ' >"$T/order"
[ "$(cat "$T/order")" = "provisional line final " ] ||
	fail "FAIL verdicts and the line out of order: $(cat "$T/order")"

# A line still being typed shows after a pause, then whole when it ends.
tty -d 5 "$T/c1" 'type:still typ' >/dev/null
seen "$LC C1: still typ [...]"
tty -d 5 "$T/c1" 'type:ing\r' >/dev/null
seen "$LC C1: still typing"
# A judge announcing another number: an alert, and his lines under it.
tty -d 5 "$J" 'type:@@03\r\rwho is here?\r\r' >/dev/null
seen "*** JUDGE MISMATCH *** $LE: @@03 typed at the station of judge 07"
seen "$LE JUDGE07> @@03"
seen "$LE JUDGE03> who is here?"
tty -d 5 "$J" 'type:unfinished' >/dev/null
sleep 0.3
mctl round stop >/dev/null
seen "*** PASS *** $LE JUDGE07 round 1: character E1:"
seen "$LE JUDGE03> unfinished"
seen "=== round 1 stopped"
# The manifest sealed at the round's end, in the short form the judges
# are shown and write down.
wait_for "grep -Eq -- '--- evidence [0-9]{4} sealed: [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} \\(round 1 end\\)' '$T/text'" 5 ||
	fail "no short form of the round's evidence: $(grep -i manifest\|evidence "$T/text")"
! grep -q "$(printf '\033')" "$T/text" || fail "ANSI escapes in a file: $(cat -v "$T/text")"
[ ! -s "$T/text.err" ] || fail "muxctl complained: $(cat "$T/text.err")"

# On a terminal the markers are in colour.
if command -v script >/dev/null 2>&1; then
	TERM=xterm NO_COLOR= script -qfc "'$MUXCTL' -s '$SOCK' watch --text" /dev/null >"$T/tty" 2>&1 &
	PIDS="$PIDS $!"
	sleep 0.3
	mctl reload >/dev/null || fail "reload failed"
	wait_for "grep -q config.reload '$T/tty'" 5 ||
		fail "muxctl under script(1) shows nothing: $(cat -v "$T/tty")"
	round_start 2
	tty -d 5 "$T/e1" 'type:fine\r' >/dev/null
	sleep 0.3
	mctl round stop >/dev/null
	wait_for "grep -q '.\[1;32m\*\*\* PASS \*\*\*.\[0m' '$T/tty'" 5 ||
		fail "no green PASS on a terminal: $(cat -v "$T/tty")"
fi
echo ok
