//===- GraphDialect.cpp - graph dialect -----------------------------------===//

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Dialect/Graph/GraphOps.h"

using namespace mlir;
using namespace mirage::graph;

#include "mirage/Dialect/Graph/GraphDialect.cpp.inc"
#include "mirage/Dialect/Graph/GraphEnums.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mirage/Dialect/Graph/GraphOps.cpp.inc"
      >();
}
