# The layers of the tree, from the compiler's own dependency files
# ($B/DIR/*.d and below, written by -MMD): bottom up text; capture,
# protocol and contest, side by side on it; score (on capture) and line;
# conf; then the programs muxd, muxctl, muxweb, comprog, udev and
# transcripts (the auditors' tool).  No directory includes a header of
# its own layer or one above it (a library sees no program's headers, a
# program no other program's, capture and contest not each other, muxd
# not the tool's),
# text's objects include no header of the repository outside text/,
# muxctl's and muxweb's only their own and the protocol's (they speak the
# protocol and link nothing of the daemon), and no circle joins
# directories (tsort).  Only headers inside the repository count: system
# headers and tests/ are left out.  The check is first shown to fail on a
# build tree with planted crossings.  No program's file has the name of a
# library's file or directory, checked on planted names first.  No
# library calls the programs' allocations, which end the program.
. tests/integration/lib.sh

DIRS="text capture protocol contest score line conf muxd muxctl muxweb
    comprog udev transcripts"

# The layer of a directory, bottom up (the programs share the top one);
# empty for a directory outside the layers.
layers_rank() {
	case $1 in
	text) echo 1 ;; capture|protocol|contest) echo 2 ;;
	score|line) echo 3 ;; conf) echo 4 ;;
	muxd|muxctl|muxweb|comprog|udev|transcripts) echo 5 ;;
	esac
}

