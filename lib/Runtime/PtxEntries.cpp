//===- PtxEntries.cpp - the kernels a PTX module defines ------------------===//
//
// The launch checks over the PtxModule that the emulator's parser builds:
// mirage-gpu-run reads a program's PTX once, for these checks and, with
// --emulate, for the emulator.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/PtxEntries.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <array>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

namespace {

std::string formatDims(ArrayRef<unsigned> dims) {
  return join(map_range(dims, [](unsigned d) { return std::to_string(d); }),
              ", ");
}

/// A .maxntid or .reqntid (1 to 3 numbers) with its missing dims as 1.
std::array<unsigned, 3> paddedDims(ArrayRef<unsigned> dims) {
  std::array<unsigned, 3> padded{1, 1, 1};
  for (auto [i, d] : enumerate(dims.take_front(3)))
    padded[i] = d;
  return padded;
}

} // namespace

Expected<emulator::PtxModule> gpurun::readPtxModule(StringRef ptx,
                                                    StringRef path) {
  Expected<emulator::PtxModule> module = emulator::parsePtx(ptx);
  if (!module)
    return createStringError(inconvertibleErrorCode(),
                             ("cannot parse the PTX '" + path + "': " + toString(module.takeError()))
                                 .str());
  return module;
}

Error gpurun::checkLaunchesAgainstPtx(const Manifest &manifest,
                                      const emulator::PtxModule &module) {
  auto fail = [&](const Twine &where, const Twine &message) {
    return createStringError(
        inconvertibleErrorCode(),
        (manifest.path + ": " + where + ": " + message).str());
  };
  if (!module.target.empty() && module.target != manifest.chip)
    return fail("chip", "\"" + manifest.chip + "\", but the PTX '" +
                            manifest.ptxPath + "' targets " + module.target);
  for (const Function &function : manifest.functions) {
    for (auto [i, launch] : enumerate(function.launches)) {
      std::string where = function.where + ".launches[" + std::to_string(i) +
                          "]";
      const emulator::PtxKernel *entry = nullptr;
      for (const emulator::PtxKernel &kernel : module.kernels)
        if (kernel.name == launch.kernel)
          entry = &kernel;
      if (!entry) {
        SmallVector<StringRef> names;
        for (const emulator::PtxKernel &kernel : module.kernels)
          names.push_back(kernel.name);
        sort(names);
        return fail(where + ".kernel",
                    "\"" + launch.kernel + "\" is not an .entry of the PTX '" +
                        manifest.ptxPath + "' (" +
                        (names.empty() ? "it has none"
                                       : "it has " + join(names, ", ")) +
                        ")");
      }
      if (entry->params.size() != launch.args.size())
        return fail(where + ".args",
                    Twine(launch.args.size()) + " buffer" +
                        (launch.args.size() == 1 ? "" : "s") + ", but .entry " +
                        launch.kernel + " takes " + Twine(entry->params.size()) +
                        " parameter" + (entry->params.size() == 1 ? "" : "s"));
      for (auto [j, param] : enumerate(entry->params))
        if (param.arraySize ||
            !is_contained({".u64", ".b64", ".s64"}, StringRef(param.type)))
          return fail(where + ".args[" + Twine(j) + "]",
                      ".entry " + launch.kernel + " takes " +
                          (param.arraySize ? "an array of " + param.type
                                         : param.type) +
                          " as parameter " + Twine(j) +
                          ", not the 64-bit device pointer a buffer is "
                          "passed as");
      ArrayRef<unsigned> block = launch.block;
      std::string blockText = "[" + formatDims(block) + "]";
      if (!entry->reqntid.empty() &&
          ArrayRef<unsigned>(paddedDims(entry->reqntid)) != block)
        return fail(where + ".block",
                    blockText + ", but .entry " + launch.kernel +
                        " requires .reqntid " +
                        formatDims(paddedDims(entry->reqntid)));
      if (!entry->maxntid.empty()) {
        std::array<unsigned, 3> max = paddedDims(entry->maxntid);
        uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
        uint64_t allowed = uint64_t(max[0]) * max[1] * max[2];
        if (threads > allowed)
          return fail(where + ".block",
                      blockText + " has " + Twine(threads) +
                          " threads, more than .entry " + launch.kernel +
                          " allows (.maxntid " + formatDims(max) + ")");
      }
    }
  }
  return Error::success();
}
