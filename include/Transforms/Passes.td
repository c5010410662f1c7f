//===- Passes.td - mirage-opt lowering and import passes -------*- tablegen -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_TD
#define MIRAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"
include "Target/TargetPassOptions.td"
include "Superopt/Verification/VerifierPassOptions.td"

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

def VerifyEquivalence : Pass<"verify-equivalence", "::mlir::ModuleOp"> {
  let summary = "Checks that two functions of the module compute the same";
  let description = [{
    Verifies each candidate function against its original. A candidate names
    its original with the `mirage.equivalent_to` attribute, or the pass
    options name one pair (`original=`, `candidate=`); the module is not
    changed.

    Two methods run (docs/Verification.md):

    - the finite-field test of Mirage, when both functions are in the LAX
      fragment: fresh random inputs over Z_p x Z_q, with q a random
      `field-bits`-bit prime and p = 2q + 1, drawn afresh for each pair
      (from `seed` and the two programs) and reported; as many tests as put
      the false-positive bound below 2^-60 (or `field-tests`). A constant
      that vanishes or two that collide in the fields make the pass draw
      another pair (with a warning); an inf or NaN constant, or no clean
      pair, makes it give the field test up (with a warning);
    - floating point, at input scales 1, 4, 16, ... (at most `scales`, up
      to the square root of the narrowest dtype's largest value, 64 for
      f16): the
      candidate in fp64 against the original in fp64 (to rounding), and the
      candidate in its own dtypes against the original in fp64, within the
      dtype's tolerance (f16 1e-2, bf16 6e-2, f32 1e-5, relative plus
      absolute in units of the median output magnitude) plus twice the
      original's largest own error in its own dtypes over the output.
      Positions where the original itself overflows are not judged; a
      candidate that gives inf, NaN, 0 or a large error where the original
      stays finite and accurate is rejected, with the scale named. The
      native runs keep values where the GPU code keeps them (f32
      accumulators and fused chains).

    A function outside the LAX fragment (two exps on one path) gets a
    warning at the op that takes it out, and only the floating-point checks
    (at least 3 input sets per scale, the fp64 check at every scale): a
    weaker guarantee. On success the pass emits a remark with the methods,
    the tests, the primes, the scales and the bound; on failure an error
    naming the first differing output, the position, both values and the
    scale. When the memory limit or the time limit binds, an error says
    so: the verification did not finish, which is no verdict. Each result is
    also a remark of category `mirage-verify` with the method, tests,
    primes, scales, bound and errors as metrics
    (`--remarks-filter=mirage-verify --remark-format=yaml`).

    ```mlir
    func.func @f(...) { ... }
    func.func @g(...) attributes {mirage.equivalent_to = @f} { ... }
    ```
  }];
  let options = [
    Option<"original", "original", "std::string", "\"\"",
           "The original function (with `candidate`)">,
    Option<"candidate", "candidate", "std::string", "\"\"",
           "The candidate function (with `original`)">,
    Option<"fieldBits", "field-bits", "unsigned", "31",
           "Bits of the random exponent prime q (31 to 62)">,
    Option<"fieldTests", "field-tests", "unsigned", "0",
           "Finite-field tests to run (0: enough for a 2^-60 bound; at most "
           "1000)">,
    Option<"realTests", "real-tests", "unsigned", "1",
           "Random input sets per input scale for the floating-point checks "
           "(0 to 1000; 0 skips them when the field test decides)">,
    Option<"scales", "scales", "unsigned", "6",
           "The most input scales (1, 4, 16, ...) the floating-point checks "
           "climb (1 to 16)">,
    Option<"memoryLimit", "memory-limit", "uint64_t", "0",
           "MiB the verification of one pair may hold (0: the machine's "
           "physical memory)">,
    Option<"timeLimit", "time-limit", "double", "0",
           "Seconds the verification of one pair may take, checked between "
           "interpreted ops (0: no limit; at most 10^6)">,
    Option<"seed", "seed", "uint64_t", "0",
           "Seed of the random inputs and primes">,
    Option<"floatFirst", "float-first", "bool", "false",
           "Run the floating-point checks before the finite-field test (as "
           "the search does): a pair that both reject is reported by the "
           "numerics; the verdict does not change">,
    Option<"reduceUniform", "reduce-uniform", "bool", "false",
           "Verify on fewer slices of a dimension along which both "
           "functions are proven uniform, with the same bound (as the "
           "search does); at full size when there is none">,
    Option<"progress", "progress", "bool", "false",
           "Print a line on stderr as each test finishes">,
  ];
}

