#!/usr/bin/env bash
# Runs the benchmark suite and prints the markdown tables of table.py: ObjectMapping against
# Foundation, then (when their rows ran) the peers and the targets, then the scaling series.
#
#   Benchmarks/run.sh                        # whole suite (SKIP_MILLION=1: without the 1M-article run);
#                                            # the scaling series runs twice (default and warm allocator)
#   Benchmarks/run.sh --filter 'Parse.*'     # extra arguments go to `swift package benchmark`
#   BENCHMARK_RESULTS=run.jmh.json Benchmarks/run.sh   # also keep the raw results
#   python3 Benchmarks/table.py --peak-memory run.jmh.json  # peak resident memory per benchmark
#   OBJECT_MAPPING_PEERS=~/peers Benchmarks/run.sh           # also run the peer libraries
#
# Peers (opt-in): with OBJECT_MAPPING_PEERS naming a folder that holds checkouts of
# https://github.com/swift-extras/swift-extras-json and
# https://github.com/tristanhimmelman/ObjectMapper (as `swift-extras-json/` and `ObjectMapper/`),
# Benchmarks/Package.swift adds both as path dependencies and Peers.swift registers their rows
# (`XJSONDecoder`, `XJSONEncoder`, `ExtrasJSON`, `ObjectMapper`). This script passes the
# environment through to `swift package` unchanged; without the variable there is no peer.
#
# The tool's own output goes to stderr; stdout carries only the tables (see
# Documentation/Performance.md). Corpus: $OBJECT_MAPPING_DATA, else ../shared/data beside the
# repository.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

# The 1M-article decode takes over a second per iteration, and the JMH export drops benchmarks
# whose throughput rounds to 0 per second; it runs on its own below, exported as p90 values.
million='Scale.articles_1000000.ObjectMapping'

# The persistent store's rows have a table of their own: Benchmarks/store.sh.
swift package --package-path Benchmarks benchmark \
  --format jmh --path "$results" --no-progress --skip "$million" --skip 'Store\..*' --skip 'Stream\..*' "$@" >&2

json="$results/Current_run.jmh.json"
if [[ -n "${BENCHMARK_RESULTS:-}" ]]; then
  cp "$json" "$BENCHMARK_RESULTS"
fi

extra=()
if [[ $# -eq 0 && "${SKIP_MILLION:-0}" != "1" ]]; then
  swift package --package-path Benchmarks benchmark \
    --format metricP90AbsoluteThresholds --path "$results/p90" --no-progress \
    --filter "^${million//./\\.}\$" >&2
  extra=(--p90 "$results/p90")
fi

# The scaling series again with glibc keeping the memory freed by one iteration for the next
# (as a long-running process whose heap has grown does), so that the time per article measures
# the mapping rather than the kernel's first touch of fresh pages. Both tables are printed; see
# Documentation/Performance.md, "Scaling".
if [[ $# -eq 0 ]]; then
  warm_tunables='glibc.malloc.trim_threshold=4294967296'
  mkdir -p "$results/warm"
  GLIBC_TUNABLES="$warm_tunables" swift package --package-path Benchmarks benchmark \
    --format jmh --path "$results/warm" --no-progress --filter 'Scale\..*' --skip "$million" >&2
  extra+=(--warm "$results/warm/Current_run.jmh.json")
  if [[ "${SKIP_MILLION:-0}" != "1" ]]; then
    GLIBC_TUNABLES="$warm_tunables" swift package --package-path Benchmarks benchmark \
      --format metricP90AbsoluteThresholds --path "$results/warm/p90" --no-progress \
      --filter "^${million//./\\.}\$" >&2
    extra+=(--warm-p90 "$results/warm/p90")
  fi
fi
python3 Benchmarks/table.py "${extra[@]}" "$json"
