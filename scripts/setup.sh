#!/usr/bin/env bash
# Installs every dependency and builds mirage-opt in build/: Debian's
# packages (LLVM/MLIR 22, Z3, GoogleTest, ...), then the Python packages of
# the virtual environment .venv (nanobind, scikit-build-core, numpy, pytest,
# onnx, torch, torchvision from PyPI; kept when present, so a second run
# downloads nothing), then the C++ build and the mirage_opt Python package.
# Run from anywhere, as root or with sudo available. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  cmake ninja-build g++ python3 python3-venv python3-dev graphviz \
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
  libz3-dev libgtest-dev libgmock-dev libbenchmark-dev

# The virtual environment, with Debian's Python (the one python3-dev
# matches). The PyPI torch wheel pulls several GB of CUDA libraries: pip
# keeps what is installed and satisfied.
if [ ! -x .venv/bin/python ]; then
  /usr/bin/python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet \
  nanobind scikit-build-core numpy pytest onnx torch torchvision

cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DMIRAGE_PYTHON_EXECUTABLE="$PWD/.venv/bin/python"
cmake --build build
# Installs the build into build/install and mirage_opt into .venv.
cmake --build build --target mirage-python-package
