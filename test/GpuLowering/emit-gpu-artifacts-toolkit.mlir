// The NVVM target's serializer links the toolkit's libdevice into every
// module (exp, erf, sqrt, ... become calls to it). Without it, it reported
// an error yet went on, and the PTX called functions nothing defines (only
// the GPU's loader would have noticed): now a missing libdevice is an
// error before LLVM runs, and nothing is written.
// RUN: not mirage-opt %s --emit-gpu-artifacts="output=%t toolkit=%t.no-toolkit cubin=false" 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx
// CHECK: error: emit-gpu-artifacts: the CUDA toolkit '{{.*}}.no-toolkit' has no {{.*}}.no-toolkit{{/|\\}}nvvm{{/|\\}}libdevice{{/|\\}}libdevice.10.bc, which the NVVM serializer links into the kernels; set toolkit=<the toolkit's folder>
// CHECK-NOT: see current operation
module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.return
    }
  }
}
