#!/usr/bin/env bash
# Prepares the GPU benchmark on this machine, which needs no GPU
# (bench/gpu/README.md): builds a self-contained mirage-gpu-run and
# mirage-timing-validation (static MLIR and LLVM, which the GPU machine does
# not have) and compiles every
# benchmark program with the default schedule and with the search, all into
# bench/gpu/stage/, the folder that bench/gpu/run.sh needs on the GPU
# machine.
#
# Usage: bench/gpu/prepare.sh [--skip-build] [--skip-programs] [--filter TEXT]
#   --skip-build     keep the staged mirage-gpu-run
#   --skip-programs  only build and stage the runner
#   --filter TEXT    only the programs whose file name contains TEXT
# Environment:
#   BUILD         the shared build holding bin/mirage-opt (default build)
#   STATIC_BUILD  the build folder of the static runner (default build-static)
#   JOBS          parallel compile jobs (default: the number of cores)
#   CHIP          the target (default sm_90, the H100)
#   SEARCH_THREADS  passed as threads=N to the search, when set
#   TIMEOUT       seconds allowed per mirage-opt run (default 3600)
#   SCHEDULES     which to compile (default "default searched")
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
STATIC_BUILD=${STATIC_BUILD:-build-static}
JOBS=${JOBS:-$(nproc)}
CHIP=${CHIP:-sm_90}
TIMEOUT=${TIMEOUT:-3600}
SCHEDULES=${SCHEDULES:-default searched}
STAGE=bench/gpu/stage
# The stage travels to the GPU machine with the repository, 64 MiB in all.
MAX_RUNNER_MB=40
MAX_STAGE_MB=56

skip_build=0 skip_programs=0 filter=""
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) skip_build=1 ;;
    --skip-programs) skip_programs=1 ;;
    --filter) filter=$2; shift ;;
    *) echo "usage: $0 [--skip-build] [--skip-programs] [--filter TEXT]" >&2; exit 1 ;;
  esac
  shift
done

mkdir -p "$STAGE"
# Results of an earlier run.sh without $OUT would travel back to the GPU.
rm -rf "$STAGE/results"

# --- The runner ------------------------------------------------------------
runner=$STAGE/mirage-gpu-run
if [ "$skip_build" = 0 ]; then
  echo "== building a static mirage-gpu-run in $STATIC_BUILD"
  cmake -G Ninja -S . -B "$STATIC_BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DMIRAGE_LINK_MLIR_DYLIB=OFF >/dev/null
  cmake --build "$STATIC_BUILD" --target mirage-gpu-run -j "$JOBS"
  strip -o "$runner" "$STATIC_BUILD/bin/mirage-gpu-run"
fi

size=$(stat -c %s "$runner")
echo "== $runner: $(awk "BEGIN { printf \"%.1f\", $size / 1048576 }") MiB (stripped)"
if [ "$size" -ge $(( MAX_RUNNER_MB * 1048576 )) ]; then
  echo "error: the runner is over the ${MAX_RUNNER_MB} MiB budget" >&2
  exit 1
fi
# Nothing from the LLVM installation may be needed at run time; the C and
# C++ runtimes are the GPU machine's own.
if ldd "$runner" | grep -Eq 'lib(LLVM|MLIR|z3|zstd)'; then
  echo "error: $runner still needs shared libraries the GPU machine lacks:" >&2
  ldd "$runner" >&2
  exit 1
fi
if command -v objdump >/dev/null; then
  echo "== it needs $(objdump -T "$runner" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 | tr _ ' ') or later"
fi
"$runner" --help >/dev/null
# The "no GPU" path, independent of whether this machine has one.
set +e
"$runner" test/Tools/mirage-gpu-run/Inputs/add.json \
  --cuda-library=/nonexistent/libcuda.so.1 2>/dev/null
status=$?
set -e
if [ "$status" != 2 ]; then
  echo "error: $runner without a driver exited with $status, not 2" >&2
  exit 1
fi
# The timing model's validation kernels (bench/timing), measured with CUDA
# events on the GPU: a static mirage-timing-validation beside the runner.
validator=$STAGE/mirage-timing-validation
if [ "$skip_build" = 0 ]; then
  echo "== building a static mirage-timing-validation in $STATIC_BUILD"
  cmake --build "$STATIC_BUILD" --target mirage-timing-validation -j "$JOBS"
  strip -o "$validator" "$STATIC_BUILD/bin/mirage-timing-validation"
