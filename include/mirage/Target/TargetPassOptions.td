//===- TargetPassOptions.td - the target options passes share -*- tablegen -*-===//
//
// One definition of each option that names a GPU, for every pass that has
// one, so that the name, the default and the help cannot differ between
// the search, the cost model and the lowering (issue 25). The names are
// those of the target database (include/mirage/Target/KnownTargets.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_TARGETPASSOPTIONS_TD
#define MIRAGE_TARGET_TARGETPASSOPTIONS_TD

include "mlir/Pass/PassBase.td"

// The default everywhere is sm_90 (target::kDefaultTarget). Passes that
// rank candidates by the cost model record the target on each function
// they rewrite (`mirage.target`); the passes after a search (cost reports,
// lowering) default to that.
def SearchTargetOption : Option<"target", "target", "std::string",
    "\"sm_90\"",
    "GPU whose cost model ranks the candidates: an arch (sm_80) or product "
    "(H200-SXM-141GB) of the target database">;

def EstimateTargetOption : Option<"target", "target", "std::string", "\"\"",
    "GPU whose cost model estimates: an arch or product of the target "
    "database (default: the target the function was searched for, "
    "mirage.target, else sm_90)">;

def LoweringTargetOption : Option<"target", "target", "std::string", "\"\"",
    "GPU to generate code for: an arch or product of the target database "
    "(default: the target the function was searched for, mirage.target, "
    "else sm_90)">;

def CalibrationOption : Option<"calibration", "calibration", "std::string",
    "\"\"", "JSON file overriding the target's constants and giving "
    "measured kernel times (docs/CostModel.md)">;

#endif // MIRAGE_TARGET_TARGETPASSOPTIONS_TD