def EstimateCost : Pass<"estimate-cost", "::mlir::ModuleOp"> {
  let summary = "Estimates each kernel's run time with the analytic cost model";
  let description = [{
    Costs every kernel-dialect op (and every graph-dialect op, as the
    predefined kernel of the default schedule) of every function with the
    roofline model of docs/CostModel.md for `target` (`sm_80`: A100,
    `sm_90`: H100; by default the target the function was searched for,
    `mirage.target`, else sm_90), after applying the `calibration` file if
    one is given.
    It emits one remark per kernel (time, what bounds it, device-memory, L2
    and shared-memory bytes, FLOPs, shared memory per block) and one per
    function (the total), and an error at a graph-defined kernel whose block
    graph needs more shared memory per block or more registers per thread
    than the target has. The remarks also go to MLIR's remark engine in
    category `mirage-cost` (`--remarks-filter=mirage-cost
    --remark-format=yaml`). The module is not changed. A name the target
    database does not know is rejected with the list of known ones; a chip
    it knows but the cost model has no L2 bandwidth or launch overhead for
    (every arch but sm_80 and sm_90) is rejected with what a calibration
    file must give.

    ```
    $ mirage-opt f.mlir --estimate-cost="target=sm_90" -o /dev/null
    f.mlir:3:8: remark: kernel.matmul: 20.29 us on sm_90, memory-bound; ...
    f.mlir:1:1: remark: @f: 20.29 us on sm_90 in 1 kernel(s)
    ```
  }];
  let options = [
    EstimateTargetOption,
    CalibrationOption,
  ];
}

def FuseThreadChains : Pass<"fuse-thread-chains"> {
  let summary = "Fuses chains of elementwise block ops into thread.fused ops";
  let description = [{
    Mirage's rule-based thread-level fusion. In every block graph
    (`kernel.graph_def`), each connected group of two or more elementwise
    block ops (`block.unary`, `block.binary`, linked by def-use edges) becomes
    one `thread.fused` op whose body holds the matching `thread.unary` and
    `thread.binary` ops. A group never crosses a `block.accum`, so it lies
    wholly in the for-loop body or wholly after the loop.

    The fused op's inputs are the group's outside tile operands
    (deduplicated, in order of first use); its results are the group's
    values used outside the group, in op order. Inputs broadcast to the
    common shape S of the group's results, so a group may hold ops on
    smaller tiles (the RMSNorm tail `scale`, `sqrt` on 16x1 then `div` to
    16x64 is one group, the row values recomputed per element) as long as
    every value used outside the group has shape S. Otherwise, the group is
    split into the groups of ops with equal result shapes. The fused op takes
    the place of the group's last op; a group with an outside use before
    that op is left unfused. A lone elementwise op is left as is. The pass
    fails with an error if a rewritten block graph does not verify.
  }];
  let dependentDialects = ["::mirage::thread::ThreadDialect"];
}

