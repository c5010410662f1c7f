//===- Decoder.cpp - PTX instructions to executable form ------------------===//

#include "Decoder.h"
#include "DecoderModifiers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

namespace {

bool isInt(ScalarType t) {
  switch (t) {
  case ScalarType::B16:
  case ScalarType::B32:
  case ScalarType::B64:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
  case ScalarType::S16:
  case ScalarType::S32:
  case ScalarType::S64:
    return true;
  default:
    return false;
  }
}
bool isBits(ScalarType t) {
  return t == ScalarType::B16 || t == ScalarType::B32 || t == ScalarType::B64;
}
bool isUnsignedOrSigned(ScalarType t) { return isInt(t) && !isBits(t); }
bool isF32OrF16(ScalarType t) {
  return t == ScalarType::F32 || t == ScalarType::F16;
}
/// f32, f64 and the half-precision types (scalar and packed).
bool isFloat(ScalarType t) {
  return t == ScalarType::F32 || t == ScalarType::F64 || isHalfFamily(t);
}
bool isBF16OrBF16x2(ScalarType t) {
  return t == ScalarType::BF16 || t == ScalarType::BF16x2;
}
/// The types with a .ftz modifier (bf16 and bf16x2 have none, §9.7.4).
bool hasFtz(ScalarType t) {
  return t == ScalarType::F32 || t == ScalarType::F16 || t == ScalarType::F16x2;
}

std::string instructionText(const PtxInstruction &inst) {
  std::string text = inst.opcode;
  for (const std::string &mod : inst.modifiers)
    text += "." + mod;
  return text;
}

llvm::Error unsupported(const PtxInstruction &inst, llvm::StringRef why = "") {
  std::string message = llvm::formatv("PTX line {0}: unsupported instruction "
                                      "'{1}'",
                                      inst.line, instructionText(inst));
  if (!why.empty())
    message += " (" + why.str() + ")";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::optional<SpecialRegister> parseSpecial(llvm::StringRef name) {
  using S = SpecialRegister;
  return llvm::StringSwitch<std::optional<S>>(name)
      .Case("%tid.x", S::TidX)
      .Case("%tid.y", S::TidY)
      .Case("%tid.z", S::TidZ)
      .Case("%ntid.x", S::NtidX)
      .Case("%ntid.y", S::NtidY)
      .Case("%ntid.z", S::NtidZ)
      .Case("%ctaid.x", S::CtaidX)
      .Case("%ctaid.y", S::CtaidY)
      .Case("%ctaid.z", S::CtaidZ)
      .Case("%nctaid.x", S::NctaidX)
      .Case("%nctaid.y", S::NctaidY)
      .Case("%nctaid.z", S::NctaidZ)
      .Case("%laneid", S::LaneId)
      .Case("%warpid", S::WarpId)
      .Case("%lanemask_eq", S::LanemaskEq)
      .Case("%lanemask_le", S::LanemaskLe)
      .Case("%lanemask_lt", S::LanemaskLt)
      .Case("%lanemask_ge", S::LanemaskGe)
      .Case("%lanemask_gt", S::LanemaskGt)
      .Default(std::nullopt);
}

uint64_t typeBytes(llvm::StringRef type) {
  return llvm::StringSwitch<uint64_t>(type)
      .Cases({".b8", ".u8", ".s8"}, 1)
      .Cases({".b16", ".u16", ".s16", ".f16", ".bf16"}, 2)
      .Cases({".b32", ".u32", ".s32", ".f32", ".f16x2", ".bf16x2"}, 4)
      .Cases({".b64", ".u64", ".s64", ".f64"}, 8)
      .Default(0);
}

/// Names resolved while decoding one kernel's operands.
struct Scope {
  llvm::StringMap<unsigned> registers;
  llvm::StringMap<uint64_t> sharedSymbols; // name -> offset in its space
                                           // (shared or local)
  llvm::StringMap<uint64_t> params;        // name -> parameter offset
  const llvm::StringMap<unsigned> *labels = nullptr;
};

llvm::Expected<Operand> decodeOperand(const PtxInstruction &inst,
                                      const PtxOperand &in,
                                      const Scope &scope) {
  using K = PtxOperand::Kind;
  Operand out;
  auto unknown = [&](llvm::StringRef what) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("PTX line {0}: unknown {1} '{2}' in '{3}'", inst.line,
                      what, in.name, instructionText(inst))
            .str());
  };
  switch (in.kind) {
  case K::Register: {
    if (auto special = parseSpecial(in.name)) {
      out.kind = Operand::Kind::Special;
      out.special = *special;
      return out;
    }
    auto it = scope.registers.find(in.name);
    if (it == scope.registers.end())
      return unknown("register");
    out.kind = Operand::Kind::Register;
    out.reg = it->second;
    out.negated = in.negated;
    return out;
  }
  case K::Integer:
    out.kind = Operand::Kind::Immediate;
    out.imm = static_cast<uint64_t>(in.intValue);
    return out;
  case K::Float:
    // f32 immediates (0fXXXXXXXX) and f64 ones (0dXXXXXXXXXXXXXXXX and
    // decimals), which only f64 instructions take (decodeKernel).
    out.kind = Operand::Kind::Immediate;
    out.imm = in.floatBits;
    out.isDouble = in.isDouble;
    return out;
  case K::Address:
    out.kind = Operand::Kind::Address;
    out.imm = static_cast<uint64_t>(in.intValue);
    if (!in.baseIsSymbol) {
      auto it = scope.registers.find(in.name);
      if (it == scope.registers.end())
        return unknown("register");
      out.baseIsRegister = true;
      out.reg = it->second;
      return out;
    }
    if (auto it = scope.sharedSymbols.find(in.name);
        it != scope.sharedSymbols.end()) {
      out.imm += it->second;
      return out;
    }
    if (auto it = scope.params.find(in.name); it != scope.params.end()) {
      out.imm += it->second;
      return out;
    }
    return unknown("symbol");
  case K::Vector:
  case K::RegisterPair: {
    std::vector<Operand> elements;
    for (const PtxOperand &element : in.elements) {
      auto decoded = decodeOperand(inst, element, scope);
      if (!decoded)
        return decoded.takeError();
      if (decoded->kind == Operand::Kind::Special)
        return unsupported(inst, "special register in a vector");
      elements.push_back(std::move(*decoded));
    }
    if (in.kind == K::RegisterPair) {
      // `%r|%p` (shfl.sync): the value and its predicate output.
      out = elements[0];
      out.predicate = elements[1].reg;
      return out;
    }
    out.kind = Operand::Kind::Vector;
    out.elements = std::move(elements);
    return out;
  }
  case K::Symbol:
    if (auto it = scope.labels->find(in.name); it != scope.labels->end()) {
      out.kind = Operand::Kind::Immediate;
      out.imm = it->second;
      return out;
    }
    // `mov.u32 %r, partial`: a shared variable's address (§6.4.1: the
    // address of a variable in its own state space).
    if (auto it = scope.sharedSymbols.find(in.name);
        it != scope.sharedSymbols.end()) {
      out.kind = Operand::Kind::Immediate;
      out.imm = it->second;
      return out;
    }
    return unknown("symbol");
  case K::Sink:
    out.kind = Operand::Kind::Sink;
    return out;
  }
  llvm_unreachable("unknown operand kind");
}

