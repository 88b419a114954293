# The programs keep one convention: -h and --help print the usage on
# standard output and exit 0, --version (and -V) prints "NAME VERSION"
# and exits 0, an unknown option is told as "NAME: unknown option -x"
# and a missing argument as "NAME: option -x needs an argument", then the
# usage on standard error, exit 2; each manual page's SYNOPSIS is the
# program's usage, every manual page has an EXIT STATUS saying so, and
# all of them are clean under mandoc -Tlint (warnings and worse).
. tests/integration/lib.sh

# A synopsis as one line: "usage:" and mdoc's rendering dropped, blanks
# squeezed, none around "|".
synopsis() {
	sed -e 's/.\x08//g' -e 's/^usage: //' | tr -s ' \t\n' '   ' |
	    sed -e 's/ *| */|/g' -e 's/^ //' -e 's/ $//'
}

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
	"$prog" -h >"$T/out-h" 2>"$T/err" || fail "$name -h exited $?"
	cmp -s "$T/out" "$T/out-h" || fail "$name -h differs from --help: $(cat "$T/out-h" "$T/err")"
	"$prog" --no-such-option >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$name --no-such-option exited $rc, not 2"
	grep -q "^usage: $name" "$T/err" || fail "$name: no usage on stderr for a bad option: $(cat "$T/err")"
	[ "$(head -1 "$T/err")" = "$name: unknown option --no-such-option" ] ||
		fail "$name --no-such-option: $(head -1 "$T/err")"
	"$prog" -Z >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$name -Z exited $rc, not 2"
	[ "$(head -1 "$T/err")" = "$name: unknown option -Z" ] || fail "$name -Z: $(head -1 "$T/err")"
	sed -n 2p "$T/err" | grep -q "^usage: $name" || fail "$name -Z: no usage after the message: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$name -Z wrote on stdout: $(cat "$T/out")"
done
# A missing argument, in the same words everywhere.
for c in "muxd/muxd -f:muxd: option -f needs an argument" \
    "muxd/muxd --link:muxd: option --link needs an argument" \
    "muxctl/muxctl -s:muxctl: option -s needs an argument" \
    "comprog/comprog judge -e:comprog: option -e needs an argument" \
    "comprog/comprog judge --charset:comprog: option --charset needs an argument" \
    "transcripts/transcripts render -o:transcripts render: option -o needs an argument" \
    "transcripts/transcripts stats -Z:transcripts stats: unknown option -Z" \
    "udev/muxd-udev -o:muxd-udev: option -o needs an argument" \
    "muxweb/muxweb -s:muxweb: option -s needs an argument"; do
	cmd=${c%%:*}
	want=${c#*:}
	$ROOT/$B/$cmd >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$cmd exited $rc, not 2"
	[ "$(head -1 "$T/err")" = "$want" ] || fail "$cmd: '$(head -1 "$T/err")', not '$want'"
	sed -n 2p "$T/err" | grep -q '^usage: ' || fail "$cmd: no usage after the message: $(cat "$T/err")"
done

# comprog web refuses an address that is not an http(s) URL, at once.
for u in notaurl ftp://host/entry http:// http://host:99999/; do
	"$ROOT/$B/comprog/comprog" web "$T/nosuch" "$u" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || fail "comprog web '$u' exited $rc, not 2: $(cat "$T/err")"
	grep -q "^comprog: web: '$u' .*URL" "$T/err" || fail "comprog web '$u': $(cat "$T/err")"
done

# Each manual page's SYNOPSIS is the program's --help, form by form.
command -v mandoc >/dev/null 2>&1 || fail "mandoc is not installed (apt-get install mandoc)"
for pm in muxd/muxd:muxd/muxd.8 muxctl/muxctl:muxctl/muxctl.8 \
    comprog/comprog:comprog/comprog.1 transcripts/transcripts:transcripts/transcripts.1 \
    udev/muxd-udev:udev/muxd-udev.8 muxweb/muxweb:muxweb/muxweb.8; do
	p=${pm%%:*}
	page=${pm#*:}
	help=$("$ROOT/$B/$p" --help | synopsis)
	man=$(mandoc -Tascii -O width=1000 "$page" | sed 's/.\x08//g' |
	    awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' | synopsis)
	[ -n "$man" ] || fail "$page: no SYNOPSIS"
	[ "$help" = "$man" ] || fail "$page's SYNOPSIS is not ${p##*/} --help:
  --help:   $help
  SYNOPSIS: $man"
done

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
