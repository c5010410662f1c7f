#!/bin/sh
# The µGraph search benchmark (docs/Search.md): one table row per program.
# Usage: bench/run-search-bench.sh [build-dir] [extra args of run-search-bench.py]
set -e
here=$(dirname "$0")
build=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$build" --target mirage-opt >/dev/null
exec python3 "$here/run-search-bench.py" --build "$build" "$@"
