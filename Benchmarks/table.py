#!/usr/bin/env python3
"""Turns a package-benchmark JMH export into the tables of Performance.md.

Usage: python3 Benchmarks/table.py [--peak-memory] [--p90 <folder>] [--warm <results.jmh.json>]
       [--warm-p90 <folder>] <results.jmh.json>

Benchmarks are named `<Area>.<corpus>.<implementation>`; `ObjectMapping` is ours. Four tables are
printed: the comparison always, each of the others only when the results hold rows for it.

1. The comparison (ours against Foundation). The Foundation side of an `<Area>.<corpus>` row is
   the Foundation implementation only: `JSONDecoder`, `JSONEncoder`, `JSONSerialization` or, for
   `Form.*`, `URLComponents`; other implementations of the same row (`FastJSONDecoder`,
   `FastJSONEncoder`, the peers) are left to the peers table. MB/s is the size of the corpus file
   (10^6 bytes) divided by the median wall-clock time (for `Encode`, the corpus file is the size of
   the JSON being written; for `Form.articles_<N>`, the size of our form body for N generated
   articles, rebuilt here); the ratio is Foundation's median time divided by ours (above 1 means
   faster). Rows are grouped by area: Decode, Encode, Form, Parse, Write. `Limit.*`, `Scale.*` and
   `DefinitionFile.*` rows are not pairs and are left out of it.
   With --peak-memory only this table is printed, with the median peak resident memory of each
   side instead.
2. Peers: for each `Decode`, `Encode` and `Parse` row, one line per implementation present
   (`ObjectMapping`, `FastJSONDecoder`/`FastJSONEncoder`, `JSONDecoder`, `JSONEncoder`,
   `JSONSerialization`, and the opt-in peers of Peers.swift: `XJSONDecoder`, `XJSONEncoder`,
   `ExtrasJSON`, `ObjectMapper`), with its median time, MB/s, and "ours is N× faster": that
   implementation's median time divided by `ObjectMapping`'s.
3. Targets, computed from whichever of their inputs the results hold: decode to models ≥ 6×
   JSONDecoder and XJSONDecoder; encode ≥ 10× JSONEncoder and XJSONEncoder; parse to `Node` ≥ 3×
   ExtrasJSON; `Limit.<corpus>.UTF8String` (one UTF-8 validation of the corpus into a `String`)
   as a share of our decode time ≥ 35% for twitter and citm_catalog, with its ceiling beside it
   (the same pass as a share of `Limit.<corpus>.Scan`, our scan alone: no decode can beat it, so
   it is shown without a verdict); canada decode ≥ 300 MB/s;
   and the Codable coders: FastJSONDecoder ≥ 3× JSONDecoder and ahead of XJSONDecoder,
   FastJSONEncoder ≥ 3× JSONEncoder and ahead of XJSONEncoder.
4. Scaling: `Scale.articles_<N>.ObjectMapping` benchmarks (the scaling series, ours only): the
   median time to map the N-article payload, the time per article, the payload size (rebuilt here
   exactly as `ArticlePayload` in ArticlesModel.swift writes it) and the median peak resident
   memory of the process. `--p90 <folder>` adds scaling rows from a `metricP90AbsoluteThresholds`
   export (the 1M-article run, which the JMH export cannot hold); those rows show p90 values and
   are marked so. `--warm <results.jmh.json>` (and `--warm-p90 <folder>`) print the scaling table a
   second time from a run with glibc keeping freed memory
   (`GLIBC_TUNABLES=glibc.malloc.trim_threshold=...`, see run.sh).
"""

import json
import os
import sys

OURS = "ObjectMapping"
SCALE = "Scale"
LIMIT = "Limit"
PREFIX = "package.benchmark."

# The Foundation side of the comparison table (`URLComponents`: the `Form.*` row, Encode.swift).
FOUNDATION = ("JSONDecoder", "JSONEncoder", "JSONSerialization", "URLComponents")

