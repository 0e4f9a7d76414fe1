#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of the Fuzz/ package. See Documentation/Fuzzing.md.
#
#   Scripts/fuzz.sh build [release|debug]          build every target, check coverage counters
#   Scripts/fuzz.sh ci [release|debug] [target...] the gating CI run: fixed seed, fixed run counts
#   Scripts/fuzz.sh [seconds] [target...]          open-ended fuzzing (release), corpus kept
#   Scripts/fuzz.sh replay [release|debug] <target> <input-file>...
#
# Builds: `swift build --package-path Fuzz -c <config> --scratch-path .build/fuzz/<config>
# --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product <target>`, one product at a
# time. The swift driver passes only the LAST `-sanitize=` argument to the compiler (the linker
# gets all of them), and SwiftPM writes `--sanitize=fuzzer --sanitize=address` in the random
# order of a Set: half the builds had no coverage counters (libFuzzer ran blind), the other half
# no AddressSanitizer checks in Swift code. One combined `-sanitize=fuzzer,address` after
# SwiftPM's own flag is always the last one. Every binary is then checked: `<target> -runs=0`
# must print libFuzzer's `Loaded 1 modules (N inline 8-bit counters)`, or the script stops.
#
# `ci` is reproducible: the seed is derived from the code (the trees of Sources/ and Fuzz/ at
# HEAD, or FUZZ_SEED), each target runs a fixed number of inputs (the table below) over a fresh
# temporary corpus of the checked-in seeds (Fuzz/Corpus/<target>) and, for JSON targets, the JSONTestSuite files
# (../shared/data/JSONTestSuite/test_parsing beside the repository, or $OBJECT_MAPPING_DATA),
# with Swift's hashing made deterministic (SWIFT_DETERMINISTIC_HASHING=1), address-space
# randomization off (setarch -R) and libFuzzer's once-a-second corpus reload off (-reload=0), so
# every run of a given commit executes the same inputs and finds the same failures. A time cap (FUZZ_CI_CAP, seconds per target) only guards against a hang
# of the whole run; reaching it is reported. Any crash, leak, timeout or out-of-memory input
# fails the run; the input is written to .build/fuzz-artifacts/ and printed in base64.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"

# target        release-runs  debug-runs  JSONTestSuite-seeds
# (The budgets of session 10, restored in milestone 3 when CI's budget became 40 minutes; sessions
# 11 and 12 had cut them to fit 20. Longer runs: `Scripts/fuzz.sh <seconds>`, see
# Documentation/Fuzzing.md.)
TARGET_TABLE="
JSONReaderFuzz   750000        36000       yes
FormReaderFuzz   300000        30000       no
MapperFuzz       15000         1500        yes
NodeFuzz         25000         1800        no
ModelFuzz        100000        15000       yes
DefinitionFuzz   50000         10000       no
StreamReaderFuzz 20000         2000        yes
"

all_targets() { awk 'NF { print $1 }' <<<"$TARGET_TABLE"; }
table_field() { awk -v t="$1" -v f="$2" '$1 == t { print $f }' <<<"$TARGET_TABLE"; }

artifacts="${FUZZ_ARTIFACTS:-$ROOT/.build/fuzz-artifacts}"
data="${OBJECT_MAPPING_DATA:-$ROOT/../shared/data}"
suite="$data/JSONTestSuite/test_parsing"

# The Swift backtracer sets off a bogus AddressSanitizer report. LeakSanitizer suppressions (none
# today) are in Fuzz/lsan-suppressions.txt; any other leak fails.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$ROOT/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

scratch() { echo "$ROOT/.build/fuzz/$1"; }
# The release build keeps the debug build's checks on (`-assert-config Debug`: `assert`, and the
# standard library's bounds checks in unsafe buffer code; `-DDEBUG`: the writer's event-sequence
# checks), so that the one build CI fuzzes runs optimized code and still stops at the first
# out-of-bounds index instead of reading past it unnoticed where AddressSanitizer cannot see
# (inside one allocation). The debug build (`-c debug`) stays for stepping through a failure.
build_command() {
  local checks=""
  if [[ "$1" == release ]]; then
    checks="-Xswiftc -assert-config -Xswiftc Debug -Xswiftc -DDEBUG"
  fi
  echo swift build --package-path Fuzz -c "$1" --scratch-path "$(scratch "$1")" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address $checks
}
bin_dir() { echo "$(scratch "$1")/$1"; }

# check_counters <config> <target>: the binary must carry libFuzzer's coverage counters.
check_counters() {
  local binary probe counters
  binary="$(bin_dir "$1")/$2"
  probe="$(ASAN_OPTIONS=detect_leaks=0 "$binary" -runs=0 -timeout=30 "$ROOT/Fuzz/Corpus/$2" 2>&1 || true)"
  counters="$(grep -o 'Loaded 1 modules *([0-9]* inline 8-bit counters)' <<<"$probe" || true)"
  if [[ -z "$counters" ]]; then
    echo "error: $binary has no coverage counters: libFuzzer would run blind." >&2
    echo "$probe" | tail -n 20 >&2
    return 1
  fi
  echo "$2 ($1): $counters"
}

