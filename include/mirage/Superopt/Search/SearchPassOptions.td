//===- SearchPassOptions.td - µGraph search options passes share -*- tablegen -*-===//
//
// The options of the µGraph search that --superoptimize and
// --joint-optimize both give, defined once so that their names, defaults
// and help cannot drift apart; the passes hand them to the search driver
// (SearchDriver.h, SearchPassOptions). The state budget and the time budget
// stay per pass: their defaults differ (one search per subprogram, against
// many per function in the joint search).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SEARCH_SEARCHPASSOPTIONS_TD
#define MIRAGE_SUPEROPT_SEARCH_SEARCHPASSOPTIONS_TD

include "mlir/Pass/PassBase.td"

def SearchKernelOpsOption : Option<"kernelOps", "kernel-ops", "unsigned", "5",
    "Most kernels in a µGraph (1 to 64)">;
def SearchBlockOpsOption : Option<"blockOps", "block-ops", "unsigned", "11",
    "Most block ops in a graph-defined kernel, inputs and output included "
    "(3 to 32)">;
def SearchGridDimsOption : Option<"gridDims", "grid-dims", "unsigned", "2",
    "Most grid dimensions of a graph-defined kernel over its output's "
    "variables (1 to 3); a split of its loop variable takes one more, up to "
    "3 in all">;
def SearchKernelOutputsOption : Option<"kernelOutputs", "kernel-outputs",
    "unsigned", "2",
    "Most device tensors a graph-defined kernel writes (1 to 8): the partial "
    "results of a split loop, one per sum accumulator and two per online "
    "softmax; with 2 or more, a kernel may also save a program value it "
    "computes on the way to its goal">;
def SearchMemoryBudgetOption : Option<"memoryBudget", "memory-budget",
    "uint64_t", "4096",
    "MiB a µGraph search's own data may take, split among the tasks running "
    "at once (1 to 1048576)">;
def SearchMaxSubprogramOpsOption : Option<"maxSubprogramOps",
    "max-subprogram-ops", "unsigned", "8",
    "Most graph ops in one searched subprogram (1 to 20)">;
def SearchThreadFusionOption : Option<"threadFusion", "thread-fusion", "bool",
    "true", "Fuse each µGraph's elementwise chains into thread.fused ops "
    "afterwards">;
def SearchThreadsOption : Option<"threads", "threads", "unsigned", "0",
    "Search threads (0: MLIR's thread pool; 1 or --mlir-disable-threading: "
    "the calling thread; at most 1024); the result does not depend on them">;

#endif // MIRAGE_SUPEROPT_SEARCH_SEARCHPASSOPTIONS_TD
