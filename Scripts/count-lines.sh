#!/bin/sh
# Counts the non-blank lines that are not comments (`//`, `///`) of each Swift file named, as
# the client comparisons of Documentation/MigratingFromCodable.md count them (issue 41):
#   Scripts/count-lines.sh Tests/ObjectMappingTests/Derived/GitHubClient/*Client.swift
set -eu
if [ "$#" -eq 0 ]; then
  echo "usage: $0 FILE.swift..." >&2
  exit 64
fi
for file in "$@"; do
  lines=$(grep -v '^[[:space:]]*$' "$file" | grep -cv '^[[:space:]]*//' || true)
  printf '%6d  %s\n' "$lines" "$file"
done
