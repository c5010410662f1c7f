//===- ExternDynamicSharedMemory.cpp - extern .shared dynamic memory ------===//
//
// --convert-gpu-to-nvvm lowers gpu.dynamic_shared_memory to the address of
// a zero-sized global in the shared address space, with internal linkage.
// LLVM translates that into a definition, `internal addrspace(3) global
// [0 x i8] undef`, and the NVPTX backend into a 1-byte static variable,
// `.shared .align 16 .b8 __dynamic_shmem__0;`, which the kernels index far
// past: ptxas warns of a potential out-of-bound access wherever the offset
// is a constant, gives each kernel 1 byte of static shared memory, and the
// launch's dynamic area lies after that variable, not at it (PTX ISA,
// "Shared State Space"). An external declaration of the same global is
// what CUDA C++'s `extern __shared__` array becomes,
// `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`: an array as large
// as the launch's dynamic shared memory, at its start. No static shared
// memory, no warnings, and the emulator's memcheck sees any overrun of the
// dynamic size (before, the first 16 bytes past it were the padding after
// the variable).
//
//===----------------------------------------------------------------------===//

#include "mirage/Target/Cuda/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mirage {
#define GEN_PASS_DEF_EXTERNDYNAMICSHAREDMEMORY
#include "mirage/Target/Cuda/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

/// Whether `global` is a dynamic shared memory base defined in this module:
/// a zero-sized array in the shared address space with no value and local
/// linkage, which no kernel can use except as the start of the dynamic
/// area.
static bool isLocalDynamicSharedMemory(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  LLVM::Linkage linkage = global.getLinkage();
  return global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared && array &&
         array.getNumElements() == 0 && !global.getValueOrNull() &&
         global.getInitializerRegion().empty() &&
         (linkage == LLVM::Linkage::Internal ||
          linkage == LLVM::Linkage::Private);
}

namespace {
struct ExternDynamicSharedMemoryPass
    : mirage::impl::ExternDynamicSharedMemoryBase<
          ExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    // An external global without a value is a declaration.
    getOperation()->walk([](LLVM::GlobalOp global) {
      if (isLocalDynamicSharedMemory(global))
        global.setLinkage(LLVM::Linkage::External);
    });
  }
};
} // namespace
