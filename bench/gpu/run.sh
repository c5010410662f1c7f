#!/usr/bin/env bash
# Runs the GPU benchmark on the GPU machine, from the repository root, with
# bench/gpu/stage made by bench/gpu/prepare.sh (bench/gpu/README.md): every
# staged program through mirage-gpu-run (correctness against fp64, time of
# plain launches and of a CUDA graph), the PyTorch baselines and roofline
# floors (torch_baselines.py), and one markdown table (report.py), printed
# and, when $OUT is set, written to $OUT/gpu-bench.md. Then the timing
# model's validation kernels (mirage-timing-validation --device=gpu): their
# measured table ($RESULTS/validation.md) and the calibration file the
# timing model reads ($RESULTS/timing-calibration.json, for
# mirage-gpu-run --timing-calibration).
#
# Usage: bench/gpu/run.sh [--filter TEXT] [--skip-ours] [--skip-torch]
#                         [--no-compile] [--skip-validation]
#   --filter TEXT   only the programs whose name contains TEXT
#   --skip-ours     no mirage-gpu-run runs (e.g. when split over calls)
#   --skip-torch    no PyTorch baselines
#   --no-compile    PyTorch eager only, no torch.compile
#   --skip-validation  no timing-model validation kernels
# Environment: WARMUP (default 10), ITERS (default 100), RESULTS (where the
# raw results go; default $OUT/gpu-bench-results, else
# bench/gpu/stage/results).
set -uo pipefail
cd "$(dirname "$0")/../.."

STAGE=bench/gpu/stage
RUNNER=$STAGE/mirage-gpu-run
WARMUP=${WARMUP:-10}
ITERS=${ITERS:-100}
if [ -n "${OUT:-}" ]; then
  RESULTS=${RESULTS:-$OUT/gpu-bench-results}
else
  RESULTS=${RESULTS:-$STAGE/results}
fi

filter="" skip_ours=0 skip_torch=0 skip_validation=0 compile_flag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) filter=$2; shift ;;
    --skip-ours) skip_ours=1 ;;
    --skip-torch) skip_torch=1 ;;
    --no-compile) compile_flag=--no-compile ;;
    --skip-validation) skip_validation=1 ;;
    *) echo "usage: $0 [--filter TEXT] [--skip-ours] [--skip-torch] [--no-compile] [--skip-validation]" >&2
       exit 1 ;;
  esac
  shift
done

if [ ! -f "$RUNNER" ]; then
  echo "error: no $RUNNER: run bench/gpu/prepare.sh first, and carry bench/gpu/stage" >&2
  exit 1
fi
[ -x "$RUNNER" ] || chmod +x "$RUNNER"
mkdir -p "$RESULTS"

echo "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
echo "== results in $RESULTS"

# Runs the runner on one manifest; the JSON, the readable report (stderr)
# and the exit status go to $RESULTS/<key>.{json,log,rc}.
run_runner() {
  local key=$1 manifest=$2
  shift 2
  "$RUNNER" "$manifest" --json --cuda-graph "$@" \
    >"$RESULTS/$key.json" 2>"$RESULTS/$key.log"
  local rc=$?
  echo "$rc" >"$RESULTS/$key.rc"
  # The line that says pass or fail, or the error.
  printf '   %-22s exit %s: %s\n' "$key" "$rc" \
    "$(grep -E '^(PASS|FAIL)|error' "$RESULTS/$key.log" | tail -1)"
  return 0
}

if [ "$skip_ours" = 0 ]; then
  # The runner on its own hand-written program first: if this fails, the
  # runner (or the machine) is at fault, not the compiler.
  echo "== mirage-gpu-run self-test"
  run_runner selftest "$STAGE/selftest/add.json" --warmup 2 --iters 10
  echo "== mirage-gpu-run (warm-up $WARMUP, $ITERS timed runs)"
  for program in bench/programs/*.mlir; do
    name=$(basename "$program" .mlir)
    case "$name" in *"$filter"*) ;; *) continue ;; esac
    for schedule in default searched; do
      manifest=$STAGE/$name.$schedule.json
      if [ -f "$manifest" ]; then
        run_runner "$name.$schedule" "$manifest" --warmup "$WARMUP" --iters "$ITERS"
      else
        echo "   $name.$schedule: no manifest (see $STAGE/status.tsv)"
      fi
    done
  done
fi

if [ "$skip_torch" = 0 ]; then
  echo "== PyTorch baselines"
  python3 bench/gpu/torch_baselines.py --filter "$filter" --warmup "$WARMUP" \
    --iters "$ITERS" $compile_flag --json-out "$RESULTS/torch.json" \
    >/dev/null 2>"$RESULTS/torch.log" ||
    echo "   torch_baselines.py failed: $(tail -1 "$RESULTS/torch.log")"
fi

echo
python3 bench/gpu/report.py --stage "$STAGE" --results "$RESULTS" \
  ${OUT:+--out "$OUT/gpu-bench.md"}

VALIDATOR=$STAGE/mirage-timing-validation
if [ "$skip_validation" = 0 ] && [ -f "$VALIDATOR" ]; then
  [ -x "$VALIDATOR" ] || chmod +x "$VALIDATOR"
  echo
  echo "== timing-model validation kernels (measured with CUDA events)"
  "$VALIDATOR" --device=gpu --source-dir=. --json="$RESULTS/validation.json" \
    --calibration="$RESULTS/timing-calibration.json" \
    >"$RESULTS/validation.md" 2>"$RESULTS/validation.log" ||
    echo "   mirage-timing-validation failed: $(tail -1 "$RESULTS/validation.log")"
  cat "$RESULTS/validation.md"
  [ -n "${OUT:-}" ] && cp "$RESULTS/validation.md" "$RESULTS/timing-calibration.json" "$OUT/" 2>/dev/null
fi
