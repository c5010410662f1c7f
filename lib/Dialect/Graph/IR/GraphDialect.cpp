//===- GraphDialect.cpp - graph dialect -----------------------------------===//

#include "Dialect/Graph/GraphDialect.h"
#include "Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace mirage::graph;

#include "Dialect/Graph/GraphDialect.cpp.inc"
#include "Dialect/Graph/GraphEnums.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Graph/GraphOps.cpp.inc"
      >();
}
