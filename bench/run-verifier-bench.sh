#!/usr/bin/env bash
# Builds mirage-verifier-bench and runs it on one core, printing Markdown
# tables (docs/Benchmarks.md, "Verifier and interpreter").
#
#   bench/run-verifier-bench.sh [--reps N] [--filter NAME] [DIR]
#
# BUILD names the build directory (default: build, configured already, e.g.
# by scripts/setup.sh). Arguments are passed to the tool; --help lists them.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD:-build}"

cmake --build "$build" --target mirage-verifier-bench >&2

# The tool is single-threaded; pin it to one core where taskset exists so
# the scheduler does not migrate it mid-measurement.
pin=()
if command -v taskset >/dev/null 2>&1; then
  pin=(taskset -c 0)
fi
exec "${pin[@]}" "$build/bin/mirage-verifier-bench" "$@"