def Superoptimize : Pass<"superoptimize", "::mlir::ModuleOp"> {
  let summary = "Searches each graph function for a faster equivalent µGraph";
  let description = [{
    Splits every function's graph ops into subprograms the search handles
    (runs of matmul, elementwise, sum, rms_norm and softmax ops, at most
    `max-subprogram-ops` each; other ops keep the default schedule), searches
    each for the µGraph of least estimated time on `target`, verifies it
    against the subprogram, and replaces the subprogram by it. The result is
    at the kernel, block and thread levels. docs/Search.md describes the
    search space, the stability rules, the pruning, the budgets and the
    cache.

    The search is deterministic: `state-budget` and `memory-budget` count
    states and bytes, so the same input and options give the same µGraph
    with any load and thread count. `time-budget` is only a safety limit:
    a search it cuts is reported as such and not cached.

    Each subprogram gets a remark: kernels before and after, estimated times,
    states explored and pruned, block graphs found, candidates costed and
    verified, search time, which budget bound the result if any, the cache
    outcome, and the verification method and bound. The same facts go to
    MLIR's remark engine in category `mirage-search`
    (`--remarks-filter=mirage-search --remark-format=yaml`).

    `cache`: `on` (or `true`) reuses an entry after re-verifying it and
    stores new results; `off` (or `false`) neither reads nor writes; `only`
    never searches (a missing or bad entry is an error); `refresh` searches
    again and overwrites; `clear` removes every entry of the cache directory
    first, then acts as `on`.

    ```
    $ mirage-opt f.mlir --superoptimize="target=sm_90"
    ```
  }];
  let options = [
    SearchTargetOption,
    CalibrationOption,
    Option<"preset", "preset", "std::string", "\"default\"",
           "Search limits: default, or mirage-limits (Mirage's: at most 5 "
           "kernel ops counting the inputs, 1 graph-defined kernel, 9 block "
           "ops plus the output, for-loop ranges 4, 16, 64); mirage-limits "
           "sets kernel-ops, block-ops and forloop-ranges, which may not be "
           "given with it">,
    Option<"kernelOps", "kernel-ops", "unsigned", "5",
           "Most kernels in a µGraph (1 to 64)">,
    Option<"blockOps", "block-ops", "unsigned", "11",
           "Most block ops in a graph-defined kernel, inputs and output "
           "included (3 to 32)">,
    Option<"gridDims", "grid-dims", "unsigned", "2",
           "Most grid dimensions of a graph-defined kernel over its output's "
           "variables (1 to 3); a split of its loop variable takes one more, "
           "up to 3 in all">,
    Option<"kernelOutputs", "kernel-outputs", "unsigned", "2",
           "Most device tensors a graph-defined kernel writes (1 to 8): the "
           "partial results of a split loop, one per sum accumulator and two "
           "per online softmax; with 2 or more, a kernel may also save a "
           "program value it computes on the way to its goal">,
    ListOption<"gridSizes", "grid-sizes", "int64_t",
               "Candidate sizes of a grid dimension, each positive (default: "
               "every divisor from 2 to 1024 of the partitioned extent)">,
    ListOption<"forloopRanges", "forloop-ranges", "int64_t",
               "Candidate for-loop ranges, each positive (default: every "
               "divisor from 2 to 128 of the walked extent)">,
    Option<"stateBudget", "state-budget", "uint64_t", "10000000",
           "Search states per subprogram, shared among the block-level "
           "tasks in deterministic rounds (> 0)">,
    Option<"kernelGraphOps", "kernel-graph-ops", "unsigned", "3",
           "Kernel-level enumeration: most predefined ops of another "
           "formulation of a subprogram, over its inputs and the "
           "intermediates made before (0 to 8; 0: only the program as "
           "written is searched)">,
    Option<"kernelGraphStates", "kernel-graph-states", "uint64_t", "100000",
           "States the kernel-level enumeration may visit per subprogram "
           "(> 0)">,
    Option<"formulations", "formulations", "unsigned", "8",
           "Most formulations searched per subprogram besides the program's "
           "own, each with state-budget / formulations block-level states "
           "(1 to 64)">,
    Option<"memoryBudget", "memory-budget", "uint64_t", "4096",
           "MiB the search's own data may take, split among the tasks "
           "running at once (1 to 1048576)">,
    Option<"timeBudget", "time-budget", "double", "600",
           "Wall-clock safety limit in seconds per subprogram (the "
           "enumeration stops at half of it); a search it cuts is reported "
           "and not cached (> 0)">,
    Option<"pruning", "pruning", "bool", "true",
           "Abstract-expression pruning (off only for the ablation)">,
    Option<"threads", "threads", "unsigned", "0",
           "Search threads (0: MLIR's thread pool; 1 or "
           "--mlir-disable-threading: the calling thread; at most 1024)">,
    Option<"maxSubprogramOps", "max-subprogram-ops", "unsigned", "8",
           "Most graph ops in one searched subprogram (1 to 20)">,
    Option<"threadFusion", "thread-fusion", "bool", "true",
           "Fuse elementwise chains into thread.fused ops afterwards">,
    Option<"cache", "cache", "std::string", "\"on\"",
           "On-disk cache: on, off, only, refresh or clear (true and false "
           "mean on and off)">,
    Option<"cacheDir", "cache-dir", "std::string", "\"\"",
           "Cache directory (default: $MIRAGE_CACHE_DIR, else "
           "~/.cache/mirage-opt)">,
    Option<"fieldBits", "field-bits", "unsigned", "31",
           "Bits of the verifier's exponent prime q (31 to 62)">,
    Option<"seed", "seed", "uint64_t", "0",
           "Seed of the verifier's random inputs">,
    Option<"reduceVerification", "reduce-verification", "bool", "true",
           "Verify on fewer slices of a dimension along which the "
           "subprogram and the µGraph are proven uniform (the same bound; "
           "docs/Verification.md), at full size when there is none; false: "
           "always at full size">,
    Option<"progress", "progress", "bool", "false",
           "Print a line on stderr per search task and verification">,
    Option<"testFailPart", "test-fail-part", "int64_t", "-1",
           "Testing only: the search of this subprogram (its part number) "
           "fails as an internal error would, to exercise the rule that "
           "keeps a failing subprogram as written (no real input is known "
           "to reach it)">,
  ];
  let dependentDialects = ["::mirage::kernel::KernelDialect",
                           "::mirage::block::BlockDialect",
                           "::mirage::thread::ThreadDialect",
                           "::mlir::func::FuncDialect"];
}