# Print "DIR OBJECT HEADER" for each header of the repository that an
# object of build tree $1 includes: the first rule of each .d file, up to
# the blank line that -MP leaves after it, its paths relative to the
# repository ("./" and ".." resolved, absolute ones inside it made
# relative, the others dropped).  In the real build ($2 "live") a .d file
# whose source is gone (a file moved to another directory since that tree
# was built) is left out: it tells of no object that is built now.
layers_edges() {
	for d in $DIRS; do
		[ -d "$1/$d" ] || continue
		find "$1/$d" -name '*.d' -type f | sort | while read -r f; do
			src=$(sed -n '1s/^[^:]*: *\([^ ]*\.c\).*/\1/p' "$f")
			[ "${2:-}" = live ] && [ -n "$src" ] &&
			    [ ! -e "$ROOT/$src" ] && continue
			awk -v dir="$d" -v root="$ROOT/" '
			# A path with its "." and ".." steps taken.
			function norm(p,   n, i, k, s, out) {
				n = split(p, s, "/")
				k = 0
				for (i = 1; i <= n; i++) {
					if (s[i] == "" || s[i] == ".")
						continue
					if (s[i] == ".." && k > 0 && out[k] != "..")
						k--
					else
						out[++k] = s[i]
				}
				p = ""
				for (i = 1; i <= k; i++)
					p = p (i > 1 ? "/" : "") out[i]
				return p
			}
			/^[ \t]*$/ { exit }
			{
				sub(/\\$/, "")
				for (i = 1; i <= NF; i++) {
					w = $i
					if (obj == "") {
						if (w ~ /:$/)
							obj = substr(w, 1, length(w) - 1)
						continue
					}
					if (w !~ /\.h$/)
						continue
					if (index(w, root) == 1)
						w = substr(w, length(root) + 1)
					else if (w ~ /^\//)
						continue
					w = norm(w)
					if (w !~ /^\.\.(\/|$)/)
						print dir, obj, w
				}
			}' "$f"
		done
	done
}

# Check build tree $1: print every crossing and any circle, and fail if
# there is one.
layers_check() {
	for d in $DIRS; do
		[ -n "$(find "$1/$d" -name '*.d' -type f 2>/dev/null | head -1)" ] ||
			{ echo "no dependency files under $1/$d (build first)"; return 1; }
	done
	layers_edges "$1" "${2:-}" >"$T/edges"
	: >"$T/bad"
	: >"$T/pairs"
	while read -r d obj h; do
		hd=${h%%/*}
		[ "$hd" = "$d" ] && continue
		lh=$(layers_rank "$hd")
		if [ -z "$lh" ]; then
			[ "$d" = text ] && [ "$hd" != tests ] &&
				echo "$obj includes $h (layer text sees no header of the repository but its own)" >>"$T/bad"
			continue
		fi
		echo "$hd $d" >>"$T/pairs"
		if [ "$d" = muxctl ] || [ "$d" = muxweb ]; then
			[ "$hd" = protocol ] ||
				echo "$obj includes $h (layer $d may not see layer $hd: only $d/ and protocol/)" >>"$T/bad"
		elif [ "$lh" -ge "$(layers_rank "$d")" ]; then
			echo "$obj includes $h (layer $d may not see layer $hd)" >>"$T/bad"
		fi
	done <"$T/edges"
	rc=0
	if [ -s "$T/bad" ]; then
		sort -u "$T/bad"
		rc=1
	fi
	# A circle between directories, whatever the layers say: tsort finds
	# it, and a walk of the edges names it, with an include for each step.
	sort -u "$T/pairs" >"$T/pairs.u"
	if ! tsort <"$T/pairs.u" >/dev/null 2>"$T/tsort"; then
		circle=$(awk '
		function walk(u,   i, v, j, s) {
			state[u] = 1
			stack[++sp] = u
			for (i = 1; i <= n[u]; i++) {
				v = adj[u, i]
				if (state[v] == 1) {
					for (j = 1; stack[j] != v; j++)
						;
					for (s = ""; j <= sp; j++)
						s = s stack[j] " "
					print s v
					return 1
				}
				if (state[v] == 0 && walk(v))
					return 1
			}
			state[u] = 2
			sp--
			return 0
		}
		{ adj[$2, ++n[$2]] = $1; node[$2] = 1 }
		END { for (u in node) if (state[u] == 0 && walk(u)) exit }
		' "$T/pairs.u")
		echo "a circle between directories: $(echo "$circle" | sed 's/ / -> /g')"
		set -- $circle
		while [ $# -gt 1 ]; do
			awk -v x="$1" -v y="$2" '$1 == x && index($3, y "/") == 1 {
				print "  " $2 " includes " $3; exit }' "$T/edges"
			shift
		done
		sed 's/^/  /' "$T/tsort"
		rc=1
	fi
	return $rc
}

# The check fails on a build tree with planted crossings, each named: a
# line object that includes muxd.h (also a circle, muxd including
# line.h), muxctl including line.h, muxweb including line.h (a layer
# below) and muxd.h (its own layer), comprog including muxd.h, a library
# including a library above it from a subdirectory, by an absolute path,
# the text library including transcripts.h, muxweb.h and a header of
# contrib/ (a directory outside the layers), contest including
# transcripts.h (the tool's) and capture.h (its own layer), capture
# including transcripts.h and score.h, score and conf including
# transcripts.h, muxd including transcripts.h (another program's); and it
# holds an include of a header of tests/ and of a system header against
# nobody.
F=$T/planted
for d in $DIRS; do
	mkdir -p "$F/$d"
	printf '%s\n' "$F/$d/x.o: $d/x.c $d/x.h /usr/include/stdio.h \\" \
	    "  tests/unit/fixture-conf.h" "" "$d/x.h:" >"$F/$d/x.d"
done
printf '%s\n' "$F/line/port.o: line/port.c line/line.h \\" \
    "  ./line/../muxd/muxd.h" "" "line/line.h:" "" "muxd/muxd.h:" >"$F/line/port.d"
printf '%s\n' "$F/muxd/link.o: muxd/link.c line/line.h" >"$F/muxd/link.d"
printf '%s\n' "$F/muxctl/muxctl.o: muxctl/muxctl.c protocol/protocol.h \\" \
    "  line/line.h" >"$F/muxctl/muxctl.d"
printf '%s\n' "$F/muxweb/muxweb.o: muxweb/muxweb.c protocol/protocol.h \\" \
    "  line/line.h" >"$F/muxweb/muxweb.d"
printf '%s\n' "$F/muxweb/muxweb-muxd.o: muxweb/muxweb-muxd.c muxd/muxd.h" \
    >"$F/muxweb/muxweb-muxd.d"
printf '%s\n' "$F/comprog/judge.o: comprog/judge.c muxd/muxd.h" >"$F/comprog/judge.d"
printf '%s\n' "$F/text/view.o: text/view.c text/text.h \\" \
    "  transcripts/transcripts.h" >"$F/text/view.d"
printf '%s\n' "$F/text/utf8.o: text/utf8.c muxweb/muxweb.h" >"$F/text/utf8.d"
printf '%s\n' "$F/text/conv.o: text/conv.c contrib/demo/demo.h" >"$F/text/conv.d"
printf '%s\n' "$F/contest/judgeterm.o: contest/judgeterm.c contest/contest.h \\" \
    "  text/text.h transcripts/transcripts.h" >"$F/contest/judgeterm.d"
printf '%s\n' "$F/contest/typing.o: contest/typing.c capture/capture.h" \
    >"$F/contest/typing.d"
printf '%s\n' "$F/capture/manifest.o: capture/manifest.c capture/capture.h \\" \
    "  text/text.h transcripts/transcripts.h" >"$F/capture/manifest.d"
printf '%s\n' "$F/capture/rec.o: capture/rec.c score/score.h" >"$F/capture/rec.d"
printf '%s\n' "$F/score/score.o: score/score.c score/score.h \\" \
    "  transcripts/transcripts.h" >"$F/score/score.d"
printf '%s\n' "$F/conf/conf-rules.o: conf/conf-rules.c score/score.h \\" \
    "  transcripts/transcripts.h" >"$F/conf/conf-rules.d"
printf '%s\n' "$F/muxd/seal.o: muxd/seal.c capture/capture.h \\" \
    "  transcripts/transcripts.h" >"$F/muxd/seal.d"
mkdir -p "$F/contest/sub"
printf '%s\n' "$F/contest/sub/hold.o: contest/sub/hold.c $ROOT/conf/conf.h" \
    >"$F/contest/sub/hold.d"
layers_check "$F" >"$T/planted.out" &&
	fail "the check passed a build tree that crosses the layers: $(cat "$T/planted.out")"
for want in \
    "$F/line/port.o includes muxd/muxd.h (layer line may not see layer muxd)" \
    "$F/muxctl/muxctl.o includes line/line.h (layer muxctl may not see layer line: only muxctl/ and protocol/)" \
    "$F/muxweb/muxweb.o includes line/line.h (layer muxweb may not see layer line: only muxweb/ and protocol/)" \
    "$F/muxweb/muxweb-muxd.o includes muxd/muxd.h (layer muxweb may not see layer muxd: only muxweb/ and protocol/)" \
    "$F/contest/sub/hold.o includes conf/conf.h (layer contest may not see layer conf)" \
    "$F/comprog/judge.o includes muxd/muxd.h (layer comprog may not see layer muxd)" \
    "$F/text/view.o includes transcripts/transcripts.h (layer text may not see layer transcripts)" \
    "$F/text/utf8.o includes muxweb/muxweb.h (layer text may not see layer muxweb)" \
    "$F/text/conv.o includes contrib/demo/demo.h (layer text sees no header of the repository but its own)" \
    "$F/contest/judgeterm.o includes transcripts/transcripts.h (layer contest may not see layer transcripts)" \
    "$F/contest/typing.o includes capture/capture.h (layer contest may not see layer capture)" \
    "$F/capture/manifest.o includes transcripts/transcripts.h (layer capture may not see layer transcripts)" \
    "$F/capture/rec.o includes score/score.h (layer capture may not see layer score)" \
    "$F/score/score.o includes transcripts/transcripts.h (layer score may not see layer transcripts)" \
    "$F/conf/conf-rules.o includes transcripts/transcripts.h (layer conf may not see layer transcripts)" \
    "$F/muxd/seal.o includes transcripts/transcripts.h (layer muxd may not see layer transcripts)" \
    "a circle between directories: "; do
	grep -qF "$want" "$T/planted.out" ||
		fail "the check of planted crossings does not say '$want'; it said:
$(cat "$T/planted.out")"
done
# tsort names one circle it finds: line and muxd are on every one planted.
grep -Eq 'circle between directories: .*(line -> muxd|muxd -> line)' "$T/planted.out" ||
	fail "the planted circle line, muxd is not named: $(cat "$T/planted.out")"
[ "$(grep -c 'may not see\|sees no header' "$T/planted.out")" = 16 ] ||
	fail "the check of planted crossings names more than them: $(cat "$T/planted.out")"

# No file of a program has the name of a library's file or directory
# (comprog/line.c and comprog/lpp.c once read as line/ and the capture
# library's lpp.c): the name of a file says which it is.
LIBS="text capture protocol contest score line conf"
PROGS="muxd muxctl muxweb comprog udev transcripts"
layers_names() {
	for p in $PROGS; do
		for f in "$1/$p"/*.[ch]; do
			[ -e "$f" ] || continue
			n=${f##*/}
			for l in $LIBS; do
				if [ "${n%.[ch]}" = "$l" ] || [ -e "$1/$l/$n" ]; then
					echo "$p/$n has the name of a file or directory of library $l/"
				fi
			done
		done
	done
}
G=$T/names
mkdir -p "$G/comprog" "$G/capture" "$G/line"
: >"$G/comprog/line.c"; : >"$G/comprog/lpp.c"; : >"$G/comprog/judge.c"
: >"$G/capture/lpp.c"; : >"$G/line/port.c"
layers_names "$G" >"$T/names.out"
for want in "comprog/line.c has the name of a file or directory of library line/" \
    "comprog/lpp.c has the name of a file or directory of library capture/"; do
	grep -qF "$want" "$T/names.out" ||
		fail "the check of planted names does not say '$want': $(cat "$T/names.out")"
done
[ "$(wc -l <"$T/names.out")" -eq 2 ] ||
	fail "the check of planted names names more than them: $(cat "$T/names.out")"
layers_names "$ROOT" >"$T/names.out"
[ -s "$T/names.out" ] && fail "$(cat "$T/names.out")"

# Inside muxd/ the files call each other bottom up too: a file calls the
# functions of the files below it in this order alone (a function's file
# found from the objects' symbol tables, nm), so that muxd reads from the
# bottom, no file waiting on one above it.  What must call upwards
# registers a function instead (the state's parts, the round's wait, the
# control socket's reload).  A file of muxd/ not in the order fails too:
# a new file takes its place here.
MUXD_ORDER="events tap deadline worker priv scanports spawn-box spawn-cgroup spawn-msg
    spawn-serve spawn link-flow record-sync state cablecheck seal
    record-recover record-write record notify
    rules-verdict rules-screen rules-entity rules ballot link round
    control-screens control-cmd control muxd"

# Print "CALLER CALLEE" for each call between two files of muxd/ in build
# tree $1 (an object whose source is gone is left out).
layers_muxd_calls() {
	for o in "$1"/muxd/*.o; do
		[ -e "$o" ] || continue
		f=${o##*/}
		f=${f%.o}
		[ -e "$ROOT/muxd/$f.c" ] || continue
		nm "$o" | awk -v f="$f" '
		$2 == "T" { print "def", f, $3 }
		$1 == "U" { print "use", f, $2 }'
	done | awk '
	$1 == "def" { def[$3] = $2; next }
	{ use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1])
				print u[1], def[u[2]], u[2]
		}
	}' | sort -u
}

