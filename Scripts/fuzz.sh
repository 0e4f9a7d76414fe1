#!/usr/bin/env bash
# Builds the libFuzzer targets of the Fuzz/ package and runs each for a while.
#
#   Scripts/fuzz.sh [seconds] [target...]
#
# seconds: how long each target runs (default 30). targets: JSONReaderFuzz, FormReaderFuzz,
# MapperFuzz (default: all, one after the other). Extra libFuzzer flags go in FUZZ_FLAGS.
# New corpus entries go to FUZZ_WORK (default .build/fuzz-corpus/<target>, kept between runs);
# the checked-in seeds in Fuzz/Corpus/<target> are only read. JSON targets also read the
# JSONTestSuite files from /work/shared/data when present (FUZZ_EXTRA_CORPUS overrides).
# A crash, hang or out-of-memory input is written to FUZZ_ARTIFACTS (default
# .build/fuzz-artifacts/) and the script exits non-zero. See Documentation/Fuzzing.md.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(JSONReaderFuzz FormReaderFuzz MapperFuzz)
fi
work="${FUZZ_WORK:-.build/fuzz-corpus}"
artifacts="${FUZZ_ARTIFACTS:-.build/fuzz-artifacts}"
extra="${FUZZ_EXTRA_CORPUS-/work/shared/data/JSONTestSuite/test_parsing}"
mkdir -p "$artifacts"

# Build each product on its own, and check that libFuzzer sees coverage counters: a build of the
# whole package also builds the root package's executable for the host without sanitizers, and
# even per-product builds have been seen, now and then, to link an uninstrumented ObjectMapping
# (libFuzzer then runs blind: "no interesting inputs were found"). Such a build is redone.
build=(swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address)
bin="$("${build[@]}" --show-bin-path)"
instrumented() {
  local probe
  probe="$(SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=detect_leaks=0 \
    "$bin/$1" -runs=0 "Fuzz/Corpus/$1" 2>&1 || true)"
  grep -q "inline 8-bit counters" <<<"$probe"
}
for target in "${targets[@]}"; do
  for attempt in 1 2 3; do
    "${build[@]}" --product "$target" 2>&1 | grep -v "Cannot export local symbol '__asan"
    if instrumented "$target"; then break; fi
    echo "== $target is not instrumented for coverage (attempt $attempt); rebuilding"
    touch Fuzz/Sources/"$target"/main.swift Sources/ObjectMapping/Document/Node.swift
    if [ "$attempt" = 3 ]; then exit 1; fi
  done
done

# The Swift backtracer confuses AddressSanitizer (a bogus report from its memory server).
export SWIFT_BACKTRACE=enable=no
# A known one-time leak when a mapping's inverse is built (see the file); any other leak fails.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
for target in "${targets[@]}"; do
  mkdir -p "$work/$target"
  corpora=("$work/$target" "Fuzz/Corpus/$target")
  if [ "$target" != FormReaderFuzz ] && [ -n "$extra" ] && [ -d "$extra" ]; then
    corpora+=("$extra")
  fi
  echo "== $target: ${seconds}s"
  # shellcheck disable=SC2086
  if ! "$bin/$target" "${corpora[@]}" -max_total_time="$seconds" -max_len=4096 \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    ${FUZZ_FLAGS:-} 2>&1 | grep -v '^#[0-9]*\s*\(NEW\|REDUCE\|pulse\)'; then
    echo "== $target FAILED: see $artifacts/"
    status=1
  fi
done
exit "$status"
