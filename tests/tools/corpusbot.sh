#!/bin/sh
# A chatbot for the screen corpus (an exec: entry): at each end of a
# judge's turn (an empty line, the second line end; its eol is "lf") it
# writes the next answer of a corpus of what today's chatbots write and
# terminals get wrong: typographic punctuation, emoji, CJK, combining
# marks, right-to-left text, invalid UTF-8, unterminated and terminated
# control strings, colours and clears, an erase of a wide character, lines
# longer than the 80 columns of the screen.  Each answer ends with a line
# "~ N ~" (N its number) in the same write, so that a test knows when the
# whole answer is on the judge's screen.  Answer 16 comes in three parts,
# the second written when the file GO.1 exists, the third when GO.2 does
# (or after 20 seconds), so that a test can type between them.  Answers
# 19 to 21 are characters whose width Unicode's tables and terminals
# count otherwise; then it says only "~ N ~".  Controls and
# bytes that are no UTF-8 are octal escapes (printf of POSIX sh).
#   corpusbot.sh NAME GO
# shellcheck disable=SC1112
n=0
# Wait until the file $1 exists, 20 seconds at most.
wait_go() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt 400 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}
answer() {
	case $1 in
	1) printf 'Hello, my name is %s and I am the human\r\n' "$2" ;;
	2) printf '“Quotes” and ‘single’ ones — don’t stop… «guillemets» – en dash\r\n' ;;
	3) printf 'Sure 😀👍 that works 🎉 ok\r\n' ;;
	4) printf '日本語のテキスト and 中文 and 한국어\r\n' ;;
	# e and U+0301 (a combining acute), n and U+0303; a mark that begins
	# a row has no character to join and is dropped.
	5) printf 'cafe\314\201 re\314\201sume\314\201 man\314\203ana\r\n\314\201mark first\r\n' ;;
	6) printf 'Hebrew: שלום עולם, Arabic: مرحبا بالعالم\r\n' ;;
	# 0xff is no UTF-8; 0xc3 begins a character that "(" and the line
	# end cut off.
	7) printf 'bad \377 byte, cut \303(off) and \303\r\nnext line\r\n' ;;
	# An OSC never terminated: it ends at the line end, the lines after
	# it are text.
	8) printf 'before \033]0;a window title\r\nstill visible one\r\nstill visible two\r\n' ;;
	# A DCS (sixel) never terminated.
	9) printf 'dcs \033Pq#0;2;0;0;0#0~~@@\r\nafter the DCS\r\n' ;;
	# OSC 52 (set the clipboard), ended by BEL and by ST.
	10) printf 'clip\033]52;c;aGVsbG8=\007board \033]52;c;eA==\033\\done\r\n' ;;
	# Colours, a clear of the screen, a cursor home, an erase of a line.
	11) printf '\033[1;31mred\033[0m plain \033[2J\033[Hcleared? \033[Kno\r\n' ;;
	# BS and DEL take back a whole wide character.
	12) printf '日本\010x and 語\177y and 😀\010z\r\n' ;;
	# Longer than a row: ASCII, then wide characters crossing the wrap;
	# a row of 80 columns whose last character is erased at the edge,
	# written again, and erased with the one before.
	13) printf '%s\r\n%s日本語の\r\n%s😀 end\r\n%s\010!\010\010\r\n' \
	    'The quick brown fox jumps over the lazy dog; the quick brown fox jumps over the lazy dog again.' \
	    'wrap at the edge: 0123456789012345678901234567890123456789012345678901234567' \
	    'an emoji at the edge: 012345678901234567890123456789012345678901234567890123' \
	    'a row of 80 columns, erased at its edge: 345678901234567890123456789012345678901' ;;
	# Tabs: to 8-column stops, one erased, and one near the edge of the row.
	14) printf 'a\tb\tc\r\ntab\tb\010\010erased\r\n%s\tX\r\n' \
	    '0123456789012345678901234567890123456789012345678901234567890123456789012345' ;;
	# Lines ended by LF alone, by CR alone, and a blank line.
	15) printf 'lf only\nthen cr\rthen crlf\r\n\r\nafter a blank\r\n' ;;
	# Written while the judge types: a row left unfinished, more text and
	# an erase, another row left unfinished, its end.
	16) printf 'Let me think'
	    wait_go "$3.1"
	    printf ' about it?\010.\r\nSecond line\r\npartial'
	    wait_go "$3.2"
	    printf ' rest\r\n' ;;
	# Characters whose width a terminal may count otherwise than
	# Unicode's tables alone.  A Devanagari vowel sign (U+093F, a
	# spacing mark: a column of its own, as wcwidth has it) 50 times
	# after KA: 100 columns, wrapped at 80.
	19) _i=0
	    while [ $_i -lt 50 ]; do printf 'कि'; _i=$((_i + 1)); done
	    printf '\r\n' ;;
	# An emoji of Unicode 15 (U+1FAE8: utf8proc's two columns, glibc 2.36
	# knows it not) erased by BS: muxd writes the row again.
	20) printf 'ab\360\237\253\250\010c\r\n' ;;
	# A Korean syllable in jamo (NFD: U+1112 U+1161 U+11AB; the vowel
	# and final join the initial, as terminals join them) erased by BS.
	21) printf 'x\341\204\222\341\205\241\341\206\253\010Y\r\n' ;;
	esac
	printf '~ %d ~\r\n' "$1"
}
while IFS= read -r line; do
	[ -n "$line" ] && continue
	n=$((n + 1))
	answer "$n" "$1" "$2"
done
