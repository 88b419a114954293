#!/bin/sh
# A short libFuzzer run of the harnesses in tests/fuzz (about 2 s each),
# built by `make check` when clang is installed; skipped, saying so,
# otherwise.  Each does a fixed number of runs from its seeds alone
# (tests/fuzz/run -check), however fast the machine.  `make fuzz`
# explores, longer.
. tests/integration/lib.sh

fuzzers=
for f in "$ROOT/$B"/tests/fuzz/fuzz_*; do
	[ -x "$f" ] && fuzzers="$fuzzers $f"
done
if [ -z "$fuzzers" ]; then
	if command -v clang >/dev/null; then
		fail "clang is installed but no fuzzer was built in $B/tests/fuzz"
	fi
	echo "clang not installed, no fuzzer built (apt-get install clang)"
	exit 77
fi
sh tests/fuzz/run -check "$B" $fuzzers ||
	fail "a fuzzer found a crash (inputs in $B/fuzz-crashes)"
