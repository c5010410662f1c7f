//===- Passes.td - the CUDA target steps -*- tablegen -*-===//

// The steps after the conversion to NVVM that make a CUDA program of the
// gpu.module: the dynamic shared memory as an extern array, the
// #nvvm.target of the chip, and the PTX, cubin and launch manifest.

#ifndef MIRAGE_TARGET_CUDA_PASSES_TD
#define MIRAGE_TARGET_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"
include "mirage/Target/TargetPassOptions.td"

def ExternDynamicSharedMemory : Pass<"extern-dynamic-shared-memory"> {
  let summary = "Declares the dynamic shared memory as an extern .shared array";
  let description = [{
    Turns every `llvm.mlir.global` in address space 3 (shared) of zero
    size (`!llvm.array<0 x T>`), without an initializer and with internal
    or private linkage, into an external declaration. These are the
    globals `--convert-gpu-to-nvvm` makes for `gpu.dynamic_shared_memory`
    (`__dynamic_shmem__0`). With internal linkage, LLVM's NVPTX backend
    emits a 1-byte static shared variable,
    `.shared .align 16 .b8 __dynamic_shmem__0;`, which the kernels index
    far past: `ptxas -v` warns "Potential out of bound access" at each
    access at a constant offset and counts 1 byte of static shared memory
    per kernel. An external declaration is what CUDA C++'s
    `extern __shared__` array becomes,
    `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`: the array is the
    launch's dynamic shared memory, and the kernels have no static shared
    memory. Other globals are left alone. `--mirage-to-ptx` runs it right
    after `--convert-gpu-to-nvvm`.

    ```mlir
    llvm.mlir.global internal @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // becomes
    llvm.mlir.global external @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
}

def AttachGpuTarget : Pass<"attach-gpu-target", "::mlir::ModuleOp"> {
  let summary = "Gives @mirage_kernels the #nvvm.target of its chip";
  let description = [{
    Sets the `targets` of the `gpu.module @mirage_kernels` to one
    `#nvvm.target` for `target`: its arch as the chip, `+ptx<N>` with the
    PTX ISA version the target database gives the arch (without it LLVM
    emits the arch's first PTX version, which may lack an instruction the
    kernels use, m16n8k8 on sm_75), and LLVM's -O3. When `target` is not
    given, the chip is the one `--block-to-gpu` generated the kernels for
    (`mirage.target` on the gpu.module), else sm_90. A `target` whose arch
    differs from the one the kernels were generated for is an error: the
    code may use instructions the other chip lacks, or shared memory it
    does not have. `--mirage-to-ptx` runs it before `--emit-gpu-artifacts`.
  }];
  let options = [
    LoweringTargetOption,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def EmitGpuArtifacts : Pass<"emit-gpu-artifacts", "::mlir::ModuleOp"> {
  let summary = "Writes PTX, cubin and a JSON launch manifest";
  let description = [{
    Serializes every `gpu.module` (already in the NVVM/LLVM dialects and
    carrying an `#nvvm.target`) with MLIR's NVVM target: PTX through LLVM's
    NVPTX backend and cubin through `ptxas` from the CUDA toolkit. Writes
    `<output>.ptx`, `<output>.cubin` (unless `cubin=false`) and
    `<output>.json`, the manifest a runner loads: per host function its
    buffers (shape, dtype, bytes, role) and its launches in order (kernel,
    grid, block, dynamic shared memory, argument buffers). The format is in
    docs/GpuLowering.md. A failing ptxas is an error with its message.

    Before LLVM runs, the target is checked against the chip table
    (docs/GpuLowering.md, "Chips"): the chip must be supported, every
    instruction the kernels use must exist on it (`cp.async` from sm_80,
    `mma.sync` m16n8k16 from sm_80 and m16n8k8 from sm_75) and in the PTX
    ISA version the target's features ask for, and every launch must fit
    its shared memory per block and grid limits. The toolkit must hold
    `nvvm/libdevice/libdevice.10.bc`, which the serializer links into every
    module, with or without a cubin.
  }];
  let options = [
    Option<"output", "output", "std::string", "\"\"",
           "Path prefix of the files written (required)">,
    Option<"cubin", "cubin", "bool", "true",
           "Also assemble a cubin with ptxas">,
    Option<"toolkit", "toolkit", "std::string", "\"/usr/local/cuda\"",
           "CUDA toolkit with bin/ptxas">,
  ];
}

#endif // MIRAGE_TARGET_CUDA_PASSES_TD
