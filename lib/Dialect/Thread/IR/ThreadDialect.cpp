//===- ThreadDialect.cpp - thread dialect ---------------------------------===//

#include "mirage/Dialect/Thread/ThreadDialect.h"
#include "mirage/Dialect/Thread/ThreadOps.h"

using namespace mlir;
using namespace mirage::thread;

#include "mirage/Dialect/Thread/ThreadDialect.cpp.inc"

void ThreadDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mirage/Dialect/Thread/ThreadOps.cpp.inc"
      >();
}
