#!/usr/bin/env bash
# Runs the streaming benchmarks (Streaming.swift, issue 40) and prints their table for
# Documentation/Performance.md, "Streaming": each row's median CPU time (user + system) and
# wall-clock time, throughput (by CPU time), peak resident memory, the CPU-time ratio to the row
# of half the size (linear: 2.0), and the streamed throughput against mapping the same bytes in
# memory (by CPU time: the machine is shared, and wall-clock time moves with its load).
#
#   Benchmarks/stream.sh                          # 250 MB, 500 MB and 1 GB
#   Benchmarks/stream.sh --filter 'Stream\..*_250MB\..*'   # other arguments go to the tool
#
# The files are generated in the benchmarks' setup under the system's temporary folder
# (object-mapping-stream-*.json[l]) and deleted in their teardown.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

output="$(mktemp)"
trap 'rm -f "$output"' EXIT

if [[ $# -eq 0 ]]; then set -- --filter 'Stream\..*'; fi
# The text tables (the JMH export drops benchmarks slower than one iteration per second).
swift package --package-path Benchmarks benchmark --no-progress "$@" | tee "$output" >&2

python3 - "$output" <<'PY'
import re
import sys

# "│ Time (wall clock) (ms) *  │  3711 │  3712 │  4175 │ …": the p50 is the third number.
SCALE = {"ns": 1e-3, "us": 1.0, "μs": 1.0, "ms": 1e3, "s": 1e6, "K": 1e3, "M": 1e6, "G": 1e9}
rows = {}
name = None
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if line.startswith("Stream."):
        name = line
        rows[name] = [None, None, None]
        continue
    match = re.match(r"│ (Time \(wall clock\)|Memory \(resident peak\)|Time \(total CPU\)) "
                     r"\((\w+)\)\s*\*?\s*│([^│]*)│([^│]*)│([^│]*)│", line)
    if name and match:
        value = float(match.group(5).strip()) * SCALE.get(match.group(2), 1.0)
        slot = {"Time (wall clock)": 0, "Memory (resident peak)": 1, "Time (total CPU)": 2}
        rows[name][slot[match.group(1)]] = value

def mb(count):
    return "–" if count is None else f"{count / 1_000_000:,.0f} MB"

print("| benchmark | size | CPU p50 | wall p50 | throughput (CPU) | peak resident | CPU / half size |"
      " streamed / in memory |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for layout in ["jsonl", "array"]:
    for size in [250, 500, 1000]:
        for kind in ["ObjectMapping", "InMemory"]:
            key = f"Stream.{layout}_{size}MB.{kind}"
            if key not in rows or rows[key][2] is None:
                continue
            wall, peak, cpu = rows[key]
            rate = size / (cpu / 1e6)
            half = rows.get(f"Stream.{layout}_{size // 2}MB.{kind}")
            doubling = f"{cpu / half[2]:.2f}" if half and half[2] else "–"
            ratio = "–"
            memory = rows.get(f"Stream.{layout}_{size}MB.InMemory")
            if kind == "ObjectMapping" and memory and memory[2]:
                ratio = f"{memory[2] / cpu:.0%}"
            print(f"| {key} | {size:,} MB | {cpu / 1e6:,.2f} s | {wall / 1e6:,.2f} s |"
                  f" {rate:,.0f} MB/s | {mb(peak)} | {doubling} | {ratio} |")
PY
