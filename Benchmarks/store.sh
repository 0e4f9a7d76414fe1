#!/usr/bin/env bash
# Runs the persistent store's benchmarks (Store.swift) in one run and prints their table for
# Documentation/Performance.md, "Persistent store": each row's median wall-clock time, its
# baseline's, the ratio, peak resident memory and allocations.
#
#   Benchmarks/store.sh
#
# The databases are built in the benchmarks' setup under the system's temporary folder
# (object-mapping-store-bench-*.sqlite, about 320 MB for 100,000 rows) and kept for the next run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

output="$(mktemp)"
trap 'rm -f "$output"' EXIT

# The text tables (the JMH export drops benchmarks slower than one iteration per second).
swift package --package-path Benchmarks benchmark --no-progress --filter 'Store\..*' \
  | tee "$output" >&2

python3 - "$output" <<'PY'
import re
import sys

# "│ Time (wall clock) (ms) *  │  3711 │  3712 │  4175 │ …": the p50 is the third number.
SCALE = {"ns": 1e-3, "us": 1.0, "μs": 1.0, "ms": 1e3, "s": 1e6, "K": 1e3, "M": 1e6, "G": 1e9}
rows = {}
name = None
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if line.startswith("Store."):
        name = line
        rows[name] = [None, None, None]
        continue
    match = re.match(r"│ (Time \(wall clock\)|Memory \(resident peak\)|Malloc \(total\)) "
                     r"\((\w+)\)\s*\*?\s*│([^│]*)│([^│]*)│([^│]*)│", line)
    if name and match:
        value = float(match.group(5).strip()) * SCALE.get(match.group(2), 1.0)
        slot = {"Time (wall clock)": 0, "Memory (resident peak)": 1, "Malloc (total)": 2}
        rows[name][slot[match.group(1)]] = value

def ms(us):
    return f"{us / 1000:,.0f} ms" if us >= 10_000 else f"{us / 1000:,.1f} ms"

def mb(count):
    return "–" if count is None else f"{count / 1_000_000:,.0f} MB"

print("| benchmark | ours p50 | baseline | baseline p50 | ratio | peak resident ours | peak resident baseline |")
print("|---|---:|---|---:|---:|---:|---:|")
for ours, base, label in [
    ("Store.save_100000.ObjectMapping", "Store.save_100000.PreparedInsert", "prepared INSERT of the JSON texts"),
    ("Store.fetch_100000.ObjectMapping", "Store.fetch_100000.JSONDecoder", "SELECT + JSONDecoder"),
]:
    if ours in rows and base in rows:
        o, b = rows[ours], rows[base]
        print(f"| {ours} | {ms(o[0])} | {label} | {ms(b[0])} | {o[0] / b[0]:.2f}× ours/baseline |"
              f" {mb(o[1])} | {mb(b[1])} |")
print()
print("| fetch | rows fetched | database rows | p50 | per row | peak resident | mallocs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, fetched, total in [
    ("Store.fetch_1000_of_1000.ObjectMapping", 1000, 1000),
    ("Store.fetch_1000_of_100000.ObjectMapping", 1000, 100000),
    ("Store.fetch_25000_of_100000.ObjectMapping", 25000, 100000),
    ("Store.fetch_50000_of_100000.ObjectMapping", 50000, 100000),
    ("Store.fetch_100000.ObjectMapping", 100000, 100000),
]:
    if name in rows:
        wall, peak, mallocs = rows[name]
        count = "–" if mallocs is None else f"{int(mallocs):,}"
        print(f"| {name} | {fetched:,} | {total:,} | {ms(wall)} | {wall / fetched:.1f} µs | {mb(peak)} | {count} |")
PY
