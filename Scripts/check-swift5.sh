#!/usr/bin/env bash
# Type-checks Scripts/Swift5Check/Sample.swift in Swift 5 language mode against the debug build's
# modules and fails on any warning: `Mapping(Model.init) { ... }`, a function passed as a
# transform and the other spellings of a Swift 5 package compile cleanly (issue 37). Needs a
# debug build (`swift build`); takes under a second.
#
#   Scripts/check-swift5.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
modules="$(swift build --show-bin-path)/Modules"
if [[ ! -d "$modules" ]]; then
  echo "check-swift5: no debug build at $modules (run swift build first)" >&2
  exit 1
fi
output="$(swiftc -typecheck -swift-version 5 -I "$modules" Scripts/Swift5Check/Sample.swift 2>&1)" || {
  echo "$output" >&2
  exit 1
}
if grep -qE "(warning|error):" <<<"$output"; then
  echo "$output" >&2
  echo "check-swift5: the Swift 5 sample has warnings" >&2
  exit 1
fi
echo "check-swift5: the Swift 5 sample type-checks without warnings"
