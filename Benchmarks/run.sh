#!/usr/bin/env bash
# Runs every scenario against Tether, OpenCombine and the raw loop (release builds), then the
# memory probes, and prints the comparison table. Extra arguments go to the benchmark plugin,
# e.g. `./run.sh --filter 'Rx.*'`.
set -euo pipefail
cd "$(dirname "$0")"

results=.build/results
rm -rf "$results"
mkdir -p "$results"

# SwiftPM does not recompile a client's files when only the `@inlinable` bodies of a path
# dependency change, so benchmarks built before a change to Tether would keep running (and
# measuring) the old specialised code. Touching the scenario files makes every run build afresh.
find Benchmarks Probes -name '*.swift' -exec touch {} +
# Nor does it see a source file added to Tether while the cached build description lasts.
rm -f .build/release.yaml .build/release/description.json

echo "== Building the memory probes (release)" >&2
swift build -c release --product MemoryTether >&2
swift build -c release --product MemoryOpenCombine >&2
bin=$(swift build -c release --show-bin-path)
"$bin/MemoryTether" 10000 >>"$results/memory.tsv"
"$bin/MemoryOpenCombine" 10000 >>"$results/memory.tsv"

# Contention: several threads at one subject, @Published, and a bounded pipeline. Each library's
# probe runs BENCHMARK_RUNS times, interleaved, and the table takes each figure's median.
echo "== Building the contention probes (release)" >&2
swift build -c release --product ContentionTether >&2
swift build -c release --product ContentionOpenCombine >&2
for run in $(seq 1 "${BENCHMARK_RUNS:-3}"); do
    echo "== Contention probes, run $run" >&2
    "$bin/ContentionTether" "${CONTENTION_SCALE:-1}" >>"$results/contention.tsv"
    "$bin/ContentionOpenCombine" "${CONTENTION_SCALE:-1}" >>"$results/contention.tsv"
done

# This machine is shared: for whole seconds at a time everything runs up to 1.7x slower, so one
# run's median for a scenario can land in such a spell. The table takes the median of several
# runs' medians (BENCHMARK_RUNS, 3 by default).
runs="${BENCHMARK_RUNS:-3}"
for run in $(seq 1 "$runs"); do
    echo "== Running the benchmarks, run $run of $runs (the plugin builds them in release)" >&2
    mkdir -p "$results/run$run"
    swift package --allow-writing-to-package-directory benchmark \
        --format histogramSamples --path "$results/run$run" --no-progress "$@" >"$results/benchmark.log" 2>&1 \
        || { cat "$results/benchmark.log" >&2; exit 1; }
done

{
    echo "Host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
    echo "$(swift --version 2>/dev/null | head -1)"
    echo
} >"$results/table.md"
python3 report.py "$results" >>"$results/table.md"
cat "$results/table.md"
