// RUN: mirage-opt %s --split-input-file --attach-gpu-target | FileCheck %s
// RUN: not mirage-opt %s --split-input-file --attach-gpu-target=target=H200-SXM-141GB 2>&1 | FileCheck %s --check-prefix=H200
// RUN: not mirage-opt %s --split-input-file --attach-gpu-target=target=sm_70 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM70

// The chip block-to-gpu generated the kernels for (mirage.target on the
// gpu.module), with the PTX ISA version of the target database.
// CHECK-LABEL: gpu.module @mirage_kernels
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">]
// A gpu.module without a recorded chip gets the default, sm_90.
// CHECK-LABEL: gpu.module @mirage_kernels
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]

// A product is lowered for its arch; one whose arch is not the kernels'
// is an error.
// H200: error: attach-gpu-target: the kernels were generated for sm_80, not for sm_90 (target=H200-SXM-141GB); lower again with block-to-gpu target=H200-SXM-141GB
// H200: gpu.module @mirage_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]

// SM70: error: attach-gpu-target: chip 'sm_70' is not supported (Volta

module {
  gpu.module @mirage_kernels attributes {mirage.target = "sm_80"} {
  }
}

// -----

module {
  gpu.module @mirage_kernels {
  }
}