def PrintMugraphDot : Pass<"print-mugraph-dot", "::mlir::ModuleOp"> {
  let summary = "Writes each µGraph function as a Graphviz DOT graph";
  let description = [{
    Writes one `digraph` per function of the module (or only `function`),
    in module order, in the spirit of MLIR's `--view-op-graph` but at the
    µGraph's levels; the module is not changed.

    - The function's arguments and results are nodes, and so is every
      kernel-level op (a predefined kernel, a graph op before
      `--graph-to-kernel`, any other op of the body), labelled with its op,
      its kind and attributes and its result shapes and dtypes.
    - With `block-graphs` (the default), the n-th graph-defined kernel is
      a `subgraph cluster_k<n>` labelled `kernel.graph_def #<n>` with its
      grid and for-loop range and holding its block graph: `block.input`
      nodes with their imap, fmap and tile, the shared-memory ops,
      `block.accum` with its kind, `thread.fused` with the scalar ops of its
      body (`#i` its i-th input, `t<k>` the k-th value it computes) and
      `block.output` with its omap and device tensor. The for-loop body
      (the ops before the first accumulator) is a dashed cluster inside it,
      `cluster_k<n>_body`, with the input iterators on one row and the
      accumulators on one row below it. Without `block-graphs`, the kernel
      is one node with its grid and for-loop range.
    - Edges carry the shape and dtype of what flows along them: the device
      tensor from a kernel-level producer into a cluster's `block.input` and
      from a `block.output` to its consumers, the tile inside a block graph.
      The label of an edge into an op with several operands starts with the
      operand's number (`1: 16x1xf32`).

    Nodes are numbered in walk order (`n0`, `n1`, ... per function), so the
    same module gives the same text. `output` is `-` (the default) for
    stderr, as `--view-op-graph` does, or a file to write. A file that
    cannot be opened and a `function` that the module does not define, or
    only declares, are errors, and then nothing is written.

    ```
    $ mirage-opt f.mlir --superoptimize="target=sm_90" \
          --print-mugraph-dot="output=f.dot" -o /dev/null
    $ dot -Tsvg f.dot -o f.svg
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", "\"-\"",
           "File to write the DOT text to (-: stderr)">,
    Option<"function", "function", "std::string", "\"\"",
           "Draw only this function (default: every function with a body)">,
    Option<"blockGraphs", "block-graphs", "bool", "true",
           "Draw the block graph inside each graph-defined kernel">,
  ];
}


//===----------------------------------------------------------------------===//
// Lowering to the GPU (docs/GpuLowering.md)
//===----------------------------------------------------------------------===//

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

def DiscoverSubstitutions
    : Pass<"discover-substitutions", "::mlir::ModuleOp"> {
  let summary = "Discovers graph substitution rules (TASO) and proves them";
  let description = [{
    TASO's generator and verifier for the graph dialect
    (docs/GraphRules.md): enumerates every graph of up to `max-ops` ops of
    the menu over up to `inputs` variables, fingerprints each (finite-field
    arithmetic for polynomial ops and exp, fp64 on small integers where relu
    or max pooling makes that exact), pairs graphs with equal fingerprints
    into candidate substitutions, prunes them (renaming, common subgraph,
    common context, irrelevant subterms, conjunctions; every count is
    reported), generalizes each to symbolic shapes, checks each at distinct
    sizes with the equivalence verifier and proves each from the operator
    axioms with Z3 (a deterministic resource limit per output), in
    parallel.

    The accepted rules (proved and checked) are written to `output` as a
    rule file, or, without `output`, added to the module as functions (so
    that `-o` writes the rule file). A rule that is not accepted is reported
    in a warning with why, and written to `rejected` if given. A remark
    gives every stage's count and time.

    ```
    mirage-opt --discover-substitutions="output=rules.mlir" /dev/null -o /dev/null
    ```
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "The op menu, graph-dialect mnemonics (default: matmul, add, "
               "sub, mul, scalar_mul, scalar_add, exp, relu, transpose, "
               "concat, split, reduce_sum, conv2d, avg_pool2d, max_pool2d, "
               "reshape)">,
    Option<"maxOps", "max-ops", "unsigned", "3",
           "Ops per graph, 1 to 5 (each side of a rule)">,
    Option<"inputs", "inputs", "unsigned", "4",
           "Variables per graph, 1 to 8">,
    Option<"sizes", "sizes", "std::string", "\"\"",
           "Fingerprint sizes, e.g. \"matrix=3,batch=2,channels=3,spatial=3\" "
           "(each 2 to 8)">,
    Option<"output", "output", "std::string", "\"\"",
           "Rule file to write (empty: add the rules to the module)">,
    Option<"rejected", "rejected", "std::string", "\"\"",
           "File for the rules that were not accepted">,
    Option<"seed", "seed", "uint64_t", "1",
           "Seed of the fingerprints and the checks">,
    Option<"threads", "threads", "unsigned", "0",
           "Worker threads (0: the hardware's)">,
    Option<"timeBudget", "time-budget", "double", "600",
           "Seconds: a wall-clock safety limit (reported when reached)">,
    Option<"proofLimit", "proof-limit", "unsigned", "300000",
           "Z3 resource limit per proved output (deterministic)">,
    Option<"proofTimeout", "proof-timeout", "unsigned", "10000",
           "Milliseconds per proved output: a wall-clock safety limit">,
    Option<"progress", "progress", "bool", "false",
           "Print progress lines on stderr">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mirage::graph::GraphDialect"];
}

def CheckSubstitutions : Pass<"check-substitutions", "::mlir::ModuleOp"> {
  let summary = "Re-derives the evidence of every rule of a rule file";
  let description = [{
    Reads the module as a rule file (docs/GraphRules.md) and, for each rule,
    checks its two functions numerically at the sizes written (the
    equivalence verifier: the finite-field test with its bound, or fp64 for
    rules with relu or max pooling) and proves it from the operator axioms
    with Z3. A rule that fails either is an error at its function naming
    both verdicts; the evidence the file claims is not trusted. The module
    is not changed.
  }];
  let options = [
    ListOption<"names", "rule", "std::string",
               "Check only these rules (default: all)">,
    Option<"proofLimit", "proof-limit", "unsigned", "300000",
           "Z3 resource limit per proved output (deterministic)">,
    Option<"proofTimeout", "proof-timeout", "unsigned", "10000",
           "Milliseconds per proved output: a wall-clock safety limit">,
    Option<"seed", "seed", "uint64_t", "0", "Seed of the numerical checks">,
    Option<"threads", "threads", "unsigned", "0",
           "Worker threads (0: the hardware's)">,
  ];
}

def ApplySubstitutions : Pass<"apply-substitutions", "::mlir::ModuleOp"> {
  let summary = "Applies named rules of a rule file to graph functions";
  let description = [{
    Applies the rules named by `rule` (all accepted rules if none is named)
    of the rule file `rules` (the built-in rule set by default) to every
    graph function of the module: repeatedly the first match of the first
    rule that applies, in the file's order, up to `max-steps` rewrites.
    Rules are matched up to the commutativity of add and mul, with their
    shape constraints and scalar constraints checked; `direction` says
    which side is replaced (`forward`: the rule's lhs by its rhs). The
    rewritten function is verified against the original
    (`--verify-equivalence`'s checks) before it replaces it; a remark lists
    the rewrites.
  }];
  let options = [
    Option<"rules", "rules", "std::string", "\"\"",
           "Rule file (empty: the built-in rule set)">,
    ListOption<"names", "rule", "std::string",
               "The rules to apply (default: every accepted rule)">,
    Option<"direction", "direction", "std::string", "\"forward\"",
           "forward (lhs -> rhs), reverse (rhs -> lhs) or both">,
    Option<"maxSteps", "max-steps", "unsigned", "100",
           "Most rewrites per function (1 to 100000)">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect"];
}

def GraphOptimize : Pass<"graph-optimize", "::mlir::ModuleOp"> {
  let summary = "TASO's cost-based search over the rules of a rule file";
  let description = [{
    Rewrites each graph function into the cheapest equivalent graph the
    rules reach (docs/GraphRules.md): TASO's backtracking search with a
    priority queue ordered by estimated time, keeping every new graph that
    costs less than `alpha` times the best seen, until `budget` graphs have
    been taken from the queue. Children are costed from their parent and
    built only when taken from the queue (GraphSearch.h). A graph's cost is the sum of the analytic
    cost model's time of each op's predefined kernel on `target`
    (docs/CostModel.md); ops that compute from weights only (arguments from
    `weights-from` on, or marked `mirage.weight`) cost nothing, as TASO
    folds them before the run. Reading a function merges identical graph
    ops (common subexpressions), so `--cse` is not needed first; ops
    outside the rules' vocabulary are kept as they are, each its own value.

    The cheapest graphs are verified against the input, cheapest first,
    with `--verify-equivalence`'s checks (finite-field test with its bound,
    floating point at a ladder of input scales in fp64 and the program's
    own dtypes); the first that passes replaces the function, and a remark
    states the rules applied, the estimated time before and after, the
    search's counts and the verification. If none passes, the function is
    kept and a warning says why. The search is deterministic; `time-limit`
    is a wall-clock safety cut that the remark reports.
  }];
  let options = [
    Option<"rules", "rules", "std::string", "\"\"",
           "Rule file (empty: the built-in rule set)">,
    SearchTargetOption,
    CalibrationOption,
    Option<"alpha", "alpha", "double", "1.05",
           "Relaxation: keep graphs costing less than alpha times the best "
           "(1 to 10)">,
    Option<"budget", "budget", "uint64_t", "300",
           "Graphs taken from the queue per function (at least 1)">,
    Option<"maxQueue", "max-queue", "uint64_t", "200000",
           "Most entries the queue holds (an entry is a child not built "
           "yet: its parent and its rewrite; the costliest are dropped "
           "beyond)">,
    Option<"timeLimit", "time-limit", "double", "60",
           "Seconds of search per function: a safety limit (0: none)">,
    Option<"reverse", "reverse", "bool", "true",
           "Apply rules in both directions">,
    Option<"weightsFrom", "weights-from", "int64_t", "-1",
           "Arguments from this index on are weights (-1: none but those "
           "marked mirage.weight)">,
    Option<"function", "function", "std::string", "\"\"",
           "Optimize only this function">,
    VerifierFieldBitsOption,
    VerifierSeedOption,
    VerifierScalesOption,
    VerifierTimeLimitOption,
    Option<"progress", "progress", "bool", "false",
           "Print the search's progress on stderr">,
    Option<"checkIncremental", "check-incremental", "bool", "false",
           "Also match every visited graph from scratch and build every "
           "child, and fail if the incremental matcher or the costing of "
           "children from their parent found anything else (a test; slow)">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect"];
}

def PartialEquivalenceOptimize
    : Pass<"partial-equivalence-optimize", "::mlir::ModuleOp"> {
  let summary = "PET's partially equivalent transformations with corrections";
  let description = [{
    For each graph function (docs/PartialEquivalence.md; PET, OSDI'21):
    every concat along H or W of convolutions that share a weight (one per
    tile, "same" padding along the axis) is a site; each convolution may be
    followed by the same elementwise chain per tile (bias, batch norm,
    ReLU: operands constant along the axis), which moves after the concat
    exactly. Its mutant is one convolution of the concatenated tiles, wrong
    only next to the seams.
    The region analysis cuts the site's output into boxes in which both
    programs compute one linear form up to translation (PET's first
    theorem) and decides each box by random tests over Z_p at two of its
    positions (the second theorem), with a stated bound. The wrong rows are
    recomputed from the original on slices of the tiles framed by zero
    rows (tile rows times 0 that the same windows read, so that an inf or
    NaN never reaches a finite output), in the mutant's convolution
    launch, and assembled by one split
    and the program's concat; the slices are cut per tile or from the
    concatenated tiles, whichever the cost model on `target` finds cheaper.
    A corrected function cheaper than the input is verified against it with
    `--verify-equivalence`'s checks before it replaces it; a remark states
    the mutants tried, the regions, the correction, the estimated times and
    the verification. Sites that do not gain are reported and kept (or,
    with chains, only the chains are moved when that alone is cheaper,
    verified likewise).
  }];
  let options = [
    SearchTargetOption,
    CalibrationOption,
    Option<"budget", "budget", "uint64_t", "16",
           "Mutants (sites) tried per function (at least 1)">,
    Option<"function", "function", "std::string", "\"\"",
           "Optimize only this function">,
    Option<"regionBound", "region-bound", "double", "-60",
           "log2 of the region analysis's error bound (-200 to -1)">,
    Option<"maxBoxes", "max-boxes", "uint64_t", "100000",
           "Most boxes an output of a site may be cut into">,
    Option<"fieldBits", "field-bits", "unsigned", "31",
           "Bits of the random prime q of the region tests and the verifier "
           "(31 to 62)">,
    Option<"seed", "seed", "uint64_t", "0",
           "Seed of the region tests and the verification">,
    VerifierScalesOption,
    VerifierTimeLimitOption,
    Option<"plantWrongCorrection", "plant-wrong-correction", "bool", "false",
           "Leave the first wrong interval uncorrected (a test that "
           "verification rejects it)">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect"];
}

def JointOptimize : Pass<"joint-optimize", "::mlir::ModuleOp"> {
  let summary = "Graph rewrites ranked by what the µGraph search makes of them";
  let description = [{
    One search across the graph and µGraph levels (docs/JointSearch.md):
    `--graph-optimize`'s best-first search over the rules' rewrites, with
    each graph ranked by its cost as `--superoptimize` would schedule it
    instead of the sum of its ops' predefined kernels. A graph is cut into
    segments as `--superoptimize` cuts subprograms (the ops the µGraph
    search handles, grouped by data dependence, at most
    `max-subprogram-ops` each); each segment's µGraph is searched once per
    run (a memo keyed by the segment's generic form), the other ops cost
    their predefined kernels and ops on weights only cost nothing (folded
    before the run, as in TASO). Only graphs whose predefined-kernel cost is
    at most `prefilter` times the input's are costed by the µGraph search;
    at most `mugraph-searches` µGraph searches run, each within
    `state-budget` states. The `candidates` cheapest graphs by
    predefined-kernel cost (what `--graph-optimize` would pick) are costed
    too, so the joint result is never worse than either search alone (by
    more than `min-gain`, below) when the budgets let them be costed.

    Graphs are ranked by their segments' µGraph costs unverified (a lower
    bound; the input's are verified from the start). Among the graphs the
    cheapest one does not beat by more than `min-gain` (a fraction, 0.001),
    the one with the fewest rewrites is chosen: a near tie keeps the input,
    with nothing extra to check, and the remark gives the cost of the
    cheapest graph declined and of the one kept. The chosen graph, and the
    cheapest when its verified cost could let a graph with fewer rewrites
    into the near tie, are costed again with their µGraphs verified (at
    most `candidates` graphs besides the input) until verified costs
    settle the choice. The graph chosen is checked
    against the input with `--verify-equivalence`'s checks (unless it is
    the input as written; if it fails, it is dropped and the choice made
    again) and emitted as
    kernel-level IR: each segment's µGraph, verified against the segment by
    its search as `--superoptimize` verifies it, and the other ops'
    predefined kernels. A remark states the rewrites applied, the
    estimated times of the default schedule, graph-only, µGraph-only and
    joint results, the searches' counts and budgets, and the verification.
    Everything is deterministic except the wall-clock safety limits, which
    the remark reports when they bind.
  }];
  let options = [
    Option<"rules", "rules", "std::string", "\"\"",
           "Rule file (empty: the built-in rule set)">,
    SearchTargetOption,
    CalibrationOption,
    Option<"alpha", "alpha", "double", "1.05",
           "Relaxation of the graph search: keep graphs costing less than "
           "alpha times the best (1 to 10)">,
    Option<"budget", "budget", "uint64_t", "100",
           "Graphs taken from the queue per function (at least 1)">,
    Option<"maxQueue", "max-queue", "uint64_t", "20000",
           "Most graphs the queue holds">,
    Option<"timeLimit", "time-limit", "double", "600",
           "Seconds of graph search per function: a safety limit (0: none)">,
    Option<"reverse", "reverse", "bool", "true",
           "Apply rules in both directions">,
    Option<"weightsFrom", "weights-from", "int64_t", "-1",
           "Arguments from this index on are weights (-1: none but those "
           "marked mirage.weight)">,
    Option<"function", "function", "std::string", "\"\"",
           "Optimize only this function">,
    Option<"prefilter", "prefilter", "double", "1.5",
           "µGraph-cost only graphs whose predefined-kernel cost is at most "
           "this times the input's (1 to 100)">,
    Option<"candidates", "candidates", "unsigned", "4",
           "Cheapest graphs by predefined-kernel cost also µGraph-costed, "
           "and graphs besides the input whose µGraphs are verified "
           "(1 to 64)">,
    Option<"minGain", "min-gain", "double", "0.001",
           "Least relative gain for which a graph with more rewrites is "
           "preferred to one with fewer, the input included (a fraction, "
           "at least 0 and below 1; 0: any strictly lower cost)">,
    Option<"mugraphSearches", "mugraph-searches", "uint64_t", "64",
           "µGraph searches (distinct segments) per function (at least 1)">,
    Option<"stateBudget", "state-budget", "uint64_t", "1000000",
           "Search states per µGraph search (> 0)">,
    Option<"memoryBudget", "memory-budget", "uint64_t", "4096",
           "MiB a µGraph search's own data may take (1 to 1048576)">,
    Option<"timeBudget", "time-budget", "double", "600",
           "Wall-clock safety limit in seconds per µGraph search (> 0)">,
    Option<"kernelOps", "kernel-ops", "unsigned", "5",
           "Most kernels in a µGraph (1 to 64)">,
    Option<"blockOps", "block-ops", "unsigned", "11",
           "Most block ops in a graph-defined kernel (3 to 32)">,
    Option<"gridDims", "grid-dims", "unsigned", "2",
           "Most grid dimensions of a graph-defined kernel (1 to 3)">,
    Option<"kernelOutputs", "kernel-outputs", "unsigned", "2",
           "Most device tensors a graph-defined kernel writes (1 to 8)">,
    Option<"maxSubprogramOps", "max-subprogram-ops", "unsigned", "8",
           "Most graph ops in one segment (1 to 20)">,
    Option<"threadFusion", "thread-fusion", "bool", "true",
           "Fuse elementwise chains of each µGraph into thread.fused ops, as "
           "--superoptimize does">,
    Option<"threads", "threads", "unsigned", "0",
           "µGraph search threads (0: MLIR's thread pool; 1: the calling "
           "thread; at most 1024)">,
    VerifierFieldBitsOption,
    VerifierSeedOption,
    VerifierScalesOption,
    Option<"verifyTimeLimit", "verify-time-limit", "double", "600",
           "Seconds per whole-function verification (0: none)">,
    Option<"progress", "progress", "bool", "false",
           "Print the graph search's progress and a line per µGraph search "
           "on stderr">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect",
                           "::mirage::kernel::KernelDialect",
                           "::mirage::block::BlockDialect",
                           "::mirage::thread::ThreadDialect",
                           "::mlir::func::FuncDialect"];
}

def GraphSaturate : Pass<"graph-saturate", "::mlir::ModuleOp"> {
  let summary = "Equality saturation over the rules of a rule file";
  let description = [{
    Rewrites each graph function by equality saturation
    (docs/EqualitySaturation.md; Tensat, MLSys'21): the function becomes an
    e-graph, every rule direction of the rule file is applied to it (rules
    with two outputs matched with one consistent binding) until it is
    saturated or a limit is reached (`node-limit` e-nodes, by default
    `node-factor` times the input's e-nodes and at least 2,000;
    `iter-limit` iterations; rules with two outputs only in the first
    `multi-iter-limit` iterations, as Tensat does; a rule direction with
    more than `match-limit` matches in an iteration is banned for a while,
    egg's backoff; `time-limit` is a wall-clock safety cut the remark
    reports), and the cheapest graph is extracted: `extraction=sharing`
    (the default) takes each e-class's cheapest e-node bottom-up and then
    improves the graph's cost, where a shared subterm is paid once, by a
    local search of at most `extract-eval-limit` cost evaluations;
    `extraction=ilp` solves Tensat's integer program with Z3's optimizer
    (optimal; a cycle-free pick), falling back to `sharing` with a remark
    when the e-graph is over `ilp-node-limit` e-nodes or Z3 gives no
    optimum within `ilp-resource-limit` (Z3's deterministic resource count,
    so the same input gives the same result on any machine;
    `ilp-time-limit` is only a wall-clock safety cut); `extraction=greedy`
    is the bottom-up pick alone. Costs are the analytic cost model's times
    on `target`; ops on weights only cost nothing (folded before the run,
    as in TASO).

    The extracted graph replaces the function only if it is cheaper and
    `--verify-equivalence`'s checks pass against the input; the remark
    states the e-graph's e-nodes and e-classes, the iterations, what
    stopped the saturation, the extraction, the cost before and after, the
    times and the verification.
  }];
  let options = [
    Option<"rules", "rules", "std::string", "\"\"",
           "Rule file (empty: the built-in rule set)">,
    SearchTargetOption,
    Option<"nodeLimit", "node-limit", "uint64_t", "0",
           "Most e-nodes of the e-graph (0: node-factor times the input's "
           "e-nodes, at least 2000)">,
    Option<"nodeFactor", "node-factor", "unsigned", "10",
           "With node-limit=0, the e-node limit per e-node of the input "
           "(1 to 1000)">,
    Option<"iterLimit", "iter-limit", "unsigned", "8",
           "Most saturation iterations (at least 1)">,
    Option<"multiIterLimit", "multi-iter-limit", "unsigned", "0",
           "Iterations in which rules with two outputs are matched (0: all)">,
    Option<"timeLimit", "time-limit", "double", "60",
           "Seconds of saturation per function: a safety limit (0: none)">,
    Option<"matchLimit", "match-limit", "uint64_t", "1000",
           "Matches of one rule direction per iteration before it is banned "
           "for a few iterations (at least 1)">,
    Option<"extraction", "extraction", "std::string", "\"sharing\"",
           "Extraction: greedy, sharing or ilp">,
    Option<"extractEvalLimit", "extract-eval-limit", "uint64_t", "20000",
           "Most graph-cost evaluations of the sharing extraction's local "
           "search (at least 1)">,
    Option<"ilpNodeLimit", "ilp-node-limit", "uint64_t", "3000",
           "Most e-nodes for the ILP extraction (beyond: sharing)">,
    Option<"ilpResourceLimit", "ilp-resource-limit", "uint64_t",
           "100000000",
           "Z3's deterministic resource limit for the ILP, over all its "
           "rounds (beyond: sharing; 0: none; about 10 M per second here)">,
    Option<"ilpTimeLimit", "ilp-time-limit", "double", "0",
           "Seconds for Z3's ILP: a wall-clock safety cut the remark reports "
           "(beyond: sharing; 0: none)">,
    Option<"reverse", "reverse", "bool", "true",
           "Apply rules in both directions">,
    Option<"weightsFrom", "weights-from", "int64_t", "-1",
           "Arguments from this index on are weights (-1: none but those "
           "marked mirage.weight)">,
    Option<"function", "function", "std::string", "\"\"",
           "Optimize only this function">,
    VerifierFieldBitsOption,
    VerifierSeedOption,
    VerifierScalesOption,
    VerifierTimeLimitOption,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect"];
}

#endif // MIRAGE_TRANSFORMS_PASSES_TD
