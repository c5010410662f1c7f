#!/bin/sh
# Redraws the µGraph pictures of docs/MicroGraphs.md ("Pictures"): the
# µGraphs --superoptimize finds for sm_90 for the RMSNorm (b = 8), GatedMLP
# and LoRA benchmarks, written by --print-mugraph-dot as DOT
# (docs/images/<program>.dot) and drawn by Graphviz (docs/images/<program>.svg).
#
#   docs/images/render.sh [build-dir]     (default: build)
#
# Needs a built mirage-opt and Graphviz's dot (apt-get install graphviz).
# The search is deterministic and runs without its cache, so the .dot files
# change only when the search or the pass does; test/Docs/mugraph-pictures-
# current.test (a slow test) checks that they are current.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in
  /*) ;;
  *) build=$(cd "$build" 2>/dev/null && pwd || echo "$root/$build") ;;
esac
opt=$build/bin/mirage-opt

if [ ! -x "$opt" ]; then
  echo "render.sh: no mirage-opt at $opt (build it, or name the build directory)" >&2
  exit 1
fi
if ! command -v dot >/dev/null 2>&1; then
  echo "render.sh: Graphviz's dot is not on PATH (apt-get install graphviz)" >&2
  exit 1
fi

cd "$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for program in rmsnorm_b8 gated_mlp lora; do
  echo "render.sh: $program" >&2
  # The search's remarks are shown only if something fails.
  if ! "$opt" "bench/programs/$program.mlir" \
      --superoptimize="target=sm_90 cache=off" \
      --print-mugraph-dot="output=docs/images/$program.dot" -o /dev/null \
      2>"$log"; then
    cat "$log" >&2
    exit 1
  fi
  dot -Tsvg "docs/images/$program.dot" -o "docs/images/$program.svg"
done
