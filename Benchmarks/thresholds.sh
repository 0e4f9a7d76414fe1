#!/usr/bin/env bash
# Static allocation-count thresholds for decoding, checked in under Benchmarks/Thresholds.
#
#   Benchmarks/thresholds.sh          # check (the default): rc 0 when every guarded benchmark
#                                     # allocates as recorded, within the 1% tolerance set in
#                                     # ObjectMappingBenchmarks.swift; rc 1 on a deviation
#   Benchmarks/thresholds.sh update   # re-record after an intended change, then commit
#                                     # Benchmarks/Thresholds with the reason in the message
#
# Only `mallocCountTotal` is recorded and checked: allocation counts are deterministic, while
# wall-clock times on shared machines are not. Guarded: ObjectMapping's decode of the three
# corpora and the 1,000- and 10,000-article payloads. Foundation's counts are not ours to gate.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

filter='^(Decode\.[a-z_]+\.ObjectMapping|Scale\.articles_(1000|10000)\.ObjectMapping)$'

case "${1:-check}" in
  check)
    swift package --package-path Benchmarks benchmark thresholds check \
      --path Benchmarks/Thresholds --metric mallocCountTotal --filter "$filter" --no-progress
    ;;
  update)
    swift package --package-path Benchmarks --allow-writing-to-package-directory \
      benchmark thresholds update \
      --path Benchmarks/Thresholds --metric mallocCountTotal --filter "$filter" --no-progress
    ;;
  *)
    echo "usage: Benchmarks/thresholds.sh [check|update]" >&2
    exit 2
    ;;
esac