# Check the calls "CALLER CALLEE FUNCTION" of file $1 against the order:
# print each that goes up or sideways, and each file not in the order.
layers_muxd_check() {
	awk -v order="$MUXD_ORDER" '
	BEGIN { n = split(order, o, /[ \t\n]+/); for (i = 1; i <= n; i++) rank[o[i]] = i }
	!($1 in rank) { bad[$1] = 1 }
	!($2 in rank) { bad[$2] = 1 }
	($1 in rank) && ($2 in rank) && rank[$2] >= rank[$1] {
		print "muxd/" $1 ".c calls " $3 "() of muxd/" $2 ".c, above it in the order of muxd'"'"'s files"
	}
	END { for (f in bad) print "muxd/" f ".c is not in the order of muxd'"'"'s files (layers.sh MUXD_ORDER)" }
	' "$1" | sort
}

# Every file of muxd/ has its place in the order.
for f in "$ROOT"/muxd/*.c; do
	f=${f##*/}
	case " $(echo $MUXD_ORDER) " in
	*" ${f%.c} "*) ;;
	*) fail "muxd/$f is not in the order of muxd's files (layers.sh MUXD_ORDER)" ;;
	esac
done
layers_muxd_calls "$B" >"$T/muxd.calls"
[ -s "$T/muxd.calls" ] || fail "no calls between muxd's files in $B (build first)"
grep -q '^link record record_link_bytes$' "$T/muxd.calls" ||
	fail "the calls between muxd's files do not read as expected: $(head -3 "$T/muxd.calls")"
