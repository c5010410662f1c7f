#!/bin/sh
# Regenerates the validation kernels' PTX (docs/TimingModel.md,
# "Validation"): nvcc for the microbenchmarks, Triton for the tutorials.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for arch in sm_80 sm_90; do
  "$NVCC" -O3 --ptx -arch=$arch microbenchmarks.cu -o microbenchmarks.$arch.ptx
done
TRITON_DEFAULT_FP_FUSION=1 ${PYTHON:-../../.venv/bin/python} triton_tutorials.py
