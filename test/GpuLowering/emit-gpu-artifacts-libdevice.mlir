// Math functions are calls to libdevice (__nv_expf, ...), which the NVVM
// target's serializer links from the toolkit. Without libdevice there the
// PTX would call a function nothing defines (before, it was written so, and
// only the GPU's loader would have noticed): an error at the call's
// declaration, before LLVM runs.
// RUN: not mirage-opt %s --emit-gpu-artifacts="output=%t toolkit=%t.no-toolkit cubin=false" 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx
// CHECK: error: emit-gpu-artifacts: the kernels call libdevice's __nv_expf, but the toolkit '{{.*}}.no-toolkit' has no {{.*}}.no-toolkit{{/|\\}}nvvm{{/|\\}}libdevice{{/|\\}}libdevice.10.bc to link it from
module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.return
    }
  }
}