# The peers table: its areas, and its implementations in the order of its lines.
PEER_AREAS = ("Decode", "Encode", "Parse")
IMPLEMENTATIONS = (
    OURS,
    "FastJSONDecoder",
    "Derived",
    "FastJSONEncoder",
    "JSONDecoder",
    "JSONEncoder",
    "JSONSerialization",
    "XJSONDecoder",
    "XJSONEncoder",
    "ExtrasJSON",
    "ObjectMapper",
)


def data_directory():
    path = os.environ.get("OBJECT_MAPPING_DATA")
    if path:
        return path
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(os.path.dirname(root), "shared", "data")


def corpus_size(corpus):
    path = os.path.join(data_directory(), "json-benchmark", corpus + ".json")
    return os.path.getsize(path) if os.path.exists(path) else None


def load(path):
    """Returns {name: {"wall_us": p50 µs, "mallocs": p50 count, "peak": p50 bytes}}."""
    with open(path, encoding="utf-8") as f:
        elements = json.load(f)
    results = {}
    for element in elements:
        name = element["benchmark"]
        if name.startswith(PREFIX):
            # package.benchmark.<target>.<name>
            name = name[len(PREFIX):].split(".", 1)[1]
        metrics = element["secondaryMetrics"]
        wall = metrics.get("Time (wall clock)")
        if wall is None or wall["scoreUnit"] != "μs":
            sys.exit(f"error: no wall-clock time in μs for {name}")
        mallocs = metrics.get("Malloc (total)")
        peak = metrics.get("Memory (resident peak)")
        results[name] = {
            "wall_us": wall["scorePercentiles"]["50.0"],
            "mallocs": mallocs["scorePercentiles"]["50.0"] if mallocs else None,
            "peak": peak["scorePercentiles"]["50.0"] if peak else None,
        }
    return results


def time_text(us):
    if us >= 100_000:
        return f"{us / 1000:.0f} ms"
    if us >= 1_000:
        return f"{us / 1000:.2f} ms"
    if us >= 10:
        return f"{us:.0f} µs"
    return f"{us:.2f} µs"


def count_text(count):
    return "–" if count is None else f"{int(count):,}"


def megabytes_text(count):
    return "–" if count is None else f"{count / 1_000_000:,.1f} MB"


def article_text(index):
    """The JSON text of generated article `index`, as `ArticlePayload.article(_:)` writes it."""
    author = index % 97
    return (
        f'{{"id":{index},"title":"Article number {index}",'
        f'"body":"Lorem ipsum dolor sit amet, consectetur adipiscing elit {index}.",'
        f'"published_at":"2024-03-{index % 28 + 1:02d}T{index % 24:02d}:15:30Z",'
        f'"author":{{"name":"Author {author}","email":"author{author}@example.com"}},'
        f'"tags":["swift","json","tag{index % 10}"],"views":{index * 7 % 100_000},'
        f'"rating":{index % 5}.5,"draft":{"true" if index % 3 == 0 else "false"}}}'
    )


def articles_payload_size(count):
    """The byte size of the generated array of `count` articles."""
    return 2 + max(count - 1, 0) + sum(len(article_text(i)) for i in range(count))


def form_value(text):
    """`text` percent-encoded as the library's form writer does (WHATWG urlencoded)."""
    safe = b"*-._"
    out = []
    for byte in text.encode("utf-8"):
        if chr(byte).isalnum() and byte < 128 or byte in safe:
            out.append(chr(byte))
        elif byte == 0x20:
            out.append("+")
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def form_payload_size(count, root="articles"):
    """The byte size of our form body for `count` generated articles under `root`, as
    `Form.articles_<N>.ObjectMapping` (Encode.swift) writes it: indexed objects, `[]` for tags."""
    size = 0
    for index in range(count):
        author = index % 97
        fields = [
            ("id", str(index)),
            ("title", f"Article number {index}"),
            ("body", f"Lorem ipsum dolor sit amet, consectetur adipiscing elit {index}."),
            ("published_at", f"2024-03-{index % 28 + 1:02d}T{index % 24:02d}:15:30Z"),
            ("author][name", f"Author {author}"),
            ("author][email", f"author{author}@example.com"),
            ("tags][", "swift"),
            ("tags][", "json"),
            ("tags][", f"tag{index % 10}"),
            ("views", str(index * 7 % 100_000)),
            ("rating", f"{index % 5}.5"),
            ("draft", "true" if index % 3 == 0 else "false"),
        ]
        for name, value in fields:
            size += len(f"{root}[{index}][{name}]=") + len(form_value(value)) + 1
    return max(size - 1, 0)


