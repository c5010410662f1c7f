#!/usr/bin/env bash
# Regenerates rules/graph-rules.mlir, the rule set that ships with
# mirage-opt, with the discovery's default options (docs/GraphRules.md).
# Deterministic: the same tool and seed give the same file.
#
#   rules/regenerate.sh [build-dir]        (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
opt="$build/bin/mirage-opt"
[ -x "$opt" ] || { echo "regenerate.sh: $opt not found (build mirage-opt first)" >&2; exit 1; }
echo "" | "$opt" - --discover-substitutions="output=$root/rules/graph-rules.mlir" -o /dev/null
echo "wrote $root/rules/graph-rules.mlir"
