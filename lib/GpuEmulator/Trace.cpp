//===- Trace.cpp - what each instruction is, for a timing model -----------===//

#include "mirage/GpuEmulator/Trace.h"
#include "Decoder.h"
#include "Profile.h"

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

CtaTracer::~CtaTracer() = default;
LaunchTracer::~LaunchTracer() = default;

llvm::StringRef mirage::emulator::timingUnitName(TimingUnit unit) {
  switch (unit) {
  case TimingUnit::Integer:
    return "integer";
  case TimingUnit::Fp32:
    return "fp32";
  case TimingUnit::Fp16:
    return "fp16";
  case TimingUnit::Fp64:
    return "fp64";
  case TimingUnit::Divide:
    return "divide";
  case TimingUnit::SpecialFunction:
    return "special-function";
  case TimingUnit::Conversion:
    return "conversion";
  case TimingUnit::Move:
    return "move";
  case TimingUnit::Branch:
    return "branch";
  case TimingUnit::Barrier:
    return "barrier";
  case TimingUnit::WarpSync:
    return "warp-sync";
  case TimingUnit::Shuffle:
    return "shuffle";
  case TimingUnit::TensorCore:
    return "tensor-core";
  case TimingUnit::Memory:
    return "memory";
  case TimingUnit::AsyncCopy:
    return "cp.async";
  case TimingUnit::AsyncCommit:
    return "cp.async.commit";
  case TimingUnit::AsyncWait:
    return "cp.async.wait";
  case TimingUnit::Fence:
    return "fence";
  }
  llvm_unreachable("unknown timing unit");
}

static TimingUnit floatUnit(ScalarType type) {
  switch (type) {
  case ScalarType::F32:
    return TimingUnit::Fp32;
  case ScalarType::F64:
    return TimingUnit::Fp64;
  default:
    return TimingUnit::Fp16; // f16, bf16 and their x2 forms
  }
}

/// The unit, refined from the opcode table's class (PtxOpcodes.def):
/// only division, the cp.async steps, fences and bar.warp.sync need the
/// opcode itself.
static TimingUnit unitOf(const DecodedInstruction &inst) {
  switch (inst.opcode) {
  case Opcode::Div:
  case Opcode::Rem:
    // div.approx and div.full are a few instructions; div.rn and integer
    // division call a sequence (tens of instructions on the GPU).
    return inst.approx || inst.fullRange ? TimingUnit::SpecialFunction
                                         : TimingUnit::Divide;
  case Opcode::CpAsyncCommit:
    return TimingUnit::AsyncCommit;
  case Opcode::CpAsyncWait:
  case Opcode::CpAsyncWaitAll:
    return TimingUnit::AsyncWait;
  case Opcode::Membar:
  case Opcode::Fence:
    return TimingUnit::Fence;
  case Opcode::BarWarpSync:
    return TimingUnit::WarpSync;
  default:
    break;
  }
  switch (classify(inst)) {
  case InstructionClass::IntegerArithmetic:
    return TimingUnit::Integer;
  case InstructionClass::FloatArithmetic:
    return floatUnit(inst.type);
  case InstructionClass::SpecialFunction:
    return TimingUnit::SpecialFunction;
  case InstructionClass::Conversion:
    return TimingUnit::Conversion;
  case InstructionClass::Move:
    return TimingUnit::Move;
  case InstructionClass::GlobalMemory:
  case InstructionClass::SharedMemory:
  case InstructionClass::ParamLoad:
    return TimingUnit::Memory;
  case InstructionClass::AsyncCopy:
    return TimingUnit::AsyncCopy;
  case InstructionClass::Control:
    return TimingUnit::Branch;
  case InstructionClass::Barrier:
    return TimingUnit::Barrier;
  case InstructionClass::WarpShuffle:
    return TimingUnit::Shuffle;
  case InstructionClass::TensorCore:
    return TimingUnit::TensorCore;
  }
  llvm_unreachable("unknown instruction class");
}

/// Whether the first operand is written (else every operand is read).
static bool writesFirstOperand(Opcode opcode) {
  switch (opcode) {
  case Opcode::St:
  case Opcode::Red:
  case Opcode::Stmatrix:
  case Opcode::CpAsync:
  case Opcode::CpAsyncCommit:
  case Opcode::CpAsyncWait:
  case Opcode::CpAsyncWaitAll:
  case Opcode::Membar:
  case Opcode::Fence:
  case Opcode::Bra:
  case Opcode::Ret:
  case Opcode::Trap:
  case Opcode::BarSync:
  case Opcode::BarWarpSync:
    return false;
  default:
    return true;
  }
}

static void addRegisters(const Operand &op,
                         llvm::SmallVectorImpl<unsigned> &to,
                         bool asDestination) {
  switch (op.kind) {
  case Operand::Kind::Register:
    to.push_back(op.reg);
    if (op.predicate)
      to.push_back(*op.predicate);
    return;
  case Operand::Kind::Address:
    if (op.baseIsRegister && !asDestination)
      to.push_back(op.reg);
    return;
  case Operand::Kind::Vector:
    for (const Operand &element : op.elements)
      addRegisters(element, to, asDestination);
    return;
  default:
    return;
  }
}

llvm::Expected<KernelDescription>
mirage::emulator::describeKernel(const PtxModule &module,
                                 llvm::StringRef kernelName) {
  const PtxKernel *found = nullptr;
  for (const PtxKernel &kernel : module.kernels)
    if (kernel.name == kernelName)
      found = &kernel;
  if (!found)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel '" + kernelName.str() +
                                       "': no such kernel in the module");
  llvm::Expected<DecodedKernel> decoded = decodeKernel(module, *found);
  if (!decoded)
    return decoded.takeError();

  KernelDescription result;
  result.name = decoded->name;
  result.numRegisters = decoded->numRegisters;
  result.staticSharedBytes = decoded->dynamicSharedOffset;
  result.localBytesPerThread = decoded->localBytes;
  for (const DecodedInstruction &inst : decoded->code) {
    StaticInstruction info;
    info.line = inst.line;
    info.text = inst.text;
    info.unit = unitOf(inst);
    info.cls = classify(inst);
    bool writes = writesFirstOperand(inst.opcode);
    for (auto [i, op] : llvm::enumerate(inst.operands)) {
      // A store's address base register is read, not written.
      bool destination = writes && i == 0 && op.kind != Operand::Kind::Address;
      if (destination)
        addRegisters(op, info.defs, true);
      else
        addRegisters(op, info.uses, false);
    }
    if (inst.guard)
      info.uses.push_back(*inst.guard);
    if (inst.opcode == Opcode::Mma) {
      info.mmaK = inst.mmaK;
      info.mmaMacs = kMmaM * kMmaN * inst.mmaK;
    }
    if (inst.opcode == Opcode::CpAsyncWait)
      info.keepGroups = unsigned(inst.operands[0].imm);
    info.waitsForOpenGroup = inst.opcode == Opcode::CpAsyncWaitAll;
    if (inst.opcode == Opcode::CpAsync)
      info.cachesInL1 = inst.copyCachesL1;
    if (inst.opcode == Opcode::Ld)
      info.cachesInL1 = !inst.bypassL1;
    if (inst.opcode == Opcode::BarSync) {
      info.barrierId = unsigned(inst.operands[0].imm);
      info.barrierThreads =
          inst.operands.size() == 2 ? unsigned(inst.operands[1].imm) : 0;
    }
    result.code.push_back(std::move(info));
  }
  return result;
}
