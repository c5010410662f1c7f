//===- Decoder.h - PTX instructions to executable form ----------*- C++ -*-===//
//
// Turns a parsed kernel into the form the executor runs: every opcode and
// modifier resolved to enums, every register name to a slot index, every
// symbol to an address, every label to an instruction index. Anything the
// executor does not implement is rejected here, with the instruction and its
// PTX line, so that execution never guesses at semantics.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUEMULATOR_DECODER_H
#define MIRAGE_LIB_GPUEMULATOR_DECODER_H

#include "mirage/GpuEmulator/MmaFragments.h"
#include "mirage/GpuEmulator/PtxArithmetic.h"
#include "mirage/GpuEmulator/PtxModule.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mirage::emulator::detail {

/// The opcodes of PtxOpcodes.def, in its order.
enum class Opcode {
#define PTX_OPCODE(Enum, Mnemonic, Class) Enum,
#include "PtxOpcodes.def"
};

/// The opcode's mnemonic in PtxOpcodes.def, e.g. "cp.async.wait_all".
llvm::StringRef opcodeName(Opcode opcode);

/// The opcode that `inst` spells: the PtxOpcodes.def mnemonic (or alias)
/// whose first part is inst's opcode and whose other parts are all among
/// its modifiers, the one with the most parts where several match. Sets
/// `mnemonic` to the spelling matched.
std::optional<Opcode> lookupOpcode(const PtxInstruction &inst,
                                   llvm::StringRef *mnemonic = nullptr);

/// The instruction types of §5.2.2 that the executor handles.
enum class ScalarType {
  Pred,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  BF16,
  F32,
  F16x2,
  BF16x2,
  F64,
};

// Inline: the executor asks for every lane of every instruction.
inline unsigned bitWidth(ScalarType type) {
  switch (type) {
  case ScalarType::Pred:
    return 1;
  case ScalarType::B8:
  case ScalarType::U8:
  case ScalarType::S8:
    return 8;
  case ScalarType::B16:
  case ScalarType::U16:
  case ScalarType::S16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 16;
  case ScalarType::B32:
  case ScalarType::U32:
  case ScalarType::S32:
  case ScalarType::F32:
  case ScalarType::F16x2:
  case ScalarType::BF16x2:
    return 32;
  case ScalarType::B64:
  case ScalarType::U64:
  case ScalarType::S64:
  case ScalarType::F64:
    return 64;
  }
  llvm_unreachable("unknown type");
}

/// f16, bf16, f16x2 or bf16x2: the types of the half-precision instructions
/// (§9.7.4).
inline bool isHalfFamily(ScalarType type) {
  return type == ScalarType::F16 || type == ScalarType::BF16 ||
         type == ScalarType::F16x2 || type == ScalarType::BF16x2;
}

inline bool isSignedInt(ScalarType type) {
  return type == ScalarType::S8 || type == ScalarType::S16 ||
         type == ScalarType::S32 || type == ScalarType::S64;
}


/// The state spaces of ld, st, cvta and atom; Generic is an ld or st
/// without one (§6.4.1): its address picks global, shared or local memory
/// at run time (the windows are in Executor.cpp).
enum class Space { Param, Global, Shared, Local, Generic };

/// The comparison operators of setp (§9.7.3.x "Comparison and Selection"):
/// the integer ones and the ordered and unordered float ones.
enum class Compare {
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo,
  Ls,
  Hi,
  Hs,
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan,
};

enum class ShflMode { Up, Down, Bfly, Idx };

/// mul and mad on integers keep the low or high half, or the whole product.
enum class MulMode { Lo, Hi, Wide };

enum class SpecialRegister {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  // %lanemask_eq, _le, _lt, _ge, _gt: the lanes at, at or below, below, at
  // or above, above the thread's own (the ISA's special registers).
  LanemaskEq,
  LanemaskLe,
  LanemaskLt,
  LanemaskGe,
  LanemaskGt,
};

enum class VoteMode { All, Any, Uni, Ballot };

enum class AtomOp { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };

