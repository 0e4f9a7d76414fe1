#!/usr/bin/env bash
# Type-checks Scripts/Diagnostics/*.swift against the debug build's modules in the compiler's
# -verify mode: each `expected-error {{...}}` annotation must be reported on its line with that
# exact text, and no other diagnostic may be (issue 41: where a keyless rule cannot exist, the
# compiler says what to write). Needs a debug build (`swift build`); takes about a second.
#
#   Scripts/check-diagnostics.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
modules="$(swift build --show-bin-path)/Modules"
if [[ ! -d "$modules" ]]; then
  echo "check-diagnostics: no debug build at $modules (run swift build first)" >&2
  exit 1
fi
for file in Scripts/Diagnostics/*.swift; do
  # A sample whose first line is `// swift-version: 6` is checked in Swift 6 language mode.
  mode=()
  if [[ "$(head -n 1 "$file")" == "// swift-version: 6" ]]; then mode=(-swift-version 6); fi
  # -verify-ignore-unrelated: the notes the library's own files carry ("marked unavailable
  # here") are not annotated in the sample.
  if ! output="$(swiftc -typecheck "${mode[@]}" -I "$modules" -Xfrontend -verify \
    -Xfrontend -verify-ignore-unrelated "$file" 2>&1)"; then
    echo "$output" >&2
    echo "check-diagnostics: $file: the compiler's messages differ from the expected ones" >&2
    exit 1
  fi
done
echo "check-diagnostics: every expected compiler message is reported"
