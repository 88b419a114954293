#!/bin/sh
# A short libFuzzer run (10 s each) of the harnesses in tests/fuzz, built
# by `make check` when clang is installed; skipped, saying so, otherwise.
# `make fuzz` runs them longer.
. tests/integration/lib.sh

fuzzers=
for f in "$ROOT/$B"/tests/fuzz/fuzz_*; do
	[ -x "$f" ] && fuzzers="$fuzzers $f"
done
if [ -z "$fuzzers" ]; then
	if command -v clang >/dev/null; then
		fail "clang is installed but no fuzzer was built in $B/tests/fuzz"
	fi
	echo "skip: clang not installed, no fuzzer built (apt-get install clang)"
	exit 0
fi
sh tests/fuzz/run "$B" "${FUZZ_SECONDS:-10}" $fuzzers ||
	fail "a fuzzer found a crash (inputs in $B/fuzz-crashes)"