using OK = Operand::Kind;

bool isValue(const Operand &op) {
  return op.kind == OK::Register || op.kind == OK::Immediate ||
         op.kind == OK::Special;
}

/// Checks operand kinds: 'd' a register destination, 'v' a value (register,
/// immediate or special register), 'V' a vector.
bool shapeIs(const DecodedInstruction &d, llvm::StringRef shape) {
  if (d.operands.size() != shape.size())
    return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const Operand &op = d.operands[i];
    bool ok = false;
    switch (shape[i]) {
    case 'd':
      ok = op.kind == OK::Register && !op.negated;
      break;
    case 'v':
      ok = isValue(op);
      break;
    case 'V':
      ok = op.kind == OK::Vector;
      break;
    }
    if (!ok)
      return false;
  }
  return true;
}

/// The rare forms of the split opcodes (PtxOpcodes.def): the half-precision
/// types other than f16, fma .relu and neg/abs .ftz.
bool hasRareForm(const DecodedInstruction &d) {
  bool rareType = isHalfFamily(d.type) && d.type != ScalarType::F16;
  if (d.opcode == Opcode::Neg || d.opcode == Opcode::Abs)
    return rareType || d.ftz;
  return rareType || d.relu;
}

/// Whether the executor runs `d` out of line (DecodedInstruction::rare).
bool isRare(const DecodedInstruction &d) {
  switch (d.opcode) {
#define PTX_RARE_OPCODE(Enum, Mnemonic, Class)                                 \
  case Opcode::Enum:                                                           \
    return true;
#define PTX_SPLIT_OPCODE(Enum, Mnemonic, Class)                                \
  case Opcode::Enum:                                                           \
    return hasRareForm(d);
#include "PtxOpcodes.def"
  default:
    return false;
  }
}

using F = ModifierField;

/// Takes the instruction type into `d.type` if `accepts` it.
template <typename Predicate>
bool takeTypeIf(Modifiers &mods, DecodedInstruction &d, Predicate accepts) {
  auto type = mods.takeType();
  if (!type || !accepts(*type))
    return false;
  d.type = *type;
  return true;
}

/// `ok`, and no modifier left over.
bool finish(const Modifiers &mods, bool ok) { return ok && mods.allTaken(); }

// The decodings below take the modifier fields their opcodes have and check
// the combinations the executor implements; one per group of opcodes that
// share their modifiers.

/// add, sub, mul, mad, fma, div and rem, on integers and floats.
bool decodeArithmetic(Modifiers &mods, DecodedInstruction &d) {
  bool isMulLike = d.opcode == Opcode::Mul || d.opcode == Opcode::Mad;
  bool hasMulMode = isMulLike && mods.takeInto(d, F::MulMode);
  for (F field : {F::Rounding, F::Approx, F::FullRange, F::Ftz, F::Sat,
                  F::Relu})
    mods.takeInto(d, field);
  if (!takeTypeIf(mods, d, [](ScalarType) { return true; }))
    return false;
  bool ternary = d.opcode == Opcode::Mad || d.opcode == Opcode::Fma;
  if (!shapeIs(d, ternary ? "dvvv" : "dvv"))
    return false;
  if (isFloat(d.type)) {
    // The float forms the executor implements: div needs one of a rounding
    // modifier, .approx and .full, which only div has.
    if (hasMulMode || d.opcode == Opcode::Rem ||
        (d.fullRange && d.opcode != Opcode::Div))
      return false;
    // .relu: fma on the half-precision types, without .sat (§9.7.4.4).
    if (d.relu &&
        (d.opcode != Opcode::Fma || d.type == ScalarType::F32 || d.sat))
      return false;
    if (isHalfFamily(d.type))
      // The half-precision add, sub, mul and fma (§9.7.4.1-9.7.4.4): .rn
      // only, no div or mad; .ftz and .sat on f16 and f16x2 only.
      return finish(mods, d.opcode != Opcode::Div && d.opcode != Opcode::Mad &&
                              !d.approx &&
                              (!d.rounding || *d.rounding == Rounding::Rn) &&
                              !(isBF16OrBF16x2(d.type) && (d.ftz || d.sat)));
    if (d.type == ScalarType::F64)
      // add, sub, mul{.rnd}.f64; fma, mad and div need the rounding
      // (§9.7.3); no .ftz, .sat, .approx or .full.
      return finish(mods, !d.ftz && !d.sat && !d.approx && !d.fullRange &&
                              (d.rounding.has_value() ||
                               (d.opcode != Opcode::Fma &&
                                d.opcode != Opcode::Mad &&
                                d.opcode != Opcode::Div)));
    if (d.opcode == Opcode::Div)
      return finish(mods, int(d.approx) + int(d.rounding.has_value()) +
                                  int(d.fullRange) ==
                              1 &&
                          !d.sat);
    if (d.opcode == Opcode::Fma || d.opcode == Opcode::Mad)
      // fma.f32 and mad.f32 (sm_20+) require a rounding modifier.
      return finish(mods, d.rounding.has_value() && !d.approx);
    return finish(mods, !d.approx);
  }
  if (!isInt(d.type) || isBits(d.type) || d.rounding || d.approx || d.ftz ||
      d.relu || d.fullRange)
    return false;
  if (d.sat) // add.sat.s32 and friends: not implemented.
    return false;
  // Integer mul and mad name the half they keep, on 16-, 32- and 64-bit
  // types (.wide on 16- and 32-bit ones, §9.7.1.3).
  if (isMulLike && (!hasMulMode || bitWidth(d.type) < 16 ||
                    (d.mulMode == MulMode::Wide && bitWidth(d.type) > 32)))
    return false;
  return finish(mods, true);
}

