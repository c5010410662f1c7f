//===- Passes.td - passes that check and report -*- tablegen -*-===//

// Passes that check or describe a program and leave it unchanged: the
// equivalence verifier, the re-check of a rule file, the cost model's
// estimate and the µGraph pictures.

#ifndef MIRAGE_REPORTS_PASSES_TD
#define MIRAGE_REPORTS_PASSES_TD

include "mlir/Pass/PassBase.td"
include "mirage/Target/TargetPassOptions.td"

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

#endif // MIRAGE_REPORTS_PASSES_TD