build_targets() {
  local config="$1" target
  shift
  local targets=("$@")
  local command
  read -r -a command <<<"$(build_command "$config")"
  for target in "${targets[@]}"; do
    echo "\$ ${command[*]} --product $target"
    if ! "${command[@]}" --product "$target" >"$artifacts/build.log" 2>&1; then
      grep -v "Cannot export local symbol '__asan" "$artifacts/build.log" >&2 || true
      echo "error: building $target ($config) failed" >&2
      return 1
    fi
    grep -v "Cannot export local symbol '__asan" "$artifacts/build.log" || true
    check_counters "$config" "$target" || return 1
  done
}

# seed_corpus <target> <dir>: copies the seeds into <dir> as 00000, 00001, ... in sorted order.
seed_corpus() {
  local target="$1" dir="$2" n=0 file
  local sources=("$ROOT/Fuzz/Corpus/$target")
  if [[ "$(table_field "$target" 4)" == yes ]]; then
    if [[ ! -d "$suite" ]]; then
      echo "error: JSONTestSuite not found at $suite (set OBJECT_MAPPING_DATA)" >&2
      return 1
    fi
    sources+=("$suite")
  fi
  while IFS= read -r file; do
    cp "$file" "$dir/$(printf '%05d' "$n")"
    n=$((n + 1))
  done < <(find "${sources[@]}" -type f | LC_ALL=C sort)
}

