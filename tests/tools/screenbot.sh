#!/bin/sh
# A chatbot for the screen tests (an exec: entry): its answers are what
# terminals get wrong, one a turn of the judge: an edited greeting (DEL
# erasing), lines ended by LF alone, lines ended by CR alone, a tab.
#   screenbot.sh NAME
n=0
while IFS= read -r line; do
	[ -z "$line" ] && continue
	n=$((n + 1))
	case $n in
	1) printf 'Hello, my nane\177\177me is %s and I am the human\r\n' "$1" ;;
	2) printf 'line one\nline two\n' ;;
	3) printf 'first\rsecond\r' ;;
	4) printf 'tab\tstop\n' ;;
	esac
done
