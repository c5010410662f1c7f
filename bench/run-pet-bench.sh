#!/bin/sh
# PET benchmark (docs/PartialEquivalence.md): --partial-equivalence-optimize
# on each program of bench/pet-programs, one table.
#   bench/run-pet-bench.sh [build-dir] [files...]
set -e
here=$(dirname "$0")
build=build
if [ -n "$1" ] && [ -d "$1" ]; then build=$1; shift; fi
cmake --build "$build" --target mirage-opt >/dev/null
exec python3 "$here/run-pet-bench.py" --build "$build" "$@"