struct Operand {
  enum class Kind { Register, Immediate, Special, Address, Vector, Sink };
  Kind kind = Kind::Immediate;
  /// Register: the slot; Address: the base register when baseIsRegister.
  unsigned reg = 0;
  /// Register: `!%p`.
  bool negated = false;
  /// Register in the `%r|%p` form of shfl.sync: the predicate's slot.
  std::optional<unsigned> predicate;
  /// Immediate: the raw bits; Address: the symbol's address (or 0) plus the
  /// offset.
  uint64_t imm = 0;
  /// Immediate: an f64 literal (0d or decimal), for f64 instructions only.
  bool isDouble = false;
  bool baseIsRegister = false;
  SpecialRegister special = SpecialRegister::TidX;
  /// Vector: Register, Immediate or Sink elements.
  std::vector<Operand> elements;
};

struct DecodedInstruction {
  unsigned line = 0;
  /// opcode and modifiers as written, for messages.
  std::string text;
  Opcode opcode = Opcode::Mov;
  std::optional<unsigned> guard;
  bool guardNegated = false;
  /// The instruction type; for cvt the destination type.
  ScalarType type = ScalarType::B32;
  /// cvt: the source type.
  ScalarType sourceType = ScalarType::B32;
  std::optional<Rounding> rounding;
  std::optional<IntRounding> intRounding;
  bool ftz = false;
  bool sat = false;
  bool propagateNan = false;
  bool approx = false;
  /// div.full.f32.
  bool fullRange = false;
  /// cvta.to.space: from a generic address (else to one).
  bool fromGeneric = false;
  /// ld.global.nc: the read-only (non-coherent) path, which need not see
  /// writes of the same launch (§9.7.9.8).
  bool nonCoherent = false;
  /// ld.global.cg and .cv: not cached in L1.
  bool bypassL1 = false;
  /// fma.relu on the half-precision types.
  bool relu = false;
  /// bfind.shiftamt.
  bool shiftAmount = false;
  /// shf: .l (else .r) and .clamp (else .wrap).
  bool shiftLeft = false;
  bool clamp = false;
  PrmtMode prmtMode = PrmtMode::Default;
  /// Run by Cta::executeRareLanes, out of line of the common opcodes: the
  /// bf16, f16x2 and bf16x2 arithmetic, neg/abs with .ftz, the bit
  /// instructions (bfi, popc, clz, bfind, brev, prmt, shf) and copysign.
  bool rare = false;
  MulMode mulMode = MulMode::Lo;
  Compare compare = Compare::Eq;
  Space space = Space::Global;
  unsigned vectorWidth = 1;
  ShflMode shflMode = ShflMode::Bfly;
  VoteMode voteMode = VoteMode::All;
  AtomOp atomOp = AtomOp::Add;
  MmaInputType mmaType = MmaInputType::F16;
  /// mma: the K of the shape m16n8k<K> (16 or 8).
  unsigned mmaK = kMmaK;
  /// ldmatrix: the matrices loaded (.x1, .x2, .x4) and .trans.
  unsigned matrixCount = 1;
  bool transpose = false;
  /// cp.async: the bytes copied (cp-size), and .ca (cached in L1; .cg
  /// only in L2).
  unsigned copyBytes = 0;
  bool copyCachesL1 = false;
  /// bra: the instruction index of the target.
  unsigned target = 0;
  std::vector<Operand> operands;
};

/// A kernel ready to run, with its parameter and shared-memory layout.
struct DecodedKernel {
  std::string name;
  std::vector<DecodedInstruction> code;
  unsigned numRegisters = 0;
  /// The declared width of each slot (1 for .pred).
  std::vector<unsigned> registerBits;
  /// Per parameter: its byte offset and size in the parameter buffer.
  std::vector<uint64_t> paramOffsets, paramSizes;
  uint64_t paramBytes = 0;
  /// Where the dynamic shared memory starts: after the static `.shared`
  /// variables, aligned.
  uint64_t dynamicSharedOffset = 0;
  /// Each thread's `.local` memory: the kernel's local variables.
  uint64_t localBytes = 0;
  /// Whether an atom or red reaches global memory: then the CTAs run one
  /// after another in grid order, so that the result is deterministic.
  bool hasGlobalAtomics = false;
};

/// Decodes `kernel` of `module`. Fails with "PTX line N: unsupported
/// instruction 'op.mods'" (or a more specific reason) on anything the
/// executor does not implement.
llvm::Expected<DecodedKernel> decodeKernel(const PtxModule &module,
                                           const PtxKernel &kernel);

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_DECODER_H
