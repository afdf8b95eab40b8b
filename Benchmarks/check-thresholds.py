#!/usr/bin/env python3
"""Checks Tether's allocation counts against the thresholds checked in beside this script.

Usage: check-thresholds.py RESULTS_DIR [--update]

RESULTS_DIR holds the samples `swift package benchmark --format histogramSamples` wrote for the
TetherBench target. thresholds.tsv lists, per scenario, the most allocations one operation may
make. Allocation counts do not depend on the machine's speed or load, so they are checked
exactly (a scenario whose count only rounds differently passes); time is not checked here. With
--update, thresholds.tsv is rewritten from the run.
"""

import sys
from pathlib import Path

import report

THRESHOLDS = Path(__file__).with_name("thresholds.tsv")
HEADER = "# scenario\tmost allocations per operation (TetherBench, mallocCountTotal / ops)\n"


def measured(directory):
    results = report.load(directory)
    allocs = {}
    for (target, name), entry in results.items():
        if target == "TetherBench":
            per_op = report.median_per_op(entry, "mallocCountTotal")
            if per_op is not None:
                allocs[name] = per_op
    return allocs


def main(directory, update):
    allocs = measured(directory)
    if not allocs:
        print(f"no TetherBench samples in {directory}", file=sys.stderr)
        return 2
    if update:
        lines = [f"{name}\t{round(value + 0.005, 2):g}\n" for name, value in sorted(allocs.items())]
        THRESHOLDS.write_text(HEADER + "".join(lines))
        print(f"wrote {len(lines)} thresholds to {THRESHOLDS.name}")
        return 0
    failures, checked = [], 0
    for line in THRESHOLDS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, limit = line.rsplit("\t", 1)
        value = allocs.get(name)
        if value is None:
            failures.append(f"{name}: not measured")
            continue
        checked += 1
        if value > float(limit) + 0.005:
            failures.append(f"{name}: {value:.3f} allocations per operation, threshold {limit}")
    for failure in failures:
        print(f"threshold exceeded: {failure}", file=sys.stderr)
    print(f"{checked - len([f for f in failures if 'not measured' not in f])} of {checked} "
          "scenarios within their allocation thresholds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--update" in sys.argv[2:]))
