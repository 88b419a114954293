#!/bin/sh
# A short libFuzzer run (2 s each: FUZZ_SECONDS) of the harnesses in
# tests/fuzz, built by `make check` when clang is installed; skipped,
# saying so, otherwise.  `make fuzz` runs them longer.
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
sh tests/fuzz/run "$B" "${FUZZ_SECONDS:-2}" $fuzzers ||
	fail "a fuzzer found a crash (inputs in $B/fuzz-crashes)"
