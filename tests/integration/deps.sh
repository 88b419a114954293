#!/bin/sh
# The README's two commands on a machine that lacks a test package: make
# check checks the packages of the whole suite before it builds anything,
# so a missing libcmocka-dev is named (or installed, as root) instead of
# the build stopping at "cmocka.h: No such file".  The machine without it
# is made with a pkg-config directory holding every module but cmocka; the
# check runs as an unprivileged user, who is told what to install.
. tests/integration/lib.sh

command -v pkg-config >/dev/null || fail "pkg-config is not installed"
PC=$T/pc
mkdir -p "$PC"
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	for f in "$d"/*.pc; do
		[ -f "$f" ] && [ ! -e "$PC/${f##*/}" ] && ln -s "$f" "$PC/"
	done
done
rm -f "$PC/cmocka.pc"
[ -e "$PC/libevent.pc" ] || fail "libevent.pc not found on $(pkg-config --variable pc_path pkg-config)"
# A copy of the tree the unprivileged user can read wherever the
# checkout is (under /root, say).
mkdir -p "$T/src"
tar -C "$ROOT" --exclude='./build*' --exclude=./.git -cf - . |
    tar -C "$T/src" -xf - || fail "cannot copy the tree to $T/src"
chmod -R a+rX "$T"

# Run make -n in the copy as an unprivileged user when root, or as is.
make_as_user() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$T/src" && setpriv --reuid=65534 --regid=65534 \
		    --clear-groups env PKG_CONFIG_LIBDIR="$PC" HOME="$T" \
		    make -n "$@")
	else
		(cd "$T/src" && PKG_CONFIG_LIBDIR="$PC" make -n "$@")
	fi
}

make_as_user check B="$T/b" >"$T/check.out" 2>&1 &&
    fail "make check went on without cmocka: $(tail -3 "$T/check.out")"
grep -q 'install them with: sudo apt-get install.* libcmocka-dev' \
    "$T/check.out" ||
    fail "make check did not name libcmocka-dev: $(tail -3 "$T/check.out")"
grep -q '^cc \|^gcc ' "$T/check.out" &&
    fail "make check started compiling before its packages were checked: $(grep -m1 '^cc ' "$T/check.out")"

# Building muxd alone does not need the test packages.
make_as_user all B="$T/b" >"$T/all.out" 2>&1 ||
    fail "make all wanted more than the build packages: $(tail -3 "$T/all.out")"
grep -q cmocka "$T/all.out" && fail "make all asked for cmocka"
echo "ok: make check names libcmocka-dev before building; make all does not need it"
