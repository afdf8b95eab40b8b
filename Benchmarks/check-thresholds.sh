#!/usr/bin/env bash
# Runs the main scenarios against Tether (release build) and checks their allocation counts
# against thresholds.tsv. `--update` rewrites the thresholds from this run instead.
set -euo pipefail
cd "$(dirname "$0")"

# See run.sh: a change to Tether's @inlinable code must rebuild the scenarios.
find Benchmarks -name '*.swift' -exec touch {} +
rm -f .build/release.yaml .build/release/description.json
results=.build/thresholds
rm -rf "$results"
mkdir -p "$results"
# Every scenario of thresholds.tsv, as one regular expression.
filter="$(grep -v '^#' thresholds.tsv | cut -f1 | python3 -c 'import re, sys; print("|".join(re.escape(line.strip()) for line in sys.stdin if line.strip()))')"
swift package --allow-writing-to-package-directory benchmark --target TetherBench \
    --filter "$filter" --format histogramSamples --path "$results" --no-progress >"$results/benchmark.log" 2>&1 \
    || { cat "$results/benchmark.log" >&2; exit 1; }
python3 check-thresholds.py "$results" "$@"