/// neg and abs.
bool decodeNegAbs(Modifiers &mods, DecodedInstruction &d) {
  mods.takeInto(d, F::Ftz);
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return isFloat(t) || (isSignedInt(t) && bitWidth(t) >= 16);
      }))
    return false;
  // Float neg and abs flip or clear the sign bit, after .ftz flushed a
  // subnormal input (§9.7.3.9, §9.7.3.10, §9.7.4.5, §9.7.4.6).
  return finish(mods, (!d.ftz || hasFtz(d.type)) && shapeIs(d, "dv"));
}

/// min and max. .xorsign.abs (sm_86) is not implemented: nvcc does not
/// emit it.
bool decodeMinMax(Modifiers &mods, DecodedInstruction &d) {
  mods.takeInto(d, F::Ftz);
  mods.takeInto(d, F::PropagateNan);
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return isFloat(t) || isUnsignedOrSigned(t);
      }))
    return false;
  if ((d.ftz && !hasFtz(d.type)) ||
      (d.propagateNan && (!isFloat(d.type) || d.type == ScalarType::F64)))
    return false;
  return finish(mods, shapeIs(d, "dvv"));
}

/// The instructions with a type and nothing else: shifts, logic, bfe,
/// bfi, popc, clz, brev, copysign and selp; `accepts` their types and
/// `shape` their operands.
template <typename Predicate>
bool decodeTyped(Modifiers &mods, DecodedInstruction &d, Predicate accepts,
                 llvm::StringRef shape) {
  return takeTypeIf(mods, d, accepts) && finish(mods, shapeIs(d, shape));
}

/// lop3.b32 d, a, b, c, immLut (§9.7.8.6); the predicate-output form
/// (lop3.BoolOp) is not implemented.
bool decodeLop3(Modifiers &mods, DecodedInstruction &d) {
  if (!decodeTyped(
          mods, d, [](ScalarType t) { return t == ScalarType::B32; }, "dvvvv"))
    return false;
  const Operand &lut = d.operands[4];
  return lut.kind == OK::Immediate && lut.imm <= 0xff;
}

/// bfind{.shiftamt}.{u32,s32,u64,s64} (§9.7.1.16), writing a .u32.
bool decodeBfind(Modifiers &mods, DecodedInstruction &d) {
  mods.takeInto(d, F::ShiftAmount);
  return decodeTyped(
      mods, d,
      [](ScalarType t) { return isUnsignedOrSigned(t) && bitWidth(t) >= 32; },
      "dv");
}

/// prmt.b32{.mode} (§9.7.9.7): the mode, if any, follows the type.
bool decodePrmt(Modifiers &mods, DecodedInstruction &d) {
  if (!takeTypeIf(mods, d, [](ScalarType t) { return t == ScalarType::B32; }))
    return false;
  mods.takeNextInto(d, F::PrmtMode);
  return finish(mods, shapeIs(d, "dvvv"));
}

/// shf.{l,r}.{clamp,wrap}.b32 (§9.7.8.7): direction and mode required, in
/// that order.
bool decodeShf(Modifiers &mods, DecodedInstruction &d) {
  if (!mods.takeNextInto(d, F::ShiftLeft) || !mods.takeNextInto(d, F::Clamp))
    return false;
  return decodeTyped(
      mods, d, [](ScalarType t) { return t == ScalarType::B32; }, "dvvv");
}

/// setp.CmpOp{.ftz}.type: the comparison comes first.
bool decodeSetp(Modifiers &mods, DecodedInstruction &d) {
  if (!mods.takeNextInto(d, F::Compare))
    return false;
  mods.takeInto(d, F::Ftz);
  // setp.bf16 (sm_90): LLVM compares a bf16 value there without first
  // widening it to f32 (the select of sigmoid's two branches).
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return isInt(t) || isF32OrF16(t) || t == ScalarType::BF16 ||
               t == ScalarType::F64;
      }))
    return false;
  bool isFloat = isF32OrF16(d.type) || d.type == ScalarType::BF16 ||
                 d.type == ScalarType::F64;
  if (d.ftz && !hasFtz(d.type))
    return false;
  bool intCompare = d.compare <= Compare::Hs;
  bool unsignedOnly = d.compare >= Compare::Lo && d.compare <= Compare::Hs;
  if (!isFloat && (!intCompare || d.ftz))
    return false;
  if (isFloat && unsignedOnly)
    return false;
  // .b types compare only for equality (§9.7.3 setp: "eq, ne" for .b).
  if (isBits(d.type) && d.compare != Compare::Eq && d.compare != Compare::Ne)
    return false;
  // The `p|q` form and the .and/.or/.xor combining forms are not
  // implemented.
  return finish(mods, shapeIs(d, "dvv") && !d.operands[0].predicate);
}

