#!/bin/sh
# The importer benchmark (docs/Benchmarks.md, "Importers"): import time of
# each model at full size on one core, and torch.nn.Module -> PTX for the
# Llama-style layer. Needs scripts/setup.sh's .venv.
# Usage: bench/run-import-bench.sh [build-dir] [extra args of run-import-bench.py]
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$build" --target mirage-python-package >/dev/null
exec taskset -c 0 "$here/../.venv/bin/python" "$here/run-import-bench.py" "$@"
