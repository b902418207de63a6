#!/usr/bin/env bash
# Measures how often the race clauses catch the racy flawed promises: RUNS fresh runs of each flaw's race clause
# (default 100), first on the machine as it is, then beside BUSY_LOOPS busy loops (default 3, made as .ci/under-load
# makes them). Extra arguments go to race-calibration, e.g. `--stress`, `--windows 0,16,256` or
# `--flaws splitResolution`. The figures and how they were taken: Benchmarks/NOTES.md, "Race calibration".
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product race-calibration
calibration="$(swift build --show-bin-path)/race-calibration"
runs="${RUNS:-100}"

echo "== quiet (nothing started beside it)"
"$calibration" --runs "$runs" "$@"

loops=()
stop() { [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}" 2>/dev/null || true; }
trap stop EXIT
for _ in $(seq 1 "${BUSY_LOOPS:-3}"); do
    sh -c 'while :; do :; done' &
    loops+=($!)
done
echo "== beside ${#loops[@]} busy loops"
"$calibration" --runs "$runs" "$@"
