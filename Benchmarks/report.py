#!/usr/bin/env python3
"""Builds the comparison table from a benchmark run.

Reads the per-iteration samples that `swift package benchmark --format histogramSamples` wrote
into DIR, or into each run's folder under DIR (one file per target, benchmark and metric), and
the memory probes' lines in DIR/memory.tsv, and prints a Markdown table: medians per operation
for Tether, OpenCombine and the raw loop (with several runs, the median of the runs' medians),
the ratios, and whether each target is met.
"""

import re
import statistics
import sys
from pathlib import Path

# Scenarios in the order of the table; the flags say which targets apply to each.
# per_element: a synchronous per-element path (compared with the raw loop, must not allocate).
# operator: an operator chain, compared with OpenCombine only; setup: making and cancelling a chain.
# async: an async/await bridge, shown against the raw AsyncStream / AsyncSequence loop (a task hop
# per element is inherent there, so no raw-ratio target) and OpenCombine where it has the bridge.
# beyond: Tether's own operators, which no peer has: figures only.
SCENARIOS = [
    ("Sequence.map.filter.sink", "per_element"),
    ("Sequence, subscriber returns .max(1)", "per_element"),
    ("Sequence, subscriber calls request(.max(1))", "per_element"),
    ("PassthroughSubject.send, 1 sink", "per_element"),
    ("PassthroughSubject.send, 10 sinks", "per_element"),
    ("CurrentValueSubject.map.sink send", "per_element"),
    ("Just.map.sink create+cancel", "setup"),
    ("PassthroughSubject.sink subscribe+cancel", "subscribe_cancel"),
    ("Rx PublishSubjectPumping", "per_element"),
    ("Rx PublishSubjectPumpingTwoSubscriptions", "per_element"),
    ("Rx PublishSubjectCreating", "setup"),
    ("Rx MapFilterPumping", "per_element"),
    ("Rx MapFilterCreating", "setup"),
    ("Rx FlatMapsPumping", "operator"),
    ("Rx FlatMapsCreating", "setup"),
    ("Rx FlatMapLatestPumping", "operator"),
    ("Rx FlatMapLatestCreating", "setup"),
    ("Rx CombineLatestPumping", "operator"),
    ("Rx CombineLatestCreating", "setup"),
    ("merge of two subjects, send", "operator"),
    ("zip of two subjects, send pair", "operator"),
    ("PassthroughSubject.buffer, 4 sends then request(.max(4)), per value", "operator"),
    ("Sequence.scan.removeDuplicates.sink", "operator"),
    ("receive(on: ImmediateScheduler), send", "operator"),
    ("receive(on: DispatchQueue), 1000 values", "operator"),
    ("debounce on a virtual-time scheduler", "operator"),
    ("delay on a virtual-time scheduler", "operator"),
    ("for await over .values, 100k elements", "async"),
    ("AsyncSequence.publisher, 100k elements", "async"),
    ("asyncMap(maxConcurrent: 1), 1000 values", "async"),
    ("asyncMap(maxConcurrent: 4), 1000 values", "async"),
    ("App: subject, 12 stages, erased, send", "app"),
    ("App: subject, 1 stage, erased, send", "app"),
    ("App: subject, 12 stages, not erased, send", "app"),
    ("App: subject, 12 stages each erased, send", "app"),
    ("App: Sequence, 12 stages, erased, per element", "app"),
    ("App: zip of two erased subjects, send pair", "app"),
    ("App: erased subject, map, share(), 3 sinks, send", "app"),
    ("App: erased subject, flatMap to erased Just, send", "app"),
    ("App: erased subject, flatMap to a Future, send", "app"),
    ("App: erased subject, flatMap to an erased Deferred Future fulfilled later, send", "app"),
    ("App: erased subject, flatMap to an erased lookup's first(), send", "app"),
    ("App: erased subject, flatMap to an erased failable lookup's catch, send", "app"),
    ("App: ids, flatMap(maxPublishers: .max(1)) to erased Futures, per id", "app"),
    ("App: erased subject, map to erased Just, switchToLatest, send", "app"),
    ("App: merge of two erased subjects, map, send", "app"),
    ("App: erased subject, prepend(cached), erased, send", "app"),
    ("App: for await over an erased sequence's removeDuplicates.filter .values, 100k elements", "app"),
    ("App: erased subject, map, assign(to:on:), send", "app"),
    ("App: erased throwing subject, tryMap, mapError, replaceError, send", "app"),
    ("App: erased throwing subject, tryCompactMap, tryFilter, replaceError, send", "app"),
    ("App: NotificationCenter publisher, map, filter, sink, post", "app"),
    ("App: 12 erased stages, subscribe+cancel in a Set", "app"),
    ("App: @Published.map.removeDuplicates, erased, set", "app"),
    ("App: @Published.map.removeDuplicates.assign(to: &$property), set", "app"),
    ("App: @Published property, sink, set", "app"),
    ("App: @Published struct, 2 views map(keyPath).removeDuplicates, set", "app"),
    ("App: erased subject, sink, send", "app"),
    ("App: ObservableObject, objectWillChange and $property sinks, set", "app"),
    ("App: ObservableObject made, both sinks, set, released", "app"),
    ("App: 7 erased combineLatest levels, send", "app"),
    ("App: 1 erased combineLatest level, send", "app"),
    ("5x flatMapLatest { Just }, per element", "beyond"),
    ("5x concatMap { Just }, per element", "beyond"),
    ("5x flatMapFirst { Just }, per element", "beyond"),
    ("withLatestFrom of two subjects, send", "beyond"),
    ("ReplaySubject(bufferSize: 16).send, 1 sink", "beyond"),
    ("amb of two subjects, winner's send", "beyond"),
    ("[8 subjects].combineLatest(), send", "beyond"),
    ("Sequence.withUnretained.sink", "beyond"),
    ("Sequence.materialize.dematerialize.sink", "beyond"),
]

