//===- GpuChip.h - the GPU lowering's view of a target -------*- C++ -*-===//
//
// What the GPU lowering needs to know about each chip it supports: its
// shared memory per block, which instructions it has, and the PTX ISA
// version its code is emitted in. Every lowering pass (kernel-to-block,
// block-to-gpu, emit-gpu-artifacts, the mirage-to-ptx pipeline) and
// mirage-gpu-run read the chip from here, so that a chip is supported
// everywhere or nowhere.
//
// The numbers are not here: each GpuChip is derived from the arch's
// reference entry of the target database (include/mirage/Target/KnownTargets.h,
// issue 25), which names their sources. This header only chooses what the
// lowering supports (every arch of the database) and says why a name is
// not supported.
//
// Free of MLIR: mirage-gpu-run also builds without the lowering libraries
// (it links MirageTarget).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_GPUCHIP_H
#define MIRAGE_TRANSFORMS_GPUCHIP_H

#include "mirage/Target/KnownTargets.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mirage {

/// The tensor-core instruction a chip gives f16 matmuls.
enum class GpuMma {
  /// None usable: CUDA-core dot products.
  None,
  /// mma.sync.aligned.m16n8k8 (sm_75): two per 16-deep K step.
  M16N8K8,
  /// mma.sync.aligned.m16n8k16 (sm_80 and later).
  M16N8K16,
};

struct GpuChip {
  /// The name LLVM's NVPTX backend, ptxas and the manifest use: "sm_80".
  std::string name;
  /// Compute capability as major * 10 + minor: 80.
  unsigned computeCapability;
  /// The first PTX ISA version that knows the chip, as major * 10 + minor:
  /// what LLVM's NVPTX backend emits without a "+ptx<N>" target feature.
  unsigned minPtxVersion;
  /// The PTX ISA version the kernels are emitted in: the first that knows
  /// the chip and every instruction the code generator uses on it (the
  /// mirage-to-ptx pipeline passes it to LLVM as the "+ptx<N>" feature).
  unsigned ptxVersion;
  /// The most shared memory one block may use, in bytes (opt-in maximum,
  /// cudaDevAttrMaxSharedMemoryPerBlockOptin).
  int64_t maxSharedMemoryPerBlock;
  /// The most shared memory one SM has for its resident blocks, in bytes.
  int64_t sharedMemoryPerSM;
  /// cp.async (global to shared without registers): sm_80 and later.
  bool hasCpAsync;
  GpuMma mma;
};

/// Limits common to every chip of the table (every CUDA GPU since compute
/// capability 3.0).
constexpr int64_t kGpuMaxThreadsPerBlock = 1024;
constexpr int64_t kGpuMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kGpuMaxGridYZ = 65535;
/// The most elements a tensor of a GPU kernel may have: 2^38 elements of
/// f16 are 512 GiB, more than the device memory of any GPU. Below it no
/// size the lowering computes from a shape (bytes, tile products, block
/// counts, byte offsets) overflows 64 bits.
constexpr int64_t kGpuMaxTensorElements = int64_t(1) << 38;
/// The first PTX ISA versions of the instructions the code generator
/// emits beyond the basics.
constexpr unsigned kPtxVersionOfCpAsync = 70;
constexpr unsigned kPtxVersionOfMmaM16N8K16 = 70;
constexpr unsigned kPtxVersionOfMmaM16N8K8 = 65;
/// Dynamic shared memory above this needs the kernel attribute
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES raised first.
constexpr int64_t kGpuDefaultSharedMemoryPerBlock = 48 * 1024;

/// The supported chips, oldest first: one for each arch of the target
/// database, from its reference product.
inline llvm::ArrayRef<GpuChip> getGpuChips() {
  static const std::vector<GpuChip> chips = [] {
    std::vector<GpuChip> result;
    for (const target::TargetInfo &t : target::getKnownTargets()) {
      if (!t.isArchReference)
        continue;
      // The f16 mma.sync shape decides the instruction: m16n8k8 (Turing)
      // needs two per 16-deep K step.
      const target::MmaShape &mma =
          t.getTensorCores(target::MmaType::F16).mmaSync;
      GpuMma kind = !mma.isAvailable() ? GpuMma::None
                    : mma.k == 16      ? GpuMma::M16N8K16
                                       : GpuMma::M16N8K8;
      result.push_back({t.arch, t.computeCapability, t.minPtxVersion,
                        t.ptxVersion, t.sharedMemoryPerBlockOptin,
                        t.sharedMemoryPerSM, t.hasCpAsync, kind});
    }
    return result;
  }();
  return chips;
}

/// The chip called `name`, or nullptr when the lowering does not support
/// it.
inline const GpuChip *lookupGpuChip(llvm::StringRef name) {
  for (const GpuChip &chip : getGpuChips())
    if (chip.name == name)
      return &chip;
  return nullptr;
}

/// The chip of `target`: an arch ("sm_90") or a product of the target
/// database ("H200-SXM-141GB", lowered for its arch); nullptr when the
/// lowering does not support it.
inline const GpuChip *lookupGpuChipOfTarget(llvm::StringRef target) {
  if (const GpuChip *chip = lookupGpuChip(target))
    return chip;
  llvm::Expected<const target::TargetInfo &> info =
      target::lookupTarget(target);
  if (!info) {
    llvm::consumeError(info.takeError());
    return nullptr;
  }
  return lookupGpuChip(info->arch);
}

/// "sm_75, sm_80, ..., sm_120".
inline std::string supportedGpuChipNames() {
  std::string names;
  for (const GpuChip &chip : getGpuChips()) {
    if (!names.empty())
      names += ", ";
    names += chip.name;
  }
  return names;
}

/// Why `name` is not supported, for an error message: "chip 'sm_70' is not
/// supported (...); supported chips: sm_75, ...".
inline std::string unsupportedGpuChipMessage(llvm::StringRef name) {
  std::string why;
  if (name == "sm_70" || name == "sm_72")
    why = " (Volta has neither cp.async nor mma.sync m16n8k8/m16n8k16, and "
          "ptxas of CUDA 13 no longer targets it)";
  else if ((name.ends_with("a") || name.ends_with("f")) &&
           lookupGpuChip(name.drop_back()))
    why = " (the lowering uses no architecture- or family-specific "
          "instruction: name the chip without its suffix)";
  else if (name.starts_with("sm_"))
    why = " (its limits are not in the lowering's chip table)";
  else
    why = " (not an NVIDIA chip name like sm_90)";
  return "chip '" + name.str() + "' is not supported" + why +
         "; supported chips: " + supportedGpuChipNames();
}

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_GPUCHIP_H