fi
if ldd "$validator" | grep -Eq 'lib(LLVM|MLIR|z3|zstd)'; then
  echo "error: $validator still needs shared libraries the GPU machine lacks" >&2
  exit 1
fi
set +e
"$validator" --device=gpu --cuda-library=/nonexistent/libcuda.so.1 2>/dev/null
status=$?
set -e
if [ "$status" != 2 ]; then
  echo "error: $validator without a driver exited with $status, not 2" >&2
  exit 1
fi
# The runner's own smoke test, run first on the GPU machine.
mkdir -p "$STAGE/selftest"
cp test/Tools/mirage-gpu-run/Inputs/add.json test/Tools/mirage-gpu-run/Inputs/add.ptx \
  "$STAGE/selftest/"
"$runner" "$STAGE/selftest/add.json" --check-only >/dev/null

[ "$skip_programs" = 1 ] && exit 0

# --- The programs ------------------------------------------------------------
mirage_opt=$BUILD/bin/mirage-opt
if [ ! -x "$mirage_opt" ]; then
  echo "error: no $mirage_opt; build it first (cmake --build $BUILD --target mirage-opt)" >&2
  exit 1
fi
mkdir -p "$STAGE/logs"
# One row per program and schedule; rows of programs not compiled this time
# (--filter, SCHEDULES) are kept.
status_file=$STAGE/status.tsv
new_rows=$(mktemp)
trap 'rm -f "$new_rows"' EXIT

for program in bench/programs/*.mlir; do
  name=$(basename "$program" .mlir)
  case "$name" in *"$filter"*) ;; *) continue ;; esac
  for schedule in $SCHEDULES; do
    prefix=$STAGE/$name.$schedule
    options="target=$CHIP output=$prefix"
    if [ "$schedule" = searched ]; then
      options="$options search=true${SEARCH_THREADS:+ threads=$SEARCH_THREADS}"
    fi
    rm -f "$prefix.json" "$prefix.ptx" "$prefix.cubin"
    log=$STAGE/logs/$name.$schedule.log
    echo "== $name ($schedule): mirage-opt --mirage-to-ptx=\"$options\""
    start=$(date +%s)
    set +e
    timeout "$TIMEOUT" "$mirage_opt" "$program" --mirage-to-ptx="$options" \
      -o /dev/null >"$log" 2>&1
    rc=$?
    set -e
    seconds=$(( $(date +%s) - start ))
    if [ "$rc" = 124 ]; then
      result="timeout after ${TIMEOUT}s"
    elif [ "$rc" != 0 ]; then
      result="mirage-opt failed (exit $rc): $(grep -m1 'error' "$log" | cut -c1-160 || true)"
    elif [ ! -f "$prefix.json" ]; then
      result="no manifest written"
    elif ! "$runner" "$prefix.json" --check-only >>"$log" 2>&1; then
      result="invalid manifest: $(grep -m1 'error' "$log" | cut -c1-160 || true)"
    else
      result=ok
    fi
    echo "   $result (${seconds}s)"
    printf '%s\t%s\t%s\t%s\n' "$name" "$schedule" "$result" "$seconds" >>"$new_rows"
  done
done
{
  printf 'program\tschedule\tstatus\tseconds\n'
  {
    if [ -f "$status_file" ]; then
      tail -n +2 "$status_file" |
        awk -F '\t' 'NR == FNR { redone[$1 FS $2] = 1; next }
                     !(($1 FS $2) in redone)' "$new_rows" -
    fi
    cat "$new_rows"
  } | sort
} >"$status_file.new"
mv "$status_file.new" "$status_file"

stage_mb=$(( $(du -sk "$STAGE" | cut -f1) / 1024 ))
echo "== $STAGE: ${stage_mb} MiB"
if [ "$stage_mb" -ge "$MAX_STAGE_MB" ]; then
  echo "warning: the stage is ${stage_mb} MiB; with the repository it must stay under 64 MiB" >&2
fi
column -t -s "$(printf '\t')" "$status_file" 2>/dev/null || cat "$status_file"
