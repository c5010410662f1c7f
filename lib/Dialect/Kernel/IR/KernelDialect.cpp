//===- KernelDialect.cpp - kernel dialect ---------------------------------===//

#include "mirage/Dialect/Kernel/KernelDialect.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"

using namespace mlir;
using namespace mirage::kernel;

#include "mirage/Dialect/Kernel/KernelDialect.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mirage/Dialect/Kernel/KernelOps.cpp.inc"
      >();
}