# The check fails on planted calls beside calls that keep the order: the
# state calling the round (up), ballot calling link (up), and a file
# outside the order.
printf '%s\n' "link record record_link_bytes" "rules state state_append" \
    "state round round_save" "ballot link link_find" "tally events events_post" \
    >"$T/muxd.planted"
layers_muxd_check "$T/muxd.planted" >"$T/muxd.planted.out"
for want in "muxd/state.c calls round_save() of muxd/round.c, above it" \
    "muxd/ballot.c calls link_find() of muxd/link.c, above it" \
    "muxd/tally.c is not in the order of muxd's files"; do
	grep -qF "$want" "$T/muxd.planted.out" ||
		fail "the check of muxd's files does not say '$want'; it said:
$(cat "$T/muxd.planted.out")"
done
[ "$(wc -l <"$T/muxd.planted.out")" -eq 3 ] ||
	fail "the check of muxd's files names more than the planted calls:
$(cat "$T/muxd.planted.out")"
layers_muxd_check "$T/muxd.calls" >"$T/muxd.out"
[ -s "$T/muxd.out" ] && fail "muxd's files call upwards in $B:
$(cat "$T/muxd.out")"

# The memory policy: the programs end on a failed allocation (xmalloc
# and the others, protocol/xmalloc.c), the libraries return an error: no
# library's object but xmalloc.o itself calls them.
for lib in text capture protocol contest score line conf; do
	for o in "$B/$lib"/*.o; do
		[ "$(basename "$o")" = xmalloc.o ] && continue
		nm -u "$o" 2>/dev/null | grep -Eq ' (xmalloc|xcalloc|xreallocarray|xstrdup|xasprintf)$' &&
			fail "$o calls the programs' allocations (a library returns an error instead)"
	done
done
nm -u "$B/muxweb/muxweb-http.o" | grep -q ' xcalloc$' ||
	fail "the check of the programs' allocations sees nothing (muxweb-http.o calls no xcalloc?)"

# The build itself.
layers_check "$B" live >"$T/out" || fail "the layers are crossed in $B:
$(cat "$T/out")"
for want in "muxd .* line/line.h" "comprog .* contest/contest.h" \
    "muxctl .* protocol/protocol.h" "muxweb .* protocol/protocol.h" \
    "muxweb .* muxweb/muxweb.h" "contest .* text/text.h" \
    "capture .* text/text.h" "score .* capture/capture.h" \
    "conf .* score/score.h" "muxd .* capture/capture.h" \
    "transcripts .* capture/capture.h" "text .* text/text.h"; do
	grep -q "^$want$" "$T/edges" ||
		fail "the dependency files do not read as expected (no '$want'): $(head -3 "$T/edges")"
done
echo ok