commit_seed() {
  if [[ -n "${FUZZ_SEED:-}" ]]; then
    echo "$FUZZ_SEED"
    return
  fi
  # The code being fuzzed: the trees of Sources/ and Fuzz/ at HEAD, so a commit that changes
  # only documentation keeps the seed (and the run) of the code it documents.
  local head
  head="$(git -C "$ROOT" rev-parse HEAD:Sources HEAD:Fuzz 2>/dev/null | git hash-object --stdin \
    2>/dev/null || echo 00000001)"
  # The first 7 hex digits: a positive 28-bit number, never 0 (0 means "random" to libFuzzer).
  echo $((16#${head:0:7} + 1))
}

no_aslr() {
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    setarch "$(uname -m)" -R "$@"
  else
    "$@"
  fi
}

# run_ci_target <config> <target> <seed>
run_ci_target() {
  local config="$1" target="$2" seed="$3" runs corpus log status=0 started elapsed
  runs="$(table_field "$target" "$([[ "$config" == release ]] && echo 2 || echo 3)")"
  local cap="${FUZZ_CI_CAP:-120}"
  corpus="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")"
  log="$artifacts/$config-$target.log"
  seed_corpus "$target" "$corpus" || return 1
  echo "== $target ($config): seed $seed, $runs runs, cap ${cap}s," \
    "$(find "$corpus" -type f | wc -l) seed inputs"
  started=$SECONDS
  SWIFT_DETERMINISTIC_HASHING=1 no_aslr "$(bin_dir "$config")/$target" "$corpus" \
    -seed="$seed" -runs="$runs" -max_total_time="$cap" -max_len=4096 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -timeout=30 -len_control=0 -reload=0 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$config-$target-" >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - started))
  rm -rf "$corpus"
  grep -E '^(INFO: Seed|INFO: Loaded 1 modules|#[0-9]+\s+(INITED|DONE)|stat::)' "$log" || true
  local executed
  executed="$(awk '/^stat::number_of_executed_units/ { print $2 }' "$log")"
  if [[ $status -ne 0 ]]; then
    echo "---- $target ($config) FAILED (exit $status); the end of its log ($log):"
    grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$log" | tail -n 60
    local input
    for input in "$artifacts/$config-$target-"*; do
      [[ -f "$input" && "$input" != *.log ]] || continue
      echo "---- failing input $input (base64):"
      base64 -w 100 "$input"
    done
    echo "---- to replay: echo '<base64 above>' | base64 -d > input && Scripts/fuzz.sh replay" \
      "$config $target input"
    echo "---- to rerun this exact CI run: FUZZ_SEED=$seed Scripts/fuzz.sh ci $config $target"
    return 1
  fi
  if [[ "${executed:-0}" -lt "$runs" ]]; then
    echo "warning: $target ($config) reached the ${cap}s cap after ${executed:-0} of $runs runs:" \
      "this run is shorter than the reproducible one"
  fi
  echo "-- $target ($config): ${executed:-?} executions in ${elapsed}s"
  summary_lines+=("$(printf '%-16s %8s %6s %6s %6s %5ss' "$target" "${executed:-?}" \
    "$(grep -o 'DONE *cov: [0-9]*' "$log" | grep -o '[0-9]*$')" \
    "$(grep -o 'DONE .* ft: [0-9]*' "$log" | grep -o '[0-9]*$')" \
    "$(grep -o 'DONE .* corp: [0-9]*' "$log" | grep -o '[0-9]*$')" "$elapsed")")
}
summary_lines=()

command="${1:-}"
case "$command" in
  build)
    config="${2:-release}"
    mkdir -p "$artifacts"
    read -r -a targets <<<"$(all_targets | tr '\n' ' ')"
    build_targets "$config" "${targets[@]}"
    ;;
  ci)
    config="${2:-release}"
    shift $(($# >= 2 ? 2 : $#))
    targets=("$@")
    if [[ ${#targets[@]} -eq 0 ]]; then read -r -a targets <<<"$(all_targets | tr '\n' ' ')"; fi
    mkdir -p "$artifacts"
    rm -f "$artifacts/$config-"*
    build_targets "$config" "${targets[@]}"
    seed="$(commit_seed)"
    echo "== fuzzing ($config) with seed $seed (from $(git -C "$ROOT" rev-parse --short HEAD \
      2>/dev/null || echo 'no commit'); FUZZ_SEED overrides)"
    # Each libFuzzer run uses one core: FUZZ_JOBS of them (default: the cores, at most 4) run
    # side by side, each writing its report to a file printed in table order once all are done.
    # Every run is a separate process with its own seed, count and corpus, so running them
    # together changes nothing in what they execute.
    jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
    if [[ "$jobs" -gt 4 ]]; then jobs=4; fi
    if [[ "$jobs" -lt 1 ]]; then jobs=1; fi
    failed=()
    running=0
    for target in "${targets[@]}"; do
      if [[ $running -ge $jobs ]]; then
        wait -n || true
        running=$((running - 1))
      fi
      (
        summary_lines=()
        status=0
        run_ci_target "$config" "$target" "$seed" || status=$?
        printf '%s\n' "${summary_lines[@]}" >"$artifacts/$config-$target.summary"
        echo "$status" >"$artifacts/$config-$target.status"
      ) >"$artifacts/$config-$target.report" 2>&1 &
      running=$((running + 1))
    done
    wait
    for target in "${targets[@]}"; do
      cat "$artifacts/$config-$target.report"
      if [[ "$(cat "$artifacts/$config-$target.status" 2>/dev/null || echo 1)" != 0 ]]; then
        failed+=("$target")
      fi
      while IFS= read -r line; do
        if [[ -n "$line" ]]; then summary_lines+=("$line"); fi
      done <"$artifacts/$config-$target.summary"
    done
    if [[ ${#summary_lines[@]} -ne 0 ]]; then
      echo "== fuzzing ($config), seed $seed: target, executions, coverage (edges, features)," \
        "corpus, time"
      printf '  %s\n' "${summary_lines[@]}"
    fi
    if [[ ${#failed[@]} -ne 0 ]]; then
      echo "error: fuzzing ($config) failed for: ${failed[*]} (seed $seed)" >&2
      exit 1
    fi
    ;;
  replay)
    config="${2:?usage: Scripts/fuzz.sh replay release|debug <target> <input>...}"
    target="${3:?usage: Scripts/fuzz.sh replay release|debug <target> <input>...}"
    shift 3
    mkdir -p "$artifacts"
    build_targets "$config" "$target"
    SWIFT_DETERMINISTIC_HASHING=1 "$(bin_dir "$config")/$target" -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 -timeout=30 "$@"
    ;;
  *)
    # Open-ended fuzzing: Scripts/fuzz.sh [seconds] [target...]. New corpus entries go to
    # FUZZ_WORK (default .build/fuzz-corpus/<target>, kept between runs); extra libFuzzer flags
    # go in FUZZ_FLAGS.
    seconds="${1:-30}"
    shift || true
    targets=("$@")
    if [[ ${#targets[@]} -eq 0 ]]; then read -r -a targets <<<"$(all_targets | tr '\n' ' ')"; fi
    work="${FUZZ_WORK:-$ROOT/.build/fuzz-corpus}"
    mkdir -p "$artifacts"
    build_targets release "${targets[@]}"
    status=0
    for target in "${targets[@]}"; do
      mkdir -p "$work/$target"
      corpora=("$work/$target" "Fuzz/Corpus/$target")
      if [[ "$(table_field "$target" 4)" == yes && -d "$suite" ]]; then corpora+=("$suite"); fi
      echo "== $target: ${seconds}s"
      # shellcheck disable=SC2086
      if ! "$(bin_dir release)/$target" "${corpora[@]}" -max_total_time="$seconds" \
        -max_len=4096 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=30 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$target-" ${FUZZ_FLAGS:-} 2>&1 |
        grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)'; then
        echo "== $target FAILED: see $artifacts/"
        status=1
      fi
    done
    exit "$status"
    ;;
esac
