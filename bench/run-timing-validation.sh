#!/bin/sh
# The timing model against published hardware figures (docs/TimingModel.md,
# "Validation"): builds mirage-timing-validation and prints the table.
#   bench/run-timing-validation.sh [build] [--chips=sm_80] [--quick] [--json=F]
set -e
BUILD=${1:-build}
[ $# -gt 0 ] && shift
cmake --build "$BUILD" --target mirage-timing-validation >/dev/null
exec "$BUILD/bin/mirage-timing-validation" "$@"
