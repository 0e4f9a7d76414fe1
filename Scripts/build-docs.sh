#!/usr/bin/env bash
# Builds the DocC archive of the ObjectMapping module with the toolchain's own `docc`: no plugin,
# no dependency added to the package.
#
#   Scripts/build-docs.sh                   # -> .build/docs/ObjectMapping.doccarchive
#   Scripts/build-docs.sh --static-hosting  # the same, laid out for a static web server
#                                           # (GitHub Pages under /swift-object-mapping)
#
# Steps: build the ObjectMapping target in its own scratch path (.build/docs, so the changed
# compiler flags never force a rebuild of the normal .build) while emitting its symbol graph,
# then `docc convert` the catalog Sources/ObjectMapping/ObjectMapping.docc with that symbol
# graph. Warnings are errors: a broken ``Symbol`` link or a missing page fails the script.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
SCRATCH="$ROOT/.build/docs"
GRAPHS="$SCRATCH/symbol-graphs"
OUTPUT="$SCRATCH/ObjectMapping.doccarchive"

DOCC="${DOCC:-$(command -v docc || true)}"
if [[ -z "$DOCC" ]]; then
  # docc ships next to swift in the toolchain.
  DOCC="$(dirname "$(command -v swift)")/docc"
fi
if [[ ! -x "$DOCC" ]]; then
  echo "build-docs: cannot find docc (set DOCC=/path/to/docc)" >&2
  exit 2
fi

extra=()
if [[ "${1:-}" == "--static-hosting" ]]; then
  extra=(--transform-for-static-hosting --hosting-base-path swift-object-mapping)
fi

rm -rf "$OUTPUT"
mkdir -p "$GRAPHS"

build_symbol_graph() {
  swift build --target ObjectMapping --scratch-path "$SCRATCH" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$GRAPHS"
}

# The compiler writes the symbol graph only when it compiles the module, so the graphs are kept
# between runs (an up-to-date build leaves them current). If they are missing, the docs-only
# scratch path is cleared so the module is compiled again.
echo "== symbol graph (swift build --target ObjectMapping) =="
build_symbol_graph
if [[ ! -f "$GRAPHS/ObjectMapping.symbols.json" ]]; then
  echo "build-docs: no symbol graph yet; rebuilding .build/docs from scratch"
  rm -rf "$SCRATCH"
  mkdir -p "$GRAPHS"
  build_symbol_graph
fi

# The build also writes the graphs of the ObjectMappingDocument target. Its public symbols are
# already in ObjectMapping's graph (`@_exported import`, so users see `Node` as part of
# ObjectMapping); given both, DocC files them under the document module and ``Node`` links from
# the ObjectMapping catalog stop resolving. Convert ObjectMapping's graphs alone.
MODULE_GRAPHS="$SCRATCH/objectmapping-symbol-graphs"
rm -rf "$MODULE_GRAPHS"
mkdir -p "$MODULE_GRAPHS"
cp "$GRAPHS"/ObjectMapping.symbols.json "$GRAPHS"/ObjectMapping@*.symbols.json "$MODULE_GRAPHS"/

# convert MODULE GRAPH_DIR OUTPUT: the catalog Sources/MODULE/MODULE.docc with the graphs.
convert() {
  echo "== docc convert ($1) =="
  "$DOCC" convert "$ROOT/Sources/$1/$1.docc" \
    --additional-symbol-graph-dir "$2" \
    --fallback-display-name "$1" \
    --fallback-bundle-identifier "org.swift-object-mapping.$1" \
    --output-path "$3" \
    --warnings-as-errors \
    "${extra[@]}"
}

convert ObjectMapping "$MODULE_GRAPHS" "$OUTPUT"

echo "Documentation archive: ${OUTPUT#"$ROOT/"}"

# The definition files library (ObjectMappingDefinitions) has its own catalog and archive; its
# links to ObjectMapping's types are written as code, not ``links`` (one module per archive).
DEFINITIONS_OUTPUT="$SCRATCH/ObjectMappingDefinitions.doccarchive"
DEFINITIONS_GRAPHS="$SCRATCH/definitions-symbol-graphs"
rm -rf "$DEFINITIONS_OUTPUT" "$DEFINITIONS_GRAPHS"
mkdir -p "$DEFINITIONS_GRAPHS"
echo "== symbol graph (swift build --target ObjectMappingDefinitions) =="
swift build --target ObjectMappingDefinitions --scratch-path "$SCRATCH" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$GRAPHS"
if [[ ! -f "$GRAPHS/ObjectMappingDefinitions.symbols.json" ]]; then
  echo "build-docs: no ObjectMappingDefinitions symbol graph; touch its sources and run again" >&2
  exit 1
fi
cp "$GRAPHS"/ObjectMappingDefinitions.symbols.json "$DEFINITIONS_GRAPHS"/
cp "$GRAPHS"/ObjectMappingDefinitions@*.symbols.json "$DEFINITIONS_GRAPHS"/ 2>/dev/null || true
convert ObjectMappingDefinitions "$DEFINITIONS_GRAPHS" "$DEFINITIONS_OUTPUT"
echo "Documentation archive: ${DEFINITIONS_OUTPUT#"$ROOT/"}"