SPEEDUP_TARGET = 5.0  # every scenario at least this much faster than OpenCombine
RAW_TARGET = 4.0  # per-element paths within this factor of the raw loop
SUBSCRIBE_CANCEL_ALLOCS = 3  # allocations to subscribe and cancel subject.sink
BYTES_TARGET = 170  # bytes per live subject.sink subscription

FILE = re.compile(
    r"^[^.]+\.(?P<target>TetherBench|OpenCombineBench|RawBench)\.(?P<name>.+)_\(ops:_(?P<ops>\d+)\)"
    r"\.(?P<metric>wallClock|mallocCountTotal)\.histogram\.samples\.tsv$"
)


def load(directory):
    """{(target, name): {"ops": n, "wallClock": [...], "mallocCountTotal": [...]}}, each list
    holding one median per run (this shared machine is slower by up to 1.7x for whole seconds at
    a time, so one run's median can land in a slow spell; the median of several runs does not)."""
    results = {}
    for path in sorted(Path(directory).glob("**/*.histogram.samples.tsv")):
        match = FILE.match(path.name)
        if not match:
            continue
        name = match["name"].replace("_", " ")
        entry = results.setdefault((match["target"], name), {"ops": int(match["ops"])})
        samples = [int(line) for line in path.read_text().splitlines()[1:] if line.strip()]
        if samples:
            entry.setdefault(match["metric"], []).append(statistics.median(samples))
    return results


def median_per_op(entry, metric):
    if entry is None or not entry.get(metric):
        return None
    return statistics.median(entry[metric]) / entry["ops"]


