//===- GraphOps.h - graph dialect operations --------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_GRAPH_GRAPHOPS_H
#define MIRAGE_DIALECT_GRAPH_GRAPHOPS_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mirage/Dialect/Graph/GraphInterfaces.h.inc"

#define GET_OP_CLASSES
#include "mirage/Dialect/Graph/GraphOps.h.inc"

#endif // MIRAGE_DIALECT_GRAPH_GRAPHOPS_H
