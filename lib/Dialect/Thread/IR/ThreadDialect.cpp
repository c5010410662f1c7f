//===- ThreadDialect.cpp - thread dialect ---------------------------------===//

#include "Dialect/Thread/ThreadDialect.h"
#include "Dialect/Thread/ThreadOps.h"

using namespace mlir;
using namespace mirage::thread;

#include "Dialect/Thread/ThreadDialect.cpp.inc"

void ThreadDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Thread/ThreadOps.cpp.inc"
      >();
}