/// mov, including the packing and unpacking of halves.
bool decodeMov(Modifiers &mods, DecodedInstruction &d) {
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return t != ScalarType::B8 && t != ScalarType::U8 &&
               t != ScalarType::S8;
      }))
    return false;
  if (!mods.allTaken() || d.operands.size() != 2)
    return false;
  const Operand &dst = d.operands[0], &src = d.operands[1];
  // Pack `mov.b32 %r, {%h0, %h1}` and unpack `mov.b32 {%h0, %h1}, %r`
  // (§9.7.9.9): two halves of the type's width, element 0 low.
  auto isPair = [&](const Operand &v) {
    return v.kind == OK::Vector && v.elements.size() == 2 && isBits(d.type) &&
           bitWidth(d.type) >= 32;
  };
  if (dst.kind == OK::Register && !dst.negated)
    return isValue(src) ||
           (isPair(src) && llvm::all_of(src.elements, [](const Operand &e) {
              return e.kind != OK::Sink;
            }));
  return isPair(dst) && src.kind == OK::Register;
}

/// cvt.{rounding}{.ftz}{.sat}.dtype.atype; .satfinite is not implemented.
bool decodeCvt(Modifiers &mods, DecodedInstruction &d) {
  for (F field : {F::Rounding, F::IntRounding, F::Ftz, F::Sat})
    mods.takeInto(d, field);
  auto dst = mods.takeType();
  auto src = mods.takeType();
  if (!dst || !src || !mods.allTaken())
    return false;
  d.type = *dst;
  d.sourceType = *src;
  using T = ScalarType;
  bool dstFloat = d.type == T::F32 || d.type == T::F16 || d.type == T::BF16;
  bool srcFloat = d.sourceType == T::F32 || d.sourceType == T::F16 ||
                  d.sourceType == T::BF16;
  bool anyRounding = d.rounding || d.intRounding;
  if (d.type == T::F16x2 || d.type == T::BF16x2)
    // cvt.rn.f16x2.f32 d, a, b
    return d.sourceType == T::F32 && d.rounding && !d.intRounding && !d.ftz &&
           !d.sat && shapeIs(d, "dvv");
  if (!shapeIs(d, "dv"))
    return false;
  // f64 (§9.7.9.21): widening from f32 is exact, narrowing to f32 rounds;
  // to and from the 32- and 64-bit integers as f32's are.
  if (d.type == T::F64 || d.sourceType == T::F64) {
    if (d.type == T::F64 && d.sourceType == T::F64)
      return false;
    if (d.type == T::F64 && d.sourceType == T::F32)
      return !anyRounding && !d.sat;
    if (d.type == T::F32)
      return d.rounding && !d.intRounding;
    if (d.type == T::F64) // from an integer
      return isUnsignedOrSigned(d.sourceType) &&
             bitWidth(d.sourceType) >= 32 && d.rounding && !d.intRounding &&
             !d.ftz && !d.sat;
    return isUnsignedOrSigned(d.type) && bitWidth(d.type) >= 32 &&
           d.intRounding && !d.rounding && !d.ftz && !d.sat;
  }
  if (dstFloat && srcFloat) {
    if (d.type == T::F32 && d.sourceType == T::F32)
      // cvt.sat.f32.f32 or cvt.rni.f32.f32 (integral rounding).
      return !d.rounding && d.sat != d.intRounding.has_value() &&
             !(d.sat && d.ftz);
    if (d.type == T::F32)
      return !anyRounding && !d.sat && !d.ftz; // exact widening
    return d.sourceType == T::F32 && d.rounding && !d.intRounding && !d.sat;
  }
  if (dstFloat) // integer to float
    return d.type == T::F32 && isUnsignedOrSigned(d.sourceType) &&
           bitWidth(d.sourceType) >= 32 && d.rounding && !d.intRounding &&
           !d.ftz && !d.sat;
  if (srcFloat) // float to integer
    return d.sourceType == T::F32 && isUnsignedOrSigned(d.type) &&
           bitWidth(d.type) >= 32 && d.intRounding && !d.rounding && !d.sat;
  // Integer to integer: extend by the source's signedness, then truncate.
  return isInt(d.type) && isInt(d.sourceType) && !anyRounding && !d.ftz &&
         !d.sat;
}

/// cvta.{global,shared,local} and cvta.to.{global,shared,local}: generic
/// and global addresses are the same in the emulator; shared and local
/// memory have windows of their own in the generic space (§6.4.1 lets the
/// implementation choose them; Executor.cpp).
bool decodeCvta(Modifiers &mods, DecodedInstruction &d) {
  d.fromGeneric = mods.take(F::ToGeneric).has_value();
  if (!mods.takeInto(d, F::Space) || d.space == Space::Param)
    return false;
  return decodeTyped(
      mods, d,
      [](ScalarType t) { return t == ScalarType::U64 || t == ScalarType::U32; },
      "dv");
}

/// ld and st: ld from .param, .global (.nc too) or .shared, st to .global
/// or .shared; cache hints on global accesses; scalars, .v2 or .v4.
bool decodeLoadStore(Modifiers &mods, DecodedInstruction &d) {
  bool isLoad = d.opcode == Opcode::Ld;
  // Without a state space, the address is generic (§6.4.1).
  if (!mods.takeInto(d, F::Space))
    d.space = Space::Generic;
  if (!isLoad && d.space == Space::Param)
    return false;
  if (d.space == Space::Global) {
    if (isLoad)
      mods.takeInto(d, F::NonCoherent);
    // .cg caches in L2 only, .cv fetches again (§9.7.9.8, "Cache
    // operators"): neither keeps the line in L1 (what a timing model asks).
    if (isLoad && (mods.take("cg") || mods.take("cv")))
      d.bypassL1 = true;
    mods.takeEach(F::CacheHint);
  }
  // .volatile on global and shared accesses, without .nc (§9.7.9.8).
  if (d.space != Space::Param && !d.nonCoherent)
    mods.take(F::Volatile);
  mods.takeInto(d, F::VectorWidth);
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return t != ScalarType::Pred && t != ScalarType::F16x2 &&
               t != ScalarType::BF16x2;
      }))
    return false;
  if (!mods.allTaken() || d.operands.size() != 2)
    return false;
  Operand &data = d.operands[isLoad ? 0 : 1];
  const Operand &addr = d.operands[isLoad ? 1 : 0];
  if (addr.kind != OK::Address)
    return false;
  if (d.space == Space::Param && addr.baseIsRegister)
    return false;
  // A one-element vector (`{%r1}`, as Triton writes it) is its element.
  if (d.vectorWidth == 1 && data.kind == OK::Vector &&
      data.elements.size() == 1) {
    Operand element = data.elements[0];
    data = element;
  }
  if (d.vectorWidth == 1)
    return isLoad ? data.kind == OK::Register : isValue(data);
  // A load writes registers (or discards into `_`); a store's elements may
  // be immediates too.
  return data.kind == OK::Vector && data.elements.size() == d.vectorWidth &&
         llvm::all_of(data.elements, [&](const Operand &e) {
           return e.kind == OK::Register || e.kind == OK::Sink ||
                  (!isLoad && e.kind == OK::Immediate);
         });
}

