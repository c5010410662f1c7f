//===- MirageDialectPlugin.cpp - graph/kernel/block/thread as a plugin ----===//
//
//   mlir-opt --load-dialect-plugin=build/lib/MirageDialectPlugin.so in.mlir
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MirageDialects", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mirage::registerMirageDialects(*registry);
          }};
}
