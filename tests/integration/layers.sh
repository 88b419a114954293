# The layers of the tree, from the compiler's own dependency files
# ($B/DIR/*.d): no directory includes a header of a layer above its own
# (bottom up: transcripts, protocol, contest, line, conf, then the
# programs muxd, muxctl, comprog and udev, which see no other program's
# headers), so there is no circle between directories; and muxctl's
# objects include nothing but muxctl's and the protocol's headers.
. tests/integration/lib.sh

# The layer of a directory: a number, programs all 6.
layer() {
	case $1 in
	transcripts) echo 1 ;; protocol) echo 2 ;; contest) echo 3 ;;
	line) echo 4 ;; conf) echo 5 ;;
	muxd|muxctl|comprog|udev) echo 6 ;;
	*) echo 0 ;;
	esac
}

# Print "DIR OBJECT HEADER" for every repository header an object includes.
edges() {
	for d in transcripts protocol contest line conf muxd muxctl comprog udev; do
		for f in "$B/$d"/*.d; do
			[ -e "$f" ] || continue
			# The first rule only: the object and what it depends on.
			sed -n '1,/^$/p' "$f" | tr -d '\\' | tr ' ' '\n' |
			    grep '\.h$' | grep -v '^/' | sed "s|^|$d $(basename "$f" .d).o |"
		done
	done
}
edges >"$T/edges"
[ -s "$T/edges" ] || fail "no dependency files under $B (build first)"
grep -q '^muxd .* line/line.h$' "$T/edges" || fail "the dependency files do not read as expected: $(head -3 "$T/edges")"

: >"$T/bad"
while read -r d obj h; do
	hd=${h%%/*}
	[ "$hd" = "$d" ] && continue
	ld=$(layer "$d")
	lh=$(layer "$hd")
	[ "$lh" = 0 ] && continue
	if [ "$d" = muxctl ] && [ "$hd" != protocol ]; then
		echo "$d/$obj includes $h (muxctl sees only muxctl/ and protocol/)" >>"$T/bad"
	elif [ "$lh" -ge "$ld" ]; then
		echo "$d/$obj includes $h (layer $d may not see layer $hd)" >>"$T/bad"
	fi
done <"$T/edges"
[ -s "$T/bad" ] && fail "the layers are crossed:
$(sort -u "$T/bad")"

# No circle between directories, whatever the layers say.
awk '{ split($3, p, "/"); if (p[1] != $1) print p[1], $1 }' "$T/edges" | sort -u >"$T/pairs"
tsort "$T/pairs" >/dev/null 2>"$T/tsort" || fail "a circle between directories: $(cat "$T/tsort")"
echo ok
