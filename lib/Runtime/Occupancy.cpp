//===- Occupancy.cpp - ptxas's resource use and the SM occupancy ----------===//

#include "mirage/Runtime/Occupancy.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include <algorithm>

using namespace llvm;
using namespace mirage::gpurun;

Expected<std::string> mirage::gpurun::findPtxas() {
  SmallVector<std::string, 2> dirs;
  if (std::optional<std::string> home = sys::Process::GetEnv("CUDA_HOME"))
    dirs.push_back(*home + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
  if (ErrorOr<std::string> path = sys::findProgramByName("ptxas"))
    return *path;
  SmallVector<StringRef, 2> paths(dirs.begin(), dirs.end());
  if (ErrorOr<std::string> path = sys::findProgramByName("ptxas", paths))
    return *path;
  return createStringError(inconvertibleErrorCode(),
                           "no ptxas on PATH, in $CUDA_HOME/bin or in "
                           "/usr/local/cuda/bin");
}

StringMap<KernelResources>
mirage::gpurun::parsePtxasVerbose(StringRef report) {
  // "ptxas info    : Compiling entry function 'k' for 'sm_80'" starts a
  // kernel; its "Used 40 registers, used 1 barriers, 16 bytes smem, ..."
  // line follows.
  Regex entry("Compiling entry function '([^']+)'");
  Regex used("Used ([0-9]+) registers");
  Regex smem("([0-9]+) bytes smem");
  StringMap<KernelResources> kernels;
  std::string current;
  SmallVector<StringRef, 64> lines;
  report.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef, 2> match;
    if (entry.match(line, &match)) {
      current = match[1].str();
      continue;
    }
    if (current.empty() || !used.match(line, &match))
      continue;
    KernelResources &resources = kernels[current];
    match[1].getAsInteger(10, resources.registers);
    if (smem.match(line, &match))
      match[1].getAsInteger(10, resources.staticSharedBytes);
    current.clear();
  }
  return kernels;
}

Expected<StringMap<KernelResources>>
mirage::gpurun::readKernelResources(StringRef ptxas, StringRef ptxPath,
                                    StringRef chip) {
  SmallString<128> log;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("mirage-ptxas", "txt", log))
    return createStringError(ec, "cannot create a temporary file");
  scope_exit removeLog([&] { sys::fs::remove(log); });
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef, 8> args = {ptxas, "-v", arch, ptxPath, "-o",
                                    "/dev/null"};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int status = sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                   /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                   &message);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(log);
  if (status != 0)
    return createStringError(
        inconvertibleErrorCode(),
        "'" + ptxas.str() + " -v " + arch + "' failed" +
            (message.empty() ? "" : ": " + message) +
            (text ? ": " + (*text)->getBuffer().take_back(2000).str() : ""));
  if (!text)
    return createStringError(text.getError(), "cannot read ptxas's report");
  return parsePtxasVerbose((*text)->getBuffer());
}

Occupancy mirage::gpurun::computeOccupancy(const superopt::GpuTarget &target,
                                           const KernelResources &resources,
                                           unsigned threadsPerCta,
                                           uint64_t dynamicSharedBytes,
                                           uint64_t gridCtas) {
  // CUDA's occupancy rules for compute capability 8.x and 9.x: registers
  // are allocated per warp in units of 256, shared memory per CTA in units
  // of 128 bytes plus 1 KiB reserved by the system.
  Occupancy result;
  uint64_t warpsPerCta = (threadsPerCta + 31) / 32;
  uint64_t maxWarps = target.maxThreadsPerSM / 32;
  result.sharedBytesPerCta =
      (resources.staticSharedBytes + dynamicSharedBytes + 127) / 128 * 128 +
      1024;
  uint64_t regsPerWarp = (uint64_t(resources.registers) * 32 + 255) / 256 * 256;

  struct Limit {
    uint64_t ctas;
    const char *name;
  };
  Limit limits[] = {
      {uint64_t(target.maxBlocksPerSM), "CTAs"},
      {warpsPerCta ? maxWarps / warpsPerCta : 0, "warps"},
      {regsPerWarp ? uint64_t(target.regsPerSM) / (regsPerWarp * warpsPerCta)
                   : uint64_t(target.maxBlocksPerSM),
       "registers"},
      {uint64_t(target.smemPerSMBytes) / result.sharedBytesPerCta,
       "shared memory"}};
  const Limit *tightest = &limits[0];
  for (const Limit &limit : limits)
    if (limit.ctas < tightest->ctas)
      tightest = &limit;
  result.ctasPerSM = unsigned(tightest->ctas);
  result.limitedBy = tightest->name;
  result.occupancy =
      maxWarps ? double(result.ctasPerSM * warpsPerCta) / maxWarps : 0;
  uint64_t perWave = uint64_t(target.numSMs) * result.ctasPerSM;
  result.waves = perWave ? (gridCtas + perWave - 1) / perWave : 0;
  return result;
}
