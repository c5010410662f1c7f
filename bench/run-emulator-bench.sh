#!/bin/sh
# The PTX emulator benchmark (docs/GpuEmulator.md, "Speed"): every benchmark
# program at full size, default and searched, sm_80 and sm_90, on the
# emulator; then the single-core throughput.
# Usage: bench/run-emulator-bench.sh [build-dir] [extra args of run-emulator-bench.py]
set -e
here=$(dirname "$0")
build=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$build" --target mirage-opt mirage-gpu-run >/dev/null
exec python3 "$here/run-emulator-bench.py" --build "$build" "$@"
