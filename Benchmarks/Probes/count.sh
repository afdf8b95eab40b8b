#!/usr/bin/env bash
# Instructions and atomic read-modify-writes per operation of the profiling loop's scenarios
# (Probes/ProfileTether/main.swift), counted by callgrind: each scenario runs at 2,000 and 4,000
# operations and the difference is divided by 2,000, so setup and teardown cancel out.
#
#   Benchmarks/Probes/count.sh                       # every scenario
#   Benchmarks/Probes/count.sh just-map-sink ...     # the scenarios named
#   Benchmarks/Probes/count.sh --by-function NAME    # one scenario, its atomics by function
#
# Needs valgrind (`apt-get install valgrind`) and objdump (binutils). Builds the probe in release.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in valgrind objdump python3; do
    command -v "$tool" >/dev/null || { echo "count.sh needs $tool (apt-get install valgrind binutils)" >&2; exit 1; }
done

detail=0
if [ "${1:-}" = "--by-function" ]; then
    detail=1
    shift
fi

# An incremental build does not always recompile a client after an `@inlinable` body changes
# (see run.sh): the probe's own file is touched and the build plan dropped, as run.sh does.
touch Probes/ProfileTether/main.swift
rm -f .build/release.yaml .build/release/description.json
swift build -c release --product ProfileTether >&2
bin="$(swift build -c release --show-bin-path)/ProfileTether"

scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    mapfile -t scenarios < <("$bin" list 0 2>/dev/null | sed -n 's/^  //p')
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-28s %14s %14s\n' scenario instructions atomics
for scenario in "${scenarios[@]}"; do
    for n in 2000 4000; do
        valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out/$scenario.$n" \
            "$bin" "$scenario" "$n" >/dev/null 2>&1
    done
    args=("$out/$scenario.2000" "$out/$scenario.4000" 2000 "$scenario")
    [ "$detail" = 1 ] && args+=(--by-function)
    python3 Probes/callgrind_count.py "${args[@]}"
done