/// ex2, lg2, sqrt, rsqrt, rcp, sin, cos and tanh on f32: .approx, or for
/// sqrt and rcp a rounding modifier (the IEEE forms).
bool decodeSpecialFunction(Modifiers &mods, DecodedInstruction &d) {
  for (F field : {F::Approx, F::Rounding, F::Ftz})
    mods.takeInto(d, field);
  if (!takeTypeIf(mods, d, [](ScalarType t) {
        return t == ScalarType::F32 || t == ScalarType::F64;
      }))
    return false;
  // sqrt.rnd.f64 and rcp.rnd.f64, IEEE (the .approx f64 forms are not).
  if (d.type == ScalarType::F64)
    return finish(mods, (d.opcode == Opcode::Sqrt || d.opcode == Opcode::Rcp) &&
                            d.rounding && !d.approx && !d.ftz &&
                            shapeIs(d, "dv"));
  bool hasIeee = d.opcode == Opcode::Sqrt || d.opcode == Opcode::Rcp;
  bool ok = d.approx ? !d.rounding : (hasIeee && d.rounding);
  if (d.opcode == Opcode::Tanh && d.ftz)
    ok = false;
  return finish(mods, ok && shapeIs(d, "dv"));
}

/// bar.sync a{, b} and barrier.sync{.aligned} a{, b} (§9.7.13.1): barrier
/// a (0-15) completes when b threads, a multiple of the warp size, have
/// arrived; without b, all the CTA's threads. .aligned only promises that
/// all threads execute the same instruction. Register operands are not
/// implemented.
bool decodeBarrier(Modifiers &mods, DecodedInstruction &d,
                   llvm::StringRef mnemonic) {
  if (mnemonic == "barrier.sync")
    mods.take(F::Aligned);
  if (!finish(mods, d.operands.size() == 1 || d.operands.size() == 2))
    return false;
  if (!llvm::all_of(d.operands,
                    [](const Operand &o) { return o.kind == OK::Immediate; }))
    return false;
  if (d.operands[0].imm >= 16)
    return false;
  return d.operands.size() == 1 ||
         (d.operands[1].imm != 0 && d.operands[1].imm % kWarpSize == 0);
}

/// shfl.sync.mode.b32, the mode right after .sync.
bool decodeShfl(Modifiers &mods, DecodedInstruction &d) {
  if (!mods.take(F::Sync) || !mods.takeNextInto(d, F::ShflMode))
    return false;
  return decodeTyped(
      mods, d, [](ScalarType t) { return t == ScalarType::B32; }, "dvvvv");
}

/// vote.sync.{all,any,uni}.pred d, {!}a, membermask and
/// vote.sync.ballot.b32 d, {!}a, membermask (the ISA's "vote.sync"); the forms
/// without .sync (deprecated, not for sm_70 and later) are not.
bool decodeVote(Modifiers &mods, DecodedInstruction &d) {
  if (!mods.take(F::Sync) || !mods.takeNextInto(d, F::VoteMode))
    return false;
  auto type = mods.takeType();
  bool ballot = d.voteMode == VoteMode::Ballot;
  if (!type || *type != (ballot ? ScalarType::B32 : ScalarType::Pred))
    return false;
  d.type = *type;
  return finish(mods, shapeIs(d, "dvv") &&
                          (d.operands[1].kind == OK::Register ||
                           d.operands[1].kind == OK::Immediate));
}

/// mma.sync.aligned.m16n8k{16,8}.row.col.f32.{f16,bf16}.{f16,bf16}.f32.
bool decodeMma(Modifiers &mods, DecodedInstruction &d) {
  bool ok = mods.take(F::Sync) && mods.take(F::Aligned) &&
            mods.takeInto(d, F::MmaK) && mods.take(F::RowA) &&
            mods.take(F::ColumnB);
  auto dt = mods.takeType(), at = mods.takeType(), bt = mods.takeType(),
       ct = mods.takeType();
  if (!ok || !dt || !at || !bt || !ct || *dt != ScalarType::F32 ||
      *ct != ScalarType::F32 || *at != *bt ||
      (*at != ScalarType::F16 && *at != ScalarType::BF16))
    return false;
  d.mmaType = *at == ScalarType::F16 ? MmaInputType::F16 : MmaInputType::BF16;
  if (!finish(mods, shapeIs(d, "VVVV")))
    return false;
  // Registers of D, A, B, C: A and B hold two halves per register.
  unsigned sizes[] = {4, d.mmaK / 4, d.mmaK / 8, 4};
  for (unsigned i = 0; i < 4; ++i) {
    const auto &elements = d.operands[i].elements;
    if (elements.size() != sizes[i] ||
        !llvm::all_of(elements,
                      [](const Operand &e) { return e.kind == OK::Register; }))
      return false;
  }
  return true;
}

/// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.{shared,shared::cta}.b16
/// d, [a] (the ISA's "warp-level matrix load"): d is one 32-bit register per
/// matrix, a vector (of one element for .x1, or the register alone). The
/// generic-address
/// form and the sm_100 shapes (.m16n16, .m8n16, .b8) are not implemented.
/// ldmatrix, and stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16
/// [a], r (the ISA's "stmatrix"), with the address first.
bool decodeMatrixLoadStore(Modifiers &mods, DecodedInstruction &d) {
  bool isLoad = d.opcode == Opcode::Ldmatrix;
  bool ok = mods.take(F::Sync) && mods.take(F::Aligned) &&
            mods.take(F::MatrixShape) && mods.takeInto(d, F::MatrixCount);
  mods.takeInto(d, F::Transpose);
  if (!ok || !mods.takeInto(d, F::Space) || d.space != Space::Shared)
    return false;
  auto type = mods.takeType();
  if (!type || *type != ScalarType::B16 || !mods.allTaken() ||
      d.operands.size() != 2 ||
      d.operands[isLoad ? 1 : 0].kind != OK::Address)
    return false;
  d.type = ScalarType::B32; // the registers it reads or writes
  Operand &dst = d.operands[isLoad ? 0 : 1];
  if (dst.kind == OK::Register && d.matrixCount == 1) {
    Operand vector;
    vector.kind = OK::Vector;
    vector.elements.push_back(dst);
    dst = vector;
  }
  return dst.kind == OK::Vector && dst.elements.size() == d.matrixCount &&
         llvm::all_of(dst.elements,
                      [](const Operand &e) { return e.kind == OK::Register; });
}

/// cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}.
bool decodeCpAsync(Modifiers &mods, DecodedInstruction &d) {
  auto cacheGlobal = mods.take(F::CopyCacheGlobal);
  // The L2 prefetch size (.L2::64B, ::128B, ::256B): where data is cached,
  // not what is copied (as on ld).
  mods.takeEach(F::CacheHint);
  if (!cacheGlobal || !mods.take("shared") || !mods.take("global") ||
      !mods.allTaken())
    return false;
  if (d.operands.size() != 3 && d.operands.size() != 4)
    return false;
  if (d.operands[0].kind != OK::Address || d.operands[1].kind != OK::Address ||
      d.operands[2].kind != OK::Immediate ||
      (d.operands.size() == 4 && !isValue(d.operands[3])))
    return false;
  d.copyBytes = d.operands[2].imm;
  d.copyCachesL1 = !*cacheGlobal;
  // .cg copies 16 bytes only; .ca 4, 8 or 16 (§9.7.9.25.3.1).
  return *cacheGlobal
             ? d.copyBytes == 16
             : (d.copyBytes == 4 || d.copyBytes == 8 || d.copyBytes == 16);
}

/// atom{.sem}{.scope}{.global,.shared}.op.type d, [a], b{, c} and
/// red{.sem}{.scope}{.global,.shared}.op.type [a], b (§9.7.13.5,
/// §9.7.13.6): add on .u32, .s32, .u64 and .f32; min and max on the
/// integers; inc and dec on .u32; and, or and xor on .b32 and .b64; exch on
/// .b32 and .b64; cas (atom only) on .b32 and .b64. The generic-address
/// form, the half-precision, vector and f64 forms and .cas.b16 are not
/// implemented.
bool decodeAtomic(Modifiers &mods, DecodedInstruction &d) {
  bool isAtom = d.opcode == Opcode::Atom;
  if (auto order = mods.take(F::FenceOrder); order && *order == 0)
    return false; // .sc
  if (auto scope = mods.take(F::FenceScope); scope && *scope == 1)
    return false; // .gl
  if (!mods.takeInto(d, F::Space) ||
      (d.space != Space::Global && d.space != Space::Shared) ||
      !mods.takeInto(d, F::AtomOp))
    return false;
  auto type = mods.takeType();
  if (!type || !mods.allTaken())
    return false;
  d.type = *type;
  using T = ScalarType;
  T t = *type;
  bool ok = false;
  switch (d.atomOp) {
  case AtomOp::Add:
    ok = t == T::U32 || t == T::S32 || t == T::U64 || t == T::F32;
    break;
  case AtomOp::Min:
  case AtomOp::Max:
    ok = t == T::U32 || t == T::S32 || t == T::U64 || t == T::S64;
    break;
  case AtomOp::Inc:
  case AtomOp::Dec:
    ok = t == T::U32;
    break;
  case AtomOp::And:
  case AtomOp::Or:
  case AtomOp::Xor:
  case AtomOp::Exch:
    ok = t == T::B32 || t == T::B64;
    break;
  case AtomOp::Cas:
    ok = isAtom && (t == T::B32 || t == T::B64);
    break;
  }
  if (!ok)
    return false;
  size_t address = isAtom ? 1 : 0;
  size_t values = d.atomOp == AtomOp::Cas ? 2 : 1;
  if (d.operands.size() != address + 1 + values ||
      d.operands[address].kind != OK::Address ||
      (isAtom && (d.operands[0].kind != OK::Register || d.operands[0].negated)))
    return false;
  for (size_t i = address + 1; i < d.operands.size(); ++i)
    if (!isValue(d.operands[i]))
      return false;
  return true;
}

