//===- Passes.h - mirage-opt lowering and import passes ---------*- C++ -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Transforms/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