def payload_size(corpus):
    """The bytes one operation reads or writes for a row's `<corpus>`."""
    if corpus.startswith("articles_"):
        return form_payload_size(int(corpus[len("articles_"):]))
    return corpus_size(corpus)


def rate_text(size, us):
    return "–" if size is None or us <= 0 else f"{size / us:,.0f}"  # bytes/µs == MB/s


def split_name(name):
    """Returns (area, key, implementation) of `<Area>.<corpus>.<implementation>`, else None."""
    parts = name.split(".")
    if len(parts) < 3:
        return None
    return parts[0], ".".join(parts[:-1]), parts[-1]


def area_order(key):
    return (key.split(".")[0], key)


def pairs(results):
    """Yields (key, ours, foundation) for each `<Area>.<corpus>` with both sides, in order.

    The Foundation side is the Foundation implementation only (FOUNDATION); other
    implementations of the same row (FastJSONDecoder, the peers) are not part of the pair."""
    rows = {}
    for name, result in results.items():
        parsed = split_name(name)
        if parsed is None or parsed[0] in (SCALE, LIMIT, "DefinitionFile"):
            continue
        _, key, implementation = parsed
        if implementation == OURS:
            rows.setdefault(key, {})["ours"] = result
        elif implementation in FOUNDATION:
            rows.setdefault(key, {})["foundation"] = result
    for key in sorted(rows, key=area_order):
        row = rows[key]
        ours, foundation = row.get("ours"), row.get("foundation")
        if ours is None or foundation is None:
            print(f"warning: {key} has no pair, skipped", file=sys.stderr)
            continue
        yield key, ours, foundation