/// Decodes the opcode and modifiers and checks the operands of one
/// instruction; false when the combination is not supported.
bool decodeModifiers(const PtxInstruction &inst, DecodedInstruction &d) {
  llvm::StringRef mnemonic;
  std::optional<Opcode> opcode = lookupOpcode(inst, &mnemonic);
  if (!opcode)
    return false;
  d.opcode = *opcode;
  Modifiers mods(inst.modifiers);
  // The modifiers that select the opcode (cp.async.wait_all).
  for (llvm::StringRef part : llvm::drop_begin(llvm::split(mnemonic, '.')))
    mods.take(part);

  using T = ScalarType;
  auto isB32OrB64 = [](T t) { return t == T::B32 || t == T::B64; };
  switch (d.opcode) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Mad:
  case Opcode::Fma:
  case Opcode::Div:
  case Opcode::Rem:
    return decodeArithmetic(mods, d);
  case Opcode::Neg:
  case Opcode::Abs:
    return decodeNegAbs(mods, d);
  case Opcode::Min:
  case Opcode::Max:
    return decodeMinMax(mods, d);
  case Opcode::Shl:
    return decodeTyped(mods, d, isBits, "dvv");
  case Opcode::Shr:
    return decodeTyped(mods, d, isInt, "dvv");
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::Not:
    return decodeTyped(
        mods, d, [](T t) { return isBits(t) || t == T::Pred; },
        d.opcode == Opcode::Not ? "dv" : "dvv");
  case Opcode::Bfe:
    return decodeTyped(
        mods, d, [](T t) { return isUnsignedOrSigned(t) && bitWidth(t) >= 32; },
        "dvvv");
  case Opcode::Lop3:
    return decodeLop3(mods, d);
  case Opcode::Bfi:
    // bfi.{b32,b64} f, a, b, c, d (§9.7.1.20).
    return decodeTyped(mods, d, isB32OrB64, "dvvvv");
  case Opcode::Popc:
  case Opcode::Clz:
  case Opcode::Brev:
    // §9.7.1.14, §9.7.1.15, §9.7.1.18: .b32 and .b64; popc and clz write a
    // .u32.
    return decodeTyped(mods, d, isB32OrB64, "dv");
  case Opcode::Bfind:
    return decodeBfind(mods, d);
  case Opcode::Prmt:
    return decodePrmt(mods, d);
  case Opcode::Shf:
    return decodeShf(mods, d);
  case Opcode::Copysign:
    // copysign.f32 (§9.7.3.2); .f64 is not implemented (no f64).
    return decodeTyped(
        mods, d, [](T t) { return t == T::F32; }, "dvv");
  case Opcode::Setp:
    return decodeSetp(mods, d);
  case Opcode::Selp:
    return decodeTyped(
        mods, d, [](T t) { return isInt(t) || isF32OrF16(t) || t == T::F64; },
        "dvvv");
  case Opcode::Mov:
    return decodeMov(mods, d);
  case Opcode::Cvt:
    return decodeCvt(mods, d);
  case Opcode::Cvta:
    return decodeCvta(mods, d);
  case Opcode::Ld:
  case Opcode::St:
    return decodeLoadStore(mods, d);
  case Opcode::Atom:
  case Opcode::Red:
    return decodeAtomic(mods, d);
  case Opcode::Ex2:
  case Opcode::Lg2:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::Rcp:
  case Opcode::Sin:
  case Opcode::Cos:
  case Opcode::Tanh:
    return decodeSpecialFunction(mods, d);
  case Opcode::Bra:
    mods.take(F::Uniform);
    return finish(mods, d.operands.size() == 1 &&
                            d.operands[0].kind == OK::Immediate);
  case Opcode::Ret:
  case Opcode::Trap:
  case Opcode::CpAsyncCommit:
  case Opcode::CpAsyncWaitAll:
    return finish(mods, d.operands.empty());
  case Opcode::Membar: {
    // membar.{cta,gl,sys}.
    auto scope = mods.takeNext(F::FenceScope);
    return finish(mods, scope && *scope != 2 && d.operands.empty());
  }
  case Opcode::Fence: {
    // fence{.sc,.acq_rel}.{cta,gpu,sys}, .acq_rel by default; fence.proxy.*
    // and fence.mbarrier_init (TMA and mbarriers) are not implemented.
    auto order = mods.takeNext(F::FenceOrder);
    auto scope = mods.takeNext(F::FenceScope);
    return finish(mods, (!order || *order <= 1) && scope && *scope != 1 &&
                            d.operands.empty());
  }
  case Opcode::CpAsyncWait:
    return finish(mods, d.operands.size() == 1 &&
                            d.operands[0].kind == OK::Immediate);
  case Opcode::BarSync:
    return decodeBarrier(mods, d, mnemonic);
  case Opcode::Shfl:
    return decodeShfl(mods, d);
  case Opcode::Vote:
    return decodeVote(mods, d);
  case Opcode::BarWarpSync:
    // bar.warp.sync membermask (the ISA's "bar.warp.sync").
    return finish(mods, shapeIs(d, "v"));
  case Opcode::Activemask:
    // activemask.b32 d (the ISA's "activemask").
    return decodeTyped(
        mods, d, [](ScalarType t) { return t == ScalarType::B32; }, "d");
  case Opcode::Mma:
    return decodeMma(mods, d);
  case Opcode::Ldmatrix:
  case Opcode::Stmatrix:
    return decodeMatrixLoadStore(mods, d);
  case Opcode::CpAsync:
    return decodeCpAsync(mods, d);
  }
  llvm_unreachable("unknown opcode");
}

} // namespace

llvm::StringRef detail::opcodeName(Opcode opcode) {
  switch (opcode) {
#define PTX_OPCODE(Enum, Mnemonic, Class)                                      \
  case Opcode::Enum:                                                           \
    return Mnemonic;
#include "PtxOpcodes.def"
  }
  llvm_unreachable("unknown opcode");
}

std::optional<Opcode> detail::lookupOpcode(const PtxInstruction &inst,
                                           llvm::StringRef *mnemonic) {
  struct Spelling {
    Opcode opcode;
    llvm::StringLiteral mnemonic;
  };
  static constexpr Spelling spellings[] = {
#define PTX_OPCODE(Enum, Mnemonic, Class) {Opcode::Enum, Mnemonic},
#define PTX_OPCODE_ALIAS(Enum, Mnemonic) {Opcode::Enum, Mnemonic},
#include "PtxOpcodes.def"
  };
  std::optional<Opcode> found;
  size_t foundParts = 0;
  for (const Spelling &spelling : spellings) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    spelling.mnemonic.split(parts, '.');
    if (parts.front() != inst.opcode ||
        !llvm::all_of(llvm::drop_begin(parts), [&](llvm::StringRef part) {
          return llvm::is_contained(inst.modifiers, part);
        }))
      continue;
    // The most specific match: cp.async.wait_all rather than cp.async.
    if (found && parts.size() <= foundParts)
      continue;
    found = spelling.opcode;
    foundParts = parts.size();
    if (mnemonic)
      *mnemonic = spelling.mnemonic;
  }
  return found;
}

