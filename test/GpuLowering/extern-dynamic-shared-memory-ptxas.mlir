// REQUIRES: ptxas
// --mirage-to-ptx declares the dynamic shared memory as an `.extern .shared`
// array (--extern-dynamic-shared-memory), as CUDA C++ does for an `extern
// __shared__` array: ptxas then sees no static shared memory and no access
// out of its bounds. convert-gpu-to-nvvm alone gives a 1-byte `.shared`
// variable instead, and ptxas -v warns "Potential out of bound access" at
// every access to it and reports "1 bytes smem".
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/k80 cubin=false" -o %t/lowered80.mlir
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/k90 cubin=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=LLVM < %t/lowered80.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t/k80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/k90.ptx
// ptxas -v names static shared memory ("N bytes smem") only when there is
// some; its cubin's .nv.shared.<kernel> sections hold it.
// RUN: %ptxas -v -arch=sm_80 %t/k80.ptx -o %t/k80.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS --implicit-check-not="out of bound" --implicit-check-not=smem
// RUN: %ptxas -v -arch=sm_90 %t/k90.ptx -o %t/k90.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS --implicit-check-not="out of bound" --implicit-check-not=smem
// RUN: llvm-readelf -S -W %t/k80.cubin | FileCheck %s --check-prefix=ELF
// The emulator gives the array the launch's dynamic shared memory, no
// more: one byte less than the plan of norm_mm_0 and its memcheck stops
// the last store (with the 1-byte variable, the area started at offset 16
// and a shortfall of up to 16 bytes went unseen).
// RUN: mirage-gpu-run %t/k80.json --emulate | FileCheck %s --check-prefix=EMULATE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/k80.json
// RUN: sed 's/"dynamic_shared_memory": 640,/"dynamic_shared_memory": 639,/' %t/k80.json > %t/short.json
// RUN: not mirage-gpu-run %t/short.json --emulate 2>&1 | FileCheck %s --check-prefix=SHORT

// An RMS norm of one row (its tiles in the dynamic shared memory, which
// ptxas checks against the symbol's size) feeding a matmul (cp.async tiles, tensor cores): two kernels, each
// with its own dynamic shared memory, through one declaration.
func.func @norm_mm(%X: tensor<1x64xf16>, %W: tensor<64x32xf16>) -> tensor<1x32xf16> {
  %n = graph.rms_norm %X : tensor<1x64xf16>
  %y = graph.matmul %n, %W : (tensor<1x64xf16>, tensor<64x32xf16>) -> tensor<1x32xf16>
  return %y : tensor<1x32xf16>
}

// LLVM: gpu.module @mirage_kernels
// LLVM: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

// PTX-NOT: .shared .align
// PTX: {{^}}.extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX-NOT: .shared .align
// PTX: .entry norm_mm_0(
// PTX: mov.b64 %rd{{[0-9]+}}, __dynamic_shmem__0;
// PTX: .entry norm_mm_1(
// PTX: mov.b64 %rd{{[0-9]+}}, __dynamic_shmem__0;
// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16

// PTXAS: Compiling entry function 'norm_mm_{{[01]}}'
// PTXAS: Used {{[0-9]+}} registers
// PTXAS: Compiling entry function 'norm_mm_{{[01]}}'
// PTXAS: Used {{[0-9]+}} registers

// ELF-DAG: .nv.shared.norm_mm_0 NOBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000000
// ELF-DAG: .nv.shared.norm_mm_1 NOBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000000

// EMULATE: emulator: function "norm_mm":
// EMULATE: PASS: against the fp64 reference

// MANIFEST: "dynamic_shared_memory": 640,
// MANIFEST-NEXT: "grid": [
// MANIFEST: "kernel": "norm_mm_0"
// SHORT: kernel 'norm_mm_0' {{.*}} memcheck: outside the 639 bytes of shared memory
