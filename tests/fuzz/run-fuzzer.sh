#!/bin/sh
# One bounded libFuzzer run: the suite's smoke run (meson test --suite fuzz
# in a -Dfuzzing=true build) and the long runs of docs/fuzzing.md alike.
#
#   run-fuzzer.sh FUZZER SRCDIR WORKDIR SECONDS DICT SEED_DIR...
#
# The corpus grows in WORKDIR/corpus across runs; a crash, a leak, a
# sanitizer report, a timeout (10 s) or an input using more than 2 GB
# fails the run, its input saved as WORKDIR/crash-* etc. Copy it to
# tests/fuzz/regressions/NAME/ once fixed: every build replays those.
set -u
exe=${1:?usage: run-fuzzer.sh FUZZER SRCDIR WORKDIR SECONDS DICT SEED_DIR...}
src=${2:?}
work=${3:?}
secs=${4:?}
dict=${5:?}
shift 5
mkdir -p "$work/corpus"
seeds=
for d in "$@"; do
	seeds="$seeds $src/$d"
done
# FUZZ_FLAGS adds libFuzzer flags (docs/fuzzing.md: -entropic=0 for the
# long runs). A few fixed seeds make the first minute useful; -jobs is left to the
# caller (the suite runs fuzzers side by side instead).
# shellcheck disable=SC2086
"$exe" ${FUZZ_FLAGS:-} -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-dict="$src/tests/fuzz/dict/$dict" \
	-artifact_prefix="$work/" -print_final_stats=1 \
	"$work/corpus" $seeds 2>"$work/log"
rc=$?
grep -E '^(stat::|#[0-9]+[[:space:]]+DONE)|^(==[0-9]+==)?ERROR|SUMMARY' \
	"$work/log"
if [ $rc -ne 0 ]; then
	echo "FUZZER FOUND A PROBLEM (exit $rc); last lines of $work/log:"
	tail -40 "$work/log"
fi
exit $rc