def fmt_ns(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def fmt_ratio(value):
    return "—" if value is None else f"{value:.2f}x"


def fmt_allocs(entry):
    """Allocations per operation; a run that allocates only while subscribing shows that count."""
    if entry is None or not entry.get("mallocCountTotal"):
        return "—"
    per_iteration = statistics.median(entry["mallocCountTotal"])
    per_op = per_iteration / entry["ops"]
    if per_iteration and per_op < 0.01:
        return f"0 ({per_iteration:g}/run)"
    return f"{per_op:.2f}".rstrip("0").rstrip(".") if per_op else "0"


def yes_no(ok):
    return "yes" if ok else "**no**"


def app_ratios(results):
    """Prints how erasure and depth scale in the application-shaped scenarios; returns misses."""
    def tether(name):
        return median_per_op(results.get(("TetherBench", name)), "wallClock")

    checks = [
        ("12 erased stages / 12 stages not erased", "App: subject, 12 stages, erased, send",
         "App: subject, 12 stages, not erased, send", 2.0),
        ("12 stages each erased / 12 stages not erased", "App: subject, 12 stages each erased, send",
         "App: subject, 12 stages, not erased, send", 2.0),
        ("12 erased stages / 1 erased stage", "App: subject, 12 stages, erased, send",
         "App: subject, 1 stage, erased, send", 13.0),
        ("7 erased combineLatest levels / 1 level", "App: 7 erased combineLatest levels, send",
         "App: 1 erased combineLatest level, send", 8.0),
    ]
    rows = [(label, tether(a), tether(b), limit) for label, a, b, limit in checks]
    if not any(a and b for _, a, b, _ in rows):
        return 0
    print()
    print("| Application shapes, Tether | Ratio | Target met |")
    print("|---|---:|---|")
    misses = 0
    for label, a, b, limit in rows:
        if not (a and b):
            continue
        met = f"≤{limit:g}x: {yes_no(a / b <= limit)}"
        misses += "**no**" in met
        print(f"| {label} | {a / b:.2f}x | {met} |")
    return misses


def contention_table(directory):
    """Prints the contention probes' figures (median over runs); returns the targets missed."""
    path = Path(directory) / "contention.tsv"
    if not path.exists():
        return 0
    figures = {}
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if len(fields) == 5 and fields[0] == "contention":
            figures.setdefault((fields[2], fields[3]), {}).setdefault(fields[1], []).append(float(fields[4]))
    print()
    print("| Contention (median of runs) | Tether | OC | OC / Tether | Target met |")
    print("|---|---:|---:|---:|---|")
    misses = 0
    for (scenario, metric), libraries in figures.items():
        if metric == "delivered":
            continue
        tether = statistics.median(libraries["Tether"]) if "Tether" in libraries else None
        opencombine = statistics.median(libraries["OpenCombine"]) if "OpenCombine" in libraries else None
        ratio = opencombine / tether if tether and opencombine else None
        met = ""
        if metric == "seconds" and not scenario.startswith("pipeline") and tether and opencombine:
            met = f"as fast as OC: {yes_no(tether <= opencombine)}"
        elif metric == "longest send ms" and "5 µs" in scenario and tether and opencombine:
            met = f"within 2x OC: {yes_no(tether <= 2 * opencombine)}"
        elif metric == "RSS growth MB" and tether is not None:
            met = f"≤8 MB: {yes_no(tether <= 8)}"
        misses += "**no**" in met
        t_text = f"{tether:.3f}" if tether is not None else "—"
        o_text = f"{opencombine:.3f}" if opencombine is not None else "—"
        print(f"| {scenario}, {metric} | {t_text} | {o_text} | {fmt_ratio(ratio)} | {met} |")
    pipelines = sorted(
        (int(scenario.split()[1]), statistics.median(libraries["Tether"]))
        for (scenario, metric), libraries in figures.items()
        if scenario.startswith("pipeline") and metric == "seconds" and "Tether" in libraries)
    if len(pipelines) == 2:
        (small, small_s), (large, large_s) = pipelines
        linear = large_s <= 5 * small_s * (large / small) / 4
        misses += not linear
        print(f"| pipeline, {large // small}x the values | {large_s / small_s:.2f}x the time | | "
              f"| linear (≤{5 * large // small // 4}x): {yes_no(linear)} |")
    return misses


def main(directory):
    results = load(directory)
    # A scenario measured but not listed would silently drop out of the table.
    unlisted = sorted({name for (_, name) in results} - {name for name, _ in SCENARIOS})
    if unlisted:
        sys.exit("report.py: measured but not in SCENARIOS: " + "; ".join(unlisted))
    memory = {}
    memory_file = Path(directory) / "memory.tsv"
    if memory_file.exists():
        for line in memory_file.read_text().splitlines():
            fields = line.split("\t")
            if len(fields) >= 3 and fields[0] == "memory":
                memory[fields[1]] = float(fields[2])

    runs = max((len(entry.get("wallClock", [])) for entry in results.values()), default=0)
    print(f"Medians per operation (the median of {runs} runs' medians); ns = wall-clock "
          "nanoseconds, allocs = mallocCountTotal." if runs > 1 else
          "Medians per operation; ns = wall-clock nanoseconds, allocs = mallocCountTotal.")
    print("OC = OpenCombine 0.14.0; raw = a plain Swift loop calling the same closures.")
    print()
    print("| Scenario | Tether ns | OC ns | raw ns | OC / Tether | Tether / raw "
          "| Tether allocs | OC allocs | Targets met |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    misses = 0
    for name, kind in SCENARIOS:
        tether = results.get(("TetherBench", name))
        opencombine = results.get(("OpenCombineBench", name))
        raw = results.get(("RawBench", name))
        if tether is None and opencombine is None:
            continue
        t_ns = median_per_op(tether, "wallClock")
        o_ns = median_per_op(opencombine, "wallClock")
        r_ns = median_per_op(raw, "wallClock")
        speedup = o_ns / t_ns if t_ns and o_ns else None
        over_raw = t_ns / r_ns if t_ns and r_ns else None

        checks = []
        if speedup is not None:
            checks.append(f"≥{SPEEDUP_TARGET:g}x OC: {yes_no(speedup >= SPEEDUP_TARGET)}")
        if kind == "per_element" and over_raw is not None:
            checks.append(f"≤{RAW_TARGET:g}x raw: {yes_no(over_raw <= RAW_TARGET)}")
        if kind == "per_element" and tether and tether.get("mallocCountTotal"):
            per_iteration = statistics.median(tether["mallocCountTotal"])
            # Allocations made while subscribing do not grow with the element count; a run that
            # allocates for even one element in twenty is allocating per element.
            checks.append(f"0 allocs/element: {yes_no(per_iteration < tether['ops'] / 20)}")
        if kind == "subscribe_cancel" and tether and tether.get("mallocCountTotal"):
            allocs = statistics.median(tether["mallocCountTotal"]) / tether["ops"]
            # The harness itself adds about 0.01 allocations per operation (see OpenCombine's 11.01).
            checks.append(f"≤{SUBSCRIBE_CANCEL_ALLOCS} allocs: {yes_no(allocs <= SUBSCRIBE_CANCEL_ALLOCS + 0.05)}")
        if tether is None:
            checks.append("not in Tether yet")
        if opencombine is None and tether is not None:
            checks.append("Tether only" if kind == "beyond" else "OpenCombine has no such operator")
        misses += sum("**no**" in check for check in checks)
        print(f"| {name} | {fmt_ns(t_ns)} | {fmt_ns(o_ns)} | {fmt_ns(r_ns)} | {fmt_ratio(speedup)} "
              f"| {fmt_ratio(over_raw)} | {fmt_allocs(tether)} | {fmt_allocs(opencombine)} "
              f"| {'; '.join(checks)} |")

    if memory:
        print()
        print("| Memory | Tether | OC | OC / Tether | Target met |")
        print("|---|---:|---:|---:|---|")
        t_bytes, o_bytes = memory.get("Tether"), memory.get("OpenCombine")
        ratio = o_bytes / t_bytes if t_bytes and o_bytes else None
        met = f"≤{BYTES_TARGET} B: {yes_no(t_bytes is not None and t_bytes <= BYTES_TARGET)}"
        misses += "**no**" in met
        print(f"| bytes per live subject.sink | {t_bytes:.1f} | {o_bytes:.1f} | {fmt_ratio(ratio)} | {met} |")

    misses += app_ratios(results)
    misses += contention_table(directory)

    print()
    print(f"Targets missed: {misses}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".build/results")
