#!/usr/bin/env bash
# Runs the benchmark suite and prints one markdown table comparing ObjectMapping with Foundation.
#
#   Benchmarks/run.sh                 # whole suite
#   Benchmarks/run.sh --filter 'Parse.*'   # extra arguments go to `swift package benchmark`
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

python3 Benchmarks/table.py "$results"/*.jmh.json
