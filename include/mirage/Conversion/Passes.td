//===- Passes.td - the conversions from graph to GPU -*- tablegen -*-===//

// The conversions between the levels, from the graph to the GPU dialect
// (docs/GpuLowering.md): graph -> kernel (the default schedule), kernel ->
// block (default block graphs), thread -> arith, block -> gpu (the code
// generator) and kernel -> gpu (host launches). Each is a library in
// lib/Conversion/<X>To<Y> with its header in include/mirage/Conversion/<X>To<Y>.

#ifndef MIRAGE_CONVERSION_PASSES_TD
#define MIRAGE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"
include "mirage/Target/TargetPassOptions.td"

def GraphToKernel : Pass<"graph-to-kernel"> {
  let summary = "Default schedule: each graph op becomes one predefined kernel";
  let description = [{
    Rewrites every `graph` op into the matching predefined `kernel` op, one
    kernel launch per op. This is the baseline schedule that the µGraph search
    improves on; it changes no values, only the level.

    ```mlir
    %y = graph.exp %x : tensor<8x64xf16>
    // becomes
    %y = kernel.unary exp %x : tensor<8x64xf16>
    ```
  }];
  let dependentDialects = ["::mirage::kernel::KernelDialect"];
}

def KernelToBlock : Pass<"kernel-to-block"> {
  let summary = "Gives every predefined kernel a default block graph";
  let description = [{
    Rewrites each predefined `kernel` op that launches work (matmul, unary,
    binary, reduce, rms_norm, softmax, ...) into a `kernel.graph_def` whose
    block graph computes the same: a tiled matmul that walks K in its
    for-loop and accumulates in a `block.accum sum`, row-wise reductions and
    normalizations with one block per group of rows, and elementwise kernels
    over row tiles. After it, every kernel of a function is graph-defined,
    so the GPU code of all kernels comes from one code generator
    (`--block-to-gpu`) and needs no library. `kernel.reshape` (a view) is
    left alone. An op with no block-graph form gets an error, as does one
    with a rank-0 or empty tensor (a tile has at least one element in each
    of at least one dimension) or one of more than 2^38 elements. The tiles
    of every graph fit the shared memory of `target` (docs/GpuLowering.md,
    "Chips"). Each function it visits keeps its text before the rewrite in
    the `mirage.reference` attribute, the program a GPU run is checked
    against.
  }];
  let options = [
    LoweringTargetOption,
  ];
  // The thread dialect: select's default block graph is a thread.fused
  // chain.
  let dependentDialects = ["::mirage::kernel::KernelDialect",
                           "::mirage::block::BlockDialect",
                           "::mirage::thread::ThreadDialect"];
}

def ThreadToArith : Pass<"thread-to-arith"> {
  let summary = "Lowers thread ops inside thread.fused to scalar arith/math";
  let description = [{
    Replaces each `thread.unary` and `thread.binary` in the body of a
    `thread.fused` op by the scalar `arith` and `math` ops that compute it
    (silu as x / (1 + exp(-x)), gelu as 0.5 x (1 + erf(x / sqrt 2)), ...),
    in f32 whatever the element type: each argument is widened once and each
    yielded value narrowed back. The fused op itself stays;
    `--block-to-gpu`, which needs this form, inlines its body per element.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def BlockToGpu : Pass<"block-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Compiles each graph-defined kernel into a gpu.func";
  let description = [{
    For every `kernel.graph_def`, emits a `gpu.func` kernel (in the
    module's `gpu.module @mirage_kernels`, named `@<function>_<n>`) that runs the block
    graph with `threads` threads per block on `target`, and replaces the
    graph_def by a `kernel.launch` of it. The kernel takes one memref per
    input and per output (inputs first). Kernel names keep the letters,
    digits and underscores of the function's name (others become `_`, and
    a name that does not start with a letter gets a `k` in front), so that
    every name is a PTX identifier and none clashes with the toolchain's
    `__` names.

    - Every tile lives in shared memory (workgroup memory through
      `gpu.dynamic_shared_memory`), at offsets from a memory plan that lets
      loop-body tiles and post-loop tiles share space; the launch records
      the plan's size, which must fit the chip's shared memory per block;
      the grid must fit the chip's grid (y and z at most 65535).
    - Input iterators copy tiles with 16-byte `cp.async` copies
      (`nvgpu.device_async_copy`, waited for at the next barrier; sm_80 and
      later, 16-byte vector loads and stores before) and output savers with
      16-byte vector loads and stores where the tile row allows it
      (coalesced: consecutive threads take consecutive vectors), one
      element at a time otherwise.
    - f16 matmuls run on tensor cores (`nvvm.mma.sync` m16n8k16 from sm_80,
      two m16n8k8 on sm_75, accumulating in f32); a matmul that feeds a sum
      accumulator keeps its accumulator in registers across the whole
      for-loop. Other element types use a CUDA-core loop.
    - Reductions give each warp rows and combine with `gpu.shuffle xor`.
    - Elementwise ops and `thread.fused` bodies (after
      `--thread-to-arith`) compute in f32 registers, one element per
      thread per step.
    - `gpu.barrier` only between an op and a later one that reads what it
      wrote (or overwrites what an earlier one read).

    Each function it changes keeps its kernel-level text in the
    `mirage.reference` attribute, unless `--kernel-to-block` recorded it
    already: the last form the reference interpreter runs, for runners to
    check the GPU's results against.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "128",
           "Threads per block (a multiple of 32, at most 1024)">,
    LoweringTargetOption,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mirage::kernel::KernelDialect"];
}

def KernelToGpu : Pass<"kernel-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turns a kernel-level function into a host launch sequence";
  let description = [{
    Rewrites every function whose body is `kernel.launch` and
    `kernel.reshape` ops into a host function on memrefs: its tensor
    arguments become memref arguments, its results become output memref
    arguments after them (`mirage.output` marks them), intermediate tensors
    become `memref.alloc`s (freed at the end), reshapes become copy-free
    `memref.reinterpret_cast` views, and each launch becomes a
    `gpu.launch_func` with its grid, block and dynamic shared memory. A
    result that no launch writes into its buffer (an argument, a view, a
    tensor returned a second time) is copied there by a copy kernel
    (`@mirage_kernels::@copy_<dtype>_<shape>`, one per buffer type, made
    here with the kernel module if there is none), launched after the
    function's own launches; a function of views alone becomes host code
    of copies. The indexing kernels that `--kernel-to-block` leaves
    (`kernel.gather`, `kernel.gather_elements`, `kernel.one_hot`,
    `kernel.topk`) become kernels written here too (one thread per output
    element, per input element for topk, in a grid-stride loop), launched
    where the op stood; an index out of range executes
    `trap`, so the launch fails instead of reading out of bounds.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // MIRAGE_CONVERSION_PASSES_TD
