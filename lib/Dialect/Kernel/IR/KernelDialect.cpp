//===- KernelDialect.cpp - kernel dialect ---------------------------------===//

#include "Dialect/Kernel/KernelDialect.h"
#include "Dialect/Block/BlockOps.h"
#include "Dialect/Kernel/KernelOps.h"

using namespace mlir;
using namespace mirage::kernel;

#include "Dialect/Kernel/KernelDialect.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Kernel/KernelOps.cpp.inc"
      >();
}
