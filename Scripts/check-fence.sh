#!/usr/bin/env bash
# The unsafe-code fence: fails when an unsafe construct appears in Sources/ outside the audited
# folders (Documentation/Architecture.md, "Where unsafe code lives, and why it is safe").
#
#   Scripts/check-fence.sh            # the repository's Sources/
#   Scripts/check-fence.sh <root>     # another checkout (its Sources/)
#
# Flagged, in code (comments are ignored): an `unsafe` expression or statement, `@unsafe`,
# `unsafeAddress`, `Unsafe…Pointer`, `Unmanaged`, `unsafeBitCast`, `unsafeDowncast`, `withUnsafe…`,
# `@exclusivity(unchecked)`, `unowned(unsafe)` and `nonisolated(unsafe)`.
#
# ObjectMapping, ObjectMappingDocument and ObjectMappingStore build with strict memory safety,
# so the compiler already refuses an unmarked unsafe construct there; this check keeps the marked
# ones inside the audited folders, and covers the targets built without strict memory safety.
set -euo pipefail

root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"

# The audited folders (the client's System/ holds its system calls: the socket transport's
# and the spool file's), and the one target outside the library that needs pointers: the test
# server's sockets (bind, getsockname, send), a test helper no library target depends on.
allowed='^Sources/(ObjectMappingDocument/Bytes|ObjectMapping/PropertyAccess|ObjectMappingStore/SQLite|ObjectMappingClient/System)/|^Sources/ObjectMappingTestSupport/LoopbackServer\.swift$'
pattern='@unsafe\b|(^|[^A-Za-z0-9_@])unsafe([^A-Za-z0-9_]|$)|\bunsafe(Mutable)?Address\b|\bUnsafe[A-Za-z]*Pointer\b|\bUnmanaged\b|\bunsafeBitCast\b|\bunsafeDowncast\b|\bwithUnsafe[A-Za-z]*\b|@exclusivity\(unchecked\)|\bunowned\(unsafe\)|\bnonisolated\(unsafe\)'

violations=0
while IFS= read -r -d '' file; do
  [[ "$file" =~ $allowed ]] && continue
  # Drop line comments (and doc comments), then look for the constructs in what is left.
  hits="$(sed -E 's://.*$::' "$file" | grep -nE "$pattern" || true)"
  if [[ -n "$hits" ]]; then
    while IFS= read -r hit; do
      echo "$file:${hit%%:*}: error: unsafe construct outside the audited folders: ${hit#*:}" >&2
    done <<<"$hits"
    violations=$((violations + 1))
  fi
done < <(find Sources -name '*.swift' -print0 | sort -z)

if [[ $violations -ne 0 ]]; then
  echo "error: $violations file(s) outside the fence use unsafe code; move it behind a safe" \
    "function in Sources/ObjectMappingDocument/Bytes/ or Sources/ObjectMapping/PropertyAccess/" \
    "(see Documentation/Architecture.md)" >&2
  exit 1
fi

# The audited folders' figures, for the record.
for folder in Sources/ObjectMappingDocument/Bytes Sources/ObjectMapping/PropertyAccess \
  Sources/ObjectMappingStore/SQLite Sources/ObjectMappingClient/System; do
  count="$(find "$folder" -name '*.swift' -print0 | xargs -0 sed -E 's://.*$::' \
    | grep -oE '(^|[^A-Za-z0-9_@])unsafe[[:space:]]' | wc -l || true)"
  printf 'fence: %-40s %5d unsafe markers\n' "$folder" "$count"
done
echo "fence: no unsafe construct outside the audited folders"
