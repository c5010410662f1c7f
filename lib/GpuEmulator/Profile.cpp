//===- Profile.cpp - what a warp-level access costs -----------------------===//

#include "Profile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

llvm::StringRef mirage::emulator::instructionClassName(InstructionClass cls) {
  switch (cls) {
  case InstructionClass::IntegerArithmetic:
    return "integer";
  case InstructionClass::FloatArithmetic:
    return "float";
  case InstructionClass::SpecialFunction:
    return "special-function";
  case InstructionClass::Conversion:
    return "conversion";
  case InstructionClass::Move:
    return "move/select";
  case InstructionClass::GlobalMemory:
    return "global-memory";
  case InstructionClass::SharedMemory:
    return "shared-memory";
  case InstructionClass::ParamLoad:
    return "param-load";
  case InstructionClass::AsyncCopy:
    return "cp.async";
  case InstructionClass::Control:
    return "control";
  case InstructionClass::Barrier:
    return "barrier";
  case InstructionClass::WarpShuffle:
    return "shuffle";
  case InstructionClass::TensorCore:
    return "tensor-core";
  }
  llvm_unreachable("unknown instruction class");
}

ProfileCounters &ProfileCounters::operator+=(const ProfileCounters &other) {
  for (unsigned i = 0; i < kNumInstructionClasses; ++i)
    instructions[i] += other.instructions[i];
  globalLoadBytes += other.globalLoadBytes;
  globalLoadSectors += other.globalLoadSectors;
  globalStoreBytes += other.globalStoreBytes;
  globalStoreSectors += other.globalStoreSectors;
  sharedBytes += other.sharedBytes;
  sharedWavefronts += other.sharedWavefronts;
  sharedIdealWavefronts += other.sharedIdealWavefronts;
  tensorCoreFlops += other.tensorCoreFlops;
  return *this;
}

KernelReport &KernelReport::operator+=(const KernelReport &other) {
  threadInstructions += other.threadInstructions;
  warpInstructions += other.warpInstructions;
  barriers += other.barriers;
  profile += other.profile;
  return *this;
}

static bool isFloat(ScalarType type) {
  switch (type) {
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::F32:
  case ScalarType::F16x2:
  case ScalarType::BF16x2:
  case ScalarType::F64:
    return true;
  default:
    return false;
  }
}

/// PTX_CLASS_BY_TYPE of PtxOpcodes.def.
static InstructionClass arithmeticClass(const DecodedInstruction &inst) {
  return isFloat(inst.type) ? InstructionClass::FloatArithmetic
                            : InstructionClass::IntegerArithmetic;
}

/// PTX_CLASS_BY_SPACE of PtxOpcodes.def.
static InstructionClass memoryClass(const DecodedInstruction &inst) {
  switch (inst.space) {
  case Space::Global:
    return InstructionClass::GlobalMemory;
  case Space::Shared:
    return InstructionClass::SharedMemory;
  case Space::Param:
    return InstructionClass::ParamLoad;
  // Local memory is device memory, and a generic access's space is only
  // known per lane at run time.
  case Space::Local:
  case Space::Generic:
    return InstructionClass::GlobalMemory;
  }
  llvm_unreachable("unknown state space");
}

InstructionClass detail::classify(const DecodedInstruction &inst) {
  switch (inst.opcode) {
#define PTX_CLASS(Class) InstructionClass::Class
#define PTX_CLASS_BY_TYPE arithmeticClass(inst)
#define PTX_CLASS_BY_SPACE memoryClass(inst)
#define PTX_OPCODE(Enum, Mnemonic, Class)                                      \
  case Opcode::Enum:                                                           \
    return Class;
#include "PtxOpcodes.def"
#undef PTX_CLASS
#undef PTX_CLASS_BY_TYPE
#undef PTX_CLASS_BY_SPACE
  }
  llvm_unreachable("unknown opcode");
}

void detail::globalSectorList(llvm::ArrayRef<LaneAccess> accesses,
                              unsigned size,
                              llvm::SmallVectorImpl<uint64_t> &sectors) {
  sectors.clear();
  for (const LaneAccess &access : accesses)
    for (uint64_t s = access.address / 32,
                  last = (access.address + size - 1) / 32;
         s <= last; ++s)
      sectors.push_back(s);
  llvm::sort(sectors);
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
}

uint64_t detail::globalSectors(llvm::ArrayRef<LaneAccess> accesses,
                               unsigned size) {
  llvm::SmallVector<uint64_t, 64> sectors;
  globalSectorList(accesses, size, sectors);
  return sectors.size();
}

uint64_t detail::sharedWavefronts(llvm::ArrayRef<LaneAccess> accesses,
                                  unsigned size, uint64_t &ideal) {
  unsigned lanesPerPhase = size <= 4 ? 32 : size == 8 ? 16 : 8;
  unsigned phases = 32 / lanesPerPhase;
  uint64_t total = 0;
  ideal = 0;
  for (unsigned phase = 0; phase < phases; ++phase) {
    // The distinct words of this phase, then the most any bank holds.
    llvm::SmallVector<uint64_t, 64> words;
    for (const LaneAccess &access : accesses)
      if (access.lane / lanesPerPhase == phase)
        for (uint64_t w = access.address / 4,
                      last = (access.address + size - 1) / 4;
             w <= last; ++w)
          words.push_back(w);
    if (words.empty())
      continue;
    llvm::sort(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::array<unsigned, 32> perBank{};
    unsigned most = 0;
    for (uint64_t w : words)
      most = std::max(most, ++perBank[w % 32]);
    total += most;
    ++ideal;
  }
  return total;
}
