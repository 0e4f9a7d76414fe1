#!/usr/bin/env python3
"""Measures the public surface of the ObjectMapping module (issue 37).

    Scripts/api-surface.py            # the two figures
    Scripts/api-surface.py --list     # ... and every decode entry point, by file

Counts, in Sources/ObjectMapping (comments left out):
- public declarations: every `public` or `open` func, var, let, init, subscript, type, protocol,
  typealias, associatedtype, macro or operator; enum cases and `public extension` lines are not
  counted (a case belongs to its enum; an extension only re-opens a type);
- of those, the ones that add no name a user learns: witnesses of a protocol's requirements
  (`MappableValue`'s `init(payload:)`, `payloadNode()`, …; `description`, `==`, an async
  sequence's `makeAsyncIterator()` and `next()`, `Codable`'s `init(from:)`/`encode(to:)`, an
  option set's `rawValue`, `MappingProtocol.plan`, …), `FastJSONEncoder`'s and
  `FastJSONDecoder`'s aliases of `JSONEncoder`'s and `JSONDecoder`'s nested type names,
  result-builder hooks (`buildBlock`, …)
  and `@available(*, unavailable)` declarations (compiler messages for a wrong call);
  the rest are printed as the declarations a newcomer meets;
- decode entry points: the public functions that map, report or decode a payload: `map`,
  `mapCollection`, `mapDictionary…`, `mapArrayOfArrays`, `report` and `decode` (the
  `FastJSONDecoder.decode` overloads and `PayloadValue.decode` included); the figure without
  `FastJSONDecoder`'s, whose spellings are fixed by the `JSONDecoder` drop-in promise, is printed
  beside it.

Goals (issue 37): at most 400 public declarations, at most 12 decode entry points.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources" / "ObjectMapping"

MODIFIERS = (
    "final|static|class|override|mutating|nonmutating|convenience|required|indirect|"
    "nonisolated|consuming|borrowing|lazy|dynamic|weak|unowned|"
    r"(?:fileprivate|private|internal|package)\(set\)"
)
KINDS = (
    "func|var|let|init|subscript|class|struct|enum|actor|protocol|typealias|associatedtype|"
    "macro|operator|precedencegroup"
)
ATTRIBUTES = r'(?:@[\w.]+(?:\([^)]*\))?\s+)*'
DECLARATION = re.compile(
    rf"^\s*{ATTRIBUTES}(?:public|open)\s+(?:(?:{MODIFIERS})\s+)*(?P<kind>{KINDS})\b"
    r"(?:\s+(?P<name>[A-Za-z_]\w*))?"
)
# Members that only implement a requirement of a protocol (the library's or the standard
# library's) or a result builder's hook: matched on the declaration's text.
NO_NEW_NAME = re.compile(
    r"\b(?:func|var|let|typealias)\s+(?:build(?:Expression|Block|Optional|Either|Array|"
    r"LimitedAvailability|FinalResult|PartialBlock)|payloadNode|expectedDescription|nullValue|"
    r"zeroValue|mappedElements|mappingInput|sourcePath|description|errorDescription|"
    r"makeAsyncIterator|next|plan|Element|Failure)\b"
    r"|\binit\s*(?:<[^>]*>)?\((?:payload|mappedElements|from|rawValue)\b"
    r"|\bfunc\s+==|\bfunc\s+encode\(to encoder|\blet\s+rawValue\b"
    # The drop-in coders' mirror of JSONEncoder's and JSONDecoder's nested type names.
    r"|\btypealias\s+(?:OutputFormatting|\w+(?:En|De)codingStrategy)\b"
)
ENTRY_POINT = re.compile(r"^(map|mapCollection|mapDictionary\w*|mapArrayOfArrays|report|decode)$")


def code_lines(text: str):
    """The file's lines with block and line comments removed (string literals kept)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, re.sub(r"//.*", "", line)


def measure():
    declarations = 0
    no_new_name = 0
    entry_points = []
    for path in sorted(SOURCES.rglob("*.swift")):
        # Whether an `@available(*, unavailable, …)` attribute waits for its declaration: such a
        # declaration cannot be called (it is a compiler message for a wrong call).
        unavailable = False
        for number, line in code_lines(path.read_text(encoding="utf-8")):
            if re.search(r"@available\(\s*\*\s*,\s*unavailable|^\s*\*\s*,\s*unavailable", line):
                unavailable = True
            match = DECLARATION.match(line)
            if not match:
                continue
            declarations += 1
            if NO_NEW_NAME.search(line) or unavailable:
                no_new_name += 1
            unavailable = False
            if match["kind"] == "func" and match["name"] and ENTRY_POINT.match(match["name"]):
                entry_points.append((path.relative_to(ROOT), number, line.strip()))
    return declarations, no_new_name, entry_points


def main():
    declarations, no_new_name, entry_points = measure()
    mirror = [e for e in entry_points if e[0].name == "FastJSONDecoder.swift"]
    print(f"ObjectMapping: {declarations} public declarations (goal ≤ 400), "
          f"{len(entry_points)} public decode entry points (goal ≤ 12; "
          f"{len(entry_points) - len(mirror)} without the {len(mirror)} `decode` spellings "
          f"of FastJSONDecoder, which are JSONDecoder's)")
    print(f"  of the declarations, {no_new_name} witness a protocol requirement, are "
          f"result-builder hooks or are unavailable (no new name); {declarations - no_new_name} others")
    if "--list" in sys.argv[1:]:
        for path, number, line in entry_points:
            print(f"  {path}:{number}: {line}")


if __name__ == "__main__":
    main()
