#!/usr/bin/env bash
# Runs the benchmark suite and prints one markdown table comparing ObjectMapping with Foundation.
#
#   Benchmarks/run.sh                        # whole suite
#   Benchmarks/run.sh --filter 'Parse.*'     # extra arguments go to `swift package benchmark`
#   BENCHMARK_RESULTS=run.jmh.json Benchmarks/run.sh   # also keep the raw results
#   python3 Benchmarks/table.py --peak-memory run.jmh.json  # peak resident memory per benchmark
#
# The tool's own output goes to stderr; stdout carries only the table (see
# Documentation/Performance.md). Corpus: $OBJECT_MAPPING_DATA, else ../shared/data beside the
# repository.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

swift package --package-path Benchmarks benchmark \
  --format jmh --path "$results" --no-progress "$@" >&2

json="$results/Current_run.jmh.json"
if [[ -n "${BENCHMARK_RESULTS:-}" ]]; then
  cp "$json" "$BENCHMARK_RESULTS"
fi
python3 Benchmarks/table.py "$json"
