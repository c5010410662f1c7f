//===- Passes.td - the optimizations -*- tablegen -*-===//

// The optimizations: the µGraph search, thread fusion, TASO-style rule
// discovery and rewriting, PET, the joint search and equality saturation.

#ifndef MIRAGE_TRANSFORMS_PASSES_TD
#define MIRAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"
include "mirage/Target/TargetPassOptions.td"
include "mirage/Superopt/Verification/VerifierPassOptions.td"
include "mirage/Superopt/Search/SearchPassOptions.td"

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
    SearchKernelOpsOption,
    SearchBlockOpsOption,
    SearchGridDimsOption,
    SearchKernelOutputsOption,
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
    SearchMemoryBudgetOption,
    Option<"timeBudget", "time-budget", "double", "600",
           "Wall-clock safety limit in seconds per subprogram (the "
           "enumeration stops at half of it); a search it cuts is reported "
           "and not cached (> 0)">,
    Option<"pruning", "pruning", "bool", "true",
           "Abstract-expression pruning (off only for the ablation)">,
    SearchThreadsOption,
    SearchMaxSubprogramOpsOption,
    SearchThreadFusionOption,
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
    SearchMemoryBudgetOption,
    Option<"timeBudget", "time-budget", "double", "600",
           "Wall-clock safety limit in seconds per µGraph search (> 0)">,
    SearchKernelOpsOption,
    SearchBlockOpsOption,
    SearchGridDimsOption,
    SearchKernelOutputsOption,
    SearchMaxSubprogramOpsOption,
    SearchThreadFusionOption,
    SearchThreadsOption,
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