def print_comparison(results):
    print(
        "| benchmark | ours p50 | Foundation p50 | MB/s ours | MB/s Foundation "
        "| ratio (Foundation time / ours) | mallocs ours | mallocs Foundation |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, ours, foundation in pairs(results):
        size = payload_size(key.split(".")[1])
        ratio = foundation["wall_us"] / ours["wall_us"] if ours["wall_us"] > 0 else float("inf")
        print(
            f"| {key} | {time_text(ours['wall_us'])} | {time_text(foundation['wall_us'])} "
            f"| {rate_text(size, ours['wall_us'])} | {rate_text(size, foundation['wall_us'])} "
            f"| {ratio:.2f}× | {count_text(ours['mallocs'])} "
            f"| {count_text(foundation['mallocs'])} |"
        )


def implementations(results):
    """Returns {key: {implementation: result}} for the rows of the peers table."""
    rows = {}
    for name, result in results.items():
        parsed = split_name(name)
        if parsed is None or parsed[0] not in PEER_AREAS or parsed[2] not in IMPLEMENTATIONS:
            continue
        _, key, implementation = parsed
        rows.setdefault(key, {})[implementation] = result
    return rows


def print_peers(results):
    rows = implementations(results)
    if not rows:
        return
    print()
    print("Peers (ours is N× faster: the implementation's p50 / ObjectMapping's p50):")
    print()
    print("| benchmark | implementation | p50 | MB/s | ours is N× faster |")
    print("|---|---|---:|---:|---:|")
    for key in sorted(rows, key=area_order):
        row = rows[key]
        size = payload_size(key.split(".")[1])
        ours = row.get(OURS)
        for implementation in IMPLEMENTATIONS:
            result = row.get(implementation)
            if result is None:
                continue
            if implementation == OURS or ours is None or ours["wall_us"] <= 0:
                ratio = "–"
            else:
                ratio = f"{result['wall_us'] / ours['wall_us']:.2f}×"
            print(
                f"| {key} | {implementation} | {time_text(result['wall_us'])} "
                f"| {rate_text(size, result['wall_us'])} | {ratio} |"
            )


# (target, area, faster implementation, slower implementation, required ratio, required text):
# the faster one's median time must be at most the slower one's / the required ratio.
RATIO_TARGETS = (
    ("decode to models vs JSONDecoder", "Decode", OURS, "JSONDecoder", 6, "≥ 6×"),
    ("decode to models vs XJSONDecoder", "Decode", OURS, "XJSONDecoder", 6, "≥ 6×"),
    ("encode models vs JSONEncoder", "Encode", OURS, "JSONEncoder", 10, "≥ 10×"),
    ("encode models vs XJSONEncoder", "Encode", OURS, "XJSONEncoder", 10, "≥ 10×"),
    ("parse to Node vs ExtrasJSON", "Parse", OURS, "ExtrasJSON", 3, "≥ 3×"),
    ("FastJSONDecoder vs JSONDecoder", "Decode", "FastJSONDecoder", "JSONDecoder", 3, "≥ 3×"),
    ("FastJSONDecoder vs XJSONDecoder", "Decode", "FastJSONDecoder", "XJSONDecoder", None, "> 1×"),
    ("FastJSONEncoder vs JSONEncoder", "Encode", "FastJSONEncoder", "JSONEncoder", 3, "≥ 3×"),
    ("FastJSONEncoder vs XJSONEncoder", "Encode", "FastJSONEncoder", "XJSONEncoder", None, "> 1×"),
)
# The corpora of the UTF-8 share target (`Limit.<c>.UTF8String` p50 / `Decode.<c>.ObjectMapping`
# p50), its required share, and the canada decode rate.
UTF8_SHARE_CORPORA = ("twitter", "citm_catalog")
UTF8_SHARE = 0.35
CANADA_RATE = 300


def target_rows(results):
    """Yields (target, corpus, required, measured, met) for each target whose inputs exist."""
    corpora = sorted({parsed[1].split(".")[1] for parsed in map(split_name, results) if parsed})

    def wall(area, corpus, implementation):
        result = results.get(f"{area}.{corpus}.{implementation}")
        return result["wall_us"] if result and result["wall_us"] > 0 else None

    for target, area, fast, slow, required, required_text in RATIO_TARGETS:
        for corpus in corpora:
            fast_us, slow_us = wall(area, corpus, fast), wall(area, corpus, slow)
            if fast_us is None or slow_us is None:
                continue
            ratio = slow_us / fast_us
            met = ratio > 1 if required is None else ratio >= required
            yield target, corpus, required_text, f"{ratio:.2f}×", met
    for corpus in UTF8_SHARE_CORPORA:
        limit_us, decode_us = wall(LIMIT, corpus, "UTF8String"), wall("Decode", corpus, OURS)
        if limit_us is None or decode_us is None:
            continue
        share = limit_us / decode_us
        yield (
            "decode time vs one UTF-8 pass (UTF8String / decode)",
            corpus,
            f"≥ {UTF8_SHARE:.0%}",
            f"{share:.0%}",
            share >= UTF8_SHARE,
        )
        # The ceiling of that share: one UTF-8 pass against our scan alone (`Limit.<c>.Scan`,
        # the same verb with a mapping that maps nothing). Not a target: no `met`.
        scan_us = wall(LIMIT, corpus, "Scan")
        if scan_us is not None:
            yield (
                "its ceiling: scan alone vs one UTF-8 pass (UTF8String / Scan)",
                corpus,
                "–",
                f"{limit_us / scan_us:.0%}",
                None,
            )
    decode_us, size = wall("Decode", "canada", OURS), corpus_size("canada")
    if decode_us is not None and size is not None:
        rate = size / decode_us
        yield "decode MB/s", "canada", f"≥ {CANADA_RATE}", f"{rate:,.0f}", rate >= CANADA_RATE


def print_targets(results):
    rows = list(target_rows(results))
    if not rows:
        return
    print()
    print("Targets:")
    print()
    print("| target | corpus | required | measured | met |")
    print("|---|---|---:|---:|---|")
    for target, corpus, required, measured, met in rows:
        met_text = "–" if met is None else ("yes" if met else "no")
        print(f"| {target} | {corpus} | {required} | {measured} | {met_text} |")


def print_peak_memory(results):
    print("| benchmark | peak resident ours | peak resident Foundation |")
    print("|---|---:|---:|")
    for key, ours, foundation in pairs(results):
        print(f"| {key} | {megabytes_text(ours['peak'])} | {megabytes_text(foundation['peak'])} |")


def load_p90(folder):
    """Returns {name: result} from `<target>.<name>.p90.json` files (p90 values)."""
    results = {}
    for file_name in sorted(os.listdir(folder)):
        if not file_name.endswith(".p90.json"):
            continue
        name = file_name[: -len(".p90.json")].split(".", 1)[1]
        with open(os.path.join(folder, file_name), encoding="utf-8") as f:
            values = json.load(f)
        wall_ns = values.get("wallClock")
        if wall_ns is None:
            sys.exit(f"error: no wall-clock time for {name} in {file_name}")
        results[name] = {
            "wall_us": wall_ns / 1000,
            "mallocs": values.get("mallocCountTotal"),
            "peak": values.get("peakMemoryResident"),
            "p90": True,
        }
    return results


def scaling_rows(results):
    """Yields (count, result) for each `Scale.articles_<N>.ObjectMapping`, by N."""
    rows = []
    for name, result in results.items():
        parts = name.split(".")
        if len(parts) == 3 and parts[0] == SCALE and parts[1].startswith("articles_"):
            rows.append((int(parts[1][len("articles_"):]), result))
    return sorted(rows, key=lambda row: row[0])


def print_scaling(results):
    rows = scaling_rows(results)
    if not rows:
        return
    print()
    print(
        "| articles | payload | p50 (whole payload) | per article | vs first row "
        "| peak resident | peak / payload | mallocs |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    first = None
    for count, result in rows:
        size = articles_payload_size(count)
        per_article_ns = result["wall_us"] * 1000 / count
        first = first or per_article_ns
        peak = result["peak"]
        print(
            f"| {count:,} | {megabytes_text(size)} | {time_text(result['wall_us'])}"
            f"{' (p90)' if result.get('p90') else ''} "
            f"| {per_article_ns:,.0f} ns | {per_article_ns / first:.2f}× "
            f"| {megabytes_text(peak)} "
            f"| {'–' if peak is None else f'{peak / size:.1f}×'} "
            f"| {count_text(result['mallocs'])} |"
        )


USAGE = (
    "usage: table.py [--peak-memory] [--p90 <folder>] [--warm <results.jmh.json>] "
    "[--warm-p90 <folder>] <results.jmh.json>"
)


def take_option(arguments, name):
    """Removes `name <value>` from `arguments` and returns the value (None when absent)."""
    if name not in arguments:
        return None
    position = arguments.index(name)
    if position + 1 >= len(arguments):
        sys.exit(USAGE)
    value = arguments[position + 1]
    del arguments[position : position + 2]
    return value


def main():
    arguments = sys.argv[1:]
    peak_memory = "--peak-memory" in arguments
    arguments = [a for a in arguments if a != "--peak-memory"]
    p90_folder = take_option(arguments, "--p90")
    warm_json = take_option(arguments, "--warm")
    warm_p90_folder = take_option(arguments, "--warm-p90")
    if len(arguments) != 1:
        sys.exit(USAGE)
    results = load(arguments[0])
    if p90_folder:
        results.update(load_p90(p90_folder))
    if peak_memory:
        print_peak_memory(results)
        return
    print_comparison(results)
    print_peers(results)
    print_targets(results)
    print_scaling(results)
    if warm_json:
        warm = load(warm_json)
        if warm_p90_folder:
            warm.update(load_p90(warm_p90_folder))
        print()
        print("Scaling with a warm allocator (glibc keeps freed memory between iterations):")
        print_scaling(warm)


if __name__ == "__main__":
    main()
