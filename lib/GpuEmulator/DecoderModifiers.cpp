//===- DecoderModifiers.cpp - PTX modifier spellings to fields ------------===//

#include "DecoderModifiers.h"
#include "llvm/ADT/STLExtras.h"

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

llvm::ArrayRef<ModifierSpelling> detail::modifierTable() {
  static constexpr ModifierSpelling table[] = {
#define PTX_MODIFIER(Field, Spelling, Value)                                   \
  {ModifierField::Field, Spelling, static_cast<unsigned>(Value)},
#include "PtxModifiers.def"
  };
  return table;
}

void detail::setModifierField(DecodedInstruction &d, ModifierField field,
                              unsigned value) {
  using F = ModifierField;
  switch (field) {
  case F::Type:
    d.type = static_cast<ScalarType>(value);
    return;
  case F::MulMode:
    d.mulMode = static_cast<MulMode>(value);
    return;
  case F::Rounding:
    d.rounding = static_cast<Rounding>(value);
    return;
  case F::IntRounding:
    d.intRounding = static_cast<IntRounding>(value);
    return;
  case F::Approx:
    d.approx = value;
    return;
  case F::FullRange:
    d.fullRange = value;
    return;
  case F::Ftz:
    d.ftz = value;
    return;
  case F::Sat:
    d.sat = value;
    return;
  case F::Relu:
    d.relu = value;
    return;
  case F::PropagateNan:
    d.propagateNan = value;
    return;
  case F::ShiftAmount:
    d.shiftAmount = value;
    return;
  case F::ShiftLeft:
    d.shiftLeft = value;
    return;
  case F::Clamp:
    d.clamp = value;
    return;
  case F::PrmtMode:
    d.prmtMode = static_cast<PrmtMode>(value);
    return;
  case F::Compare:
    d.compare = static_cast<Compare>(value);
    return;
  case F::Space:
    d.space = static_cast<Space>(value);
    return;
  case F::VectorWidth:
    d.vectorWidth = value;
    return;
  case F::NonCoherent:
    d.nonCoherent = value;
    return;
  case F::ShflMode:
    d.shflMode = static_cast<ShflMode>(value);
    return;
  case F::VoteMode:
    d.voteMode = static_cast<VoteMode>(value);
    return;
  case F::AtomOp:
    d.atomOp = static_cast<AtomOp>(value);
    return;
  case F::MmaK:
    d.mmaK = value;
    return;
  case F::MatrixCount:
    d.matrixCount = value;
    return;
  case F::Transpose:
    d.transpose = value;
    return;
  case F::CacheHint:
  case F::Volatile:
  case F::FenceScope:
  case F::FenceOrder:
  case F::CopyCacheGlobal:
  case F::ToGeneric:
  case F::RowA:
  case F::ColumnB:
  case F::MatrixShape:
  case F::Sync:
  case F::Aligned:
  case F::Uniform:
    return;
  }
  llvm_unreachable("unknown modifier field");
}

std::optional<unsigned> Modifiers::valueOf(size_t i,
                                           ModifierField field) const {
  for (const ModifierSpelling &row : modifierTable())
    if (row.field == field && mods[i] == row.spelling)
      return row.value;
  return std::nullopt;
}

bool Modifiers::take(llvm::StringRef spelling) {
  for (size_t i = 0; i < mods.size(); ++i)
    if (!used[i] && mods[i] == spelling)
      return used[i] = true;
  return false;
}

std::optional<unsigned> Modifiers::take(ModifierField field) {
  for (size_t i = 0; i < mods.size(); ++i) {
    if (used[i])
      continue;
    if (auto value = valueOf(i, field)) {
      used[i] = true;
      return value;
    }
  }
  return std::nullopt;
}

std::optional<unsigned> Modifiers::takeNext(ModifierField field) {
  for (size_t i = 0; i < mods.size(); ++i) {
    if (used[i])
      continue;
    auto value = valueOf(i, field);
    if (value)
      used[i] = true;
    return value;
  }
  return std::nullopt;
}

void Modifiers::takeEach(ModifierField field) {
  for (const ModifierSpelling &row : modifierTable())
    if (row.field == field)
      take(row.spelling);
}

bool Modifiers::takeInto(DecodedInstruction &d, ModifierField field) {
  auto value = take(field);
  if (value)
    setModifierField(d, field, *value);
  return value.has_value();
}

bool Modifiers::takeNextInto(DecodedInstruction &d, ModifierField field) {
  auto value = takeNext(field);
  if (value)
    setModifierField(d, field, *value);
  return value.has_value();
}

bool Modifiers::allTaken() const {
  return llvm::all_of(used, [](bool u) { return u; });
}
