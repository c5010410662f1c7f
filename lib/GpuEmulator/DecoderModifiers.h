//===- DecoderModifiers.h - PTX modifier spellings to fields ----*- C++ -*-===//
//
// The decoder's table of modifiers (PtxModifiers.def) and the bookkeeping
// that consumes an instruction's modifiers field by field: whatever is left
// over once its opcode took the fields it has makes the instruction
// unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUEMULATOR_DECODERMODIFIERS_H
#define MIRAGE_LIB_GPUEMULATOR_DECODERMODIFIERS_H

#include "Decoder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace mirage::emulator::detail {

/// What a modifier sets. Most name a member of DecodedInstruction
/// (setModifierField); the rest only have to be present, or are accepted
/// and ignored, and the opcode's decoding reads their values itself.
enum class ModifierField {
  Type,         // the first type sets `type` (cvt's second, mma's others
                // are read by their decoding)
  MulMode,      // mulMode
  Rounding,     // rounding
  IntRounding,  // intRounding
  Approx,       // approx
  FullRange,    // fullRange
  Ftz,          // ftz
  Sat,          // sat
  Relu,         // relu
  PropagateNan, // propagateNan
  ShiftAmount,  // shiftAmount
  ShiftLeft,    // shiftLeft (.l or .r)
  Clamp,        // clamp (.clamp or .wrap)
  PrmtMode,     // prmtMode
  Compare,      // compare
  Space,        // space
  VectorWidth,  // vectorWidth
  NonCoherent,  // nonCoherent
  ShflMode,     // shflMode
  VoteMode,     // voteMode
  AtomOp,       // atomOp
  MmaK,         // mmaK
  MatrixCount,  // matrixCount
  Transpose,    // transpose
  // Fields with no member: cache hints, .volatile, membar's and fence's
  // scopes and orders, cp.async's .cg or .ca, cvta's .to,
  // mma's .row and .col, ldmatrix's .m8n8, .sync, .aligned and bra's .uni.
  CacheHint,
  Volatile,
  FenceScope,
  FenceOrder,
  CopyCacheGlobal,
  ToGeneric,
  RowA,
  ColumnB,
  MatrixShape,
  Sync,
  Aligned,
  Uniform,
};

/// One row of PtxModifiers.def.
struct ModifierSpelling {
  ModifierField field;
  llvm::StringLiteral spelling;
  unsigned value;
};

/// PtxModifiers.def, in its order.
llvm::ArrayRef<ModifierSpelling> modifierTable();

/// Sets the member of `d` that `field` names to `value`; nothing for the
/// fields without one.
void setModifierField(DecodedInstruction &d, ModifierField field,
                      unsigned value);

/// The modifiers of one instruction, consumed one by one.
class Modifiers {
public:
  explicit Modifiers(const std::vector<std::string> &mods)
      : mods(mods), used(mods.size(), false) {}

  /// Takes the first modifier not yet taken that spells `spelling`.
  bool take(llvm::StringRef spelling);
  /// Takes the first modifier not yet taken that is a spelling of `field`
  /// and returns its value.
  std::optional<unsigned> take(ModifierField field);
  /// Takes the first modifier not yet taken only if it is a spelling of
  /// `field` (modifiers whose place the ISA fixes, e.g. setp's comparison).
  std::optional<unsigned> takeNext(ModifierField field);
  /// Takes each spelling of `field` present, once (the cache hints).
  void takeEach(ModifierField field);
  /// take(field) and setModifierField: whether the field was present.
  bool takeInto(DecodedInstruction &d, ModifierField field);
  /// takeNext(field) and setModifierField.
  bool takeNextInto(DecodedInstruction &d, ModifierField field);
  std::optional<ScalarType> takeType() {
    if (auto value = take(ModifierField::Type))
      return static_cast<ScalarType>(*value);
    return std::nullopt;
  }
  bool allTaken() const;

private:
  /// The value of modifier `i` in `field`, if it is one of its spellings.
  std::optional<unsigned> valueOf(size_t i, ModifierField field) const;

  const std::vector<std::string> &mods;
  std::vector<bool> used;
};

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_DECODERMODIFIERS_H
