# The programs keep one convention: --help prints the usage on
# standard output and exits 0, --version (and -V) prints "NAME VERSION"
# and exits 0, an unknown option prints the usage on standard error and
# exits 2; every manual page has an EXIT STATUS saying so, and all of
# them are clean under mandoc -Tlint (warnings and worse).
. tests/integration/lib.sh

version=$("$MUXD" --version | awk '{ print $2 }')
[ -n "$version" ] || fail "muxd --version printed no version"
for p in muxd/muxd muxctl/muxctl comprog/comprog transcripts/transcripts \
    udev/muxd-udev muxweb/muxweb; do
	name=${p##*/}
	prog=$ROOT/$B/$p
	"$prog" --help >"$T/out" 2>"$T/err" || fail "$name --help exited $?"
	grep -q "^usage: $name" "$T/out" || fail "$name --help: no usage on stdout: $(cat "$T/out")"
	[ -s "$T/err" ] && fail "$name --help wrote on stderr: $(cat "$T/err")"
	for v in --version -V; do
		out=$("$prog" "$v") || fail "$name $v exited $?"
		[ "$out" = "$name $version" ] || fail "$name $v printed '$out'"
	done
	"$prog" --no-such-option >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$name --no-such-option exited $rc, not 2"
	grep -q "^usage: $name" "$T/err" || fail "$name: no usage on stderr for a bad option: $(cat "$T/err")"
done

command -v mandoc >/dev/null 2>&1 || fail "mandoc is not installed (apt-get install mandoc)"
for page in muxd/muxd.8 muxd/muxd.conf.5 muxctl/muxctl.8 comprog/comprog.1 \
    transcripts/transcripts.1 transcripts/transcripts.5 udev/muxd-udev.8 \
    muxweb/muxweb.8; do
	mandoc -Tlint -Wwarning "$page" 2>&1 | grep -v 'outdated mandoc.db' >"$T/lint"
	[ -s "$T/lint" ] && fail "mandoc -Tlint: $(cat "$T/lint")"
	case $page in *.5) continue ;; esac
	grep -q '^\.Sh EXIT STATUS' "$page" || fail "$page has no EXIT STATUS"
	grep -qi 'usage error' "$page" || fail "$page does not give the usage error's status"
done
echo ok
