#!/usr/bin/env bash
# Installs every dependency from Debian's packages and builds mirage-opt in
# build/. Run from the repository root, as root or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  cmake ninja-build g++ python3 \
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
  libz3-dev libgtest-dev libgmock-dev libbenchmark-dev

cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
cmake --build build
