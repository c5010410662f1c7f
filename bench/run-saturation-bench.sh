#!/bin/sh
# Equality saturation beside the backtracking search (docs/EqualitySaturation.md):
# one table row per model and program.
# Usage: bench/run-saturation-bench.sh [build-dir] [extra args of run-saturation-bench.py]
set -e
here=$(dirname "$0")
build=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$build" --target mirage-opt >/dev/null
exec python3 "$here/run-saturation-bench.py" --build "$build" "$@"
