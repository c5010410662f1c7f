#!/bin/sh
# Graph substitution benchmarks (docs/Benchmarks.md, "Graph substitutions"):
#   bench/run-graph-rules-bench.sh [build-dir] discovery [--max-ops N] [--threads N]
#   bench/run-graph-rules-bench.sh [build-dir] search [--budget N] [files...]
# discovery: count and time of every stage of --discover-substitutions;
# search: --graph-optimize on bench/models and bench/programs.
set -e
here=$(dirname "$0")
build=build
case "$1" in discovery|search|"") ;; *) build=$1; shift ;; esac
cmake --build "$build" --target mirage-opt >/dev/null
exec python3 "$here/run-graph-rules-bench.py" --build "$build" "$@"
