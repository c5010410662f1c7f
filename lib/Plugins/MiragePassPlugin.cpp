//===- MiragePassPlugin.cpp - mirage-opt's passes as a plugin -------------===//
//
//   mlir-opt --load-pass-plugin=build/lib/MiragePassPlugin.so \
//            --pass-pipeline='builtin.module(func.func(graph-to-kernel))'
//
// The passes (the importers among them) and the mirage-to-ptx pipeline, as
// in mirage-opt.
//
//===----------------------------------------------------------------------===//

#include "mirage/Init/InitMirageOpt.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MiragePasses", LLVM_VERSION_STRING,
          []() {
            mirage::registerMirageOptPasses();
          }};
}