llvm::Expected<DecodedKernel> detail::decodeKernel(const PtxModule &module,
                                                   const PtxKernel &kernel) {
  DecodedKernel out;
  out.name = kernel.name;
  Scope scope;
  scope.labels = &kernel.labels;

  for (const PtxRegisterDeclaration &decl : kernel.registers) {
    unsigned bits = decl.type == ".pred" ? 1 : typeBytes(decl.type) * 8;
    if (bits == 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel '%s': unsupported register type '%s'", kernel.name.c_str(),
          decl.type.c_str());
    auto add = [&](const std::string &name) {
      scope.registers[name] = out.numRegisters++;
      out.registerBits.push_back(bits);
    };
    if (decl.count)
      for (unsigned i = 0; i < *decl.count; ++i)
        add(decl.name + std::to_string(i));
    else
      add(decl.name);
  }

  // Parameters in order, each at its own alignment (§5.1.6.1: the
  // parameter space is laid out like a struct).
  for (const PtxParam &param : kernel.params) {
    uint64_t element = typeBytes(param.type);
    uint64_t size = element * param.arraySize.value_or(1);
    uint64_t align = param.alignment.value_or(element);
    if (size == 0 || align == 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "kernel '%s': unsupported parameter '%s'",
                                     kernel.name.c_str(), param.name.c_str());
    out.paramBytes = llvm::alignTo(out.paramBytes, align);
    scope.params[param.name] = out.paramBytes;
    out.paramOffsets.push_back(out.paramBytes);
    out.paramSizes.push_back(size);
    out.paramBytes += size;
  }

  // Static shared variables first, then the dynamic array (§5.1.5: the
  // extern .shared array starts where the static ones end).
  uint64_t sharedEnd = 0;
  uint64_t dynamicAlign = 16;
  std::vector<const PtxVariable *> externs;
  auto layoutShared = [&](const PtxVariable &var) -> llvm::Error {
    if (var.space != PtxStateSpace::Shared)
      return llvm::Error::success();
    uint64_t element = typeBytes(var.type) * var.vectorWidth;
    uint64_t align = var.alignment.value_or(element);
    if (element == 0 || align == 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "unsupported shared variable '%s'",
                                     var.name.c_str());
    if (var.isExtern) {
      dynamicAlign = std::max(dynamicAlign, align);
      externs.push_back(&var);
      return llvm::Error::success();
    }
    uint64_t count = 1;
    for (const auto &dim : var.dimensions) {
      if (!dim)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "shared variable '%s' without a size",
                                       var.name.c_str());
      count *= *dim;
    }
    if (!var.initializer.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "initialized shared variable '%s'",
                                     var.name.c_str());
    sharedEnd = llvm::alignTo(sharedEnd, align);
    scope.sharedSymbols[var.name] = sharedEnd;
    sharedEnd += element * count;
    return llvm::Error::success();
  };
  for (const PtxVariable &var : module.variables)
    if (llvm::Error err = layoutShared(var))
      return std::move(err);
  // The .local variables, per thread, each at its alignment (nvcc's
  // __local_depot arrays: stack frames and arrays indexed by data).
  auto layoutLocal = [&](const PtxVariable &var) -> llvm::Error {
    uint64_t element = typeBytes(var.type) * var.vectorWidth;
    uint64_t align = var.alignment.value_or(element);
    uint64_t count = 1;
    for (const auto &dim : var.dimensions)
      count *= dim.value_or(0);
    if (element == 0 || align == 0 || count == 0 || !var.initializer.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "kernel '%s': unsupported local "
                                     "variable '%s'",
                                     kernel.name.c_str(), var.name.c_str());
    out.localBytes = llvm::alignTo(out.localBytes, align);
    scope.sharedSymbols[var.name] = out.localBytes;
    out.localBytes += element * count;
    // CUDA's limit, checked before the emulator allocates it per thread.
    constexpr uint64_t kMaxLocalBytes = 512 * 1024;
    if (out.localBytes > kMaxLocalBytes)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel '%s': %llu bytes of local memory per thread, more than "
          "the %llu a GPU has",
          kernel.name.c_str(), (unsigned long long)out.localBytes,
          (unsigned long long)kMaxLocalBytes);
    return llvm::Error::success();
  };
  for (const PtxVariable &var : kernel.variables) {
    llvm::Error err = var.space == PtxStateSpace::Shared ? layoutShared(var)
                      : var.space == PtxStateSpace::Local
                          ? layoutLocal(var)
                          : llvm::createStringError(
                                llvm::inconvertibleErrorCode(),
                                "kernel '%s': unsupported variable '%s'",
                                kernel.name.c_str(), var.name.c_str());
    if (err)
      return std::move(err);
  }
  out.dynamicSharedOffset = llvm::alignTo(sharedEnd, dynamicAlign);
  for (const PtxVariable *var : externs)
    scope.sharedSymbols[var->name] = out.dynamicSharedOffset;

  for (const PtxInstruction &inst : kernel.instructions) {
    DecodedInstruction d;
    d.line = inst.line;
    d.text = instructionText(inst);
    if (inst.guard) {
      auto it = scope.registers.find(inst.guard->predicate);
      if (it == scope.registers.end())
        return unsupported(inst, "unknown guard predicate");
      d.guard = it->second;
      d.guardNegated = inst.guard->negated;
    }
    for (const PtxOperand &operand : inst.operands) {
      auto decoded = decodeOperand(inst, operand, scope);
      if (!decoded)
        return decoded.takeError();
      d.operands.push_back(std::move(*decoded));
    }
    if (!decodeModifiers(inst, d))
      return unsupported(inst);
    // An f64 literal in an instruction of another type would be read as
    // that type's bits.
    bool wantsDouble = d.type == ScalarType::F64 ||
                       (d.opcode == Opcode::Cvt &&
                        d.sourceType == ScalarType::F64) ||
                       (d.opcode == Opcode::Mov && d.type == ScalarType::B64);
    for (const Operand &op : d.operands)
      if (op.kind == Operand::Kind::Immediate && op.isDouble && !wantsDouble)
        return unsupported(inst, "f64 immediate in a non-f64 instruction");
    d.rare = isRare(d);
    if (d.opcode == Opcode::Bra)
      d.target = d.operands[0].imm;
    out.hasGlobalAtomics |=
        (d.opcode == Opcode::Atom || d.opcode == Opcode::Red) &&
        d.space == Space::Global;
    out.code.push_back(std::move(d));
  }
  return out;
}
