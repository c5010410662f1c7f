//===- DecoderTablesTest.cpp - the emulator's opcode and modifier tables --===//
//
// PtxOpcodes.def and PtxModifiers.def against the parser and the decoder:
// every opcode's mnemonic parses back to it, no two opcodes share a
// spelling, and every modifier decodes to the value its row gives.
//
//===----------------------------------------------------------------------===//

#include "../../lib/GpuEmulator/Decoder.h"
#include "../../lib/GpuEmulator/DecoderModifiers.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"
#include <string>

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

namespace {

struct Spelling {
  Opcode opcode;
  llvm::StringRef mnemonic;
};

constexpr Spelling kOpcodes[] = {
#define PTX_OPCODE(Enum, Mnemonic, Class) {Opcode::Enum, Mnemonic},
#include "../../lib/GpuEmulator/PtxOpcodes.def"
};

constexpr Spelling kAliases[] = {
#define PTX_OPCODE_ALIAS(Enum, Mnemonic) {Opcode::Enum, Mnemonic},
#include "../../lib/GpuEmulator/PtxOpcodes.def"
};

/// A kernel whose only instruction is `instruction`, with registers of
/// every width and a parameter `p`.
std::string kernelWith(llvm::StringRef instruction) {
  return (".version 7.0\n.entry k(.param .u64 p) {\n"
          "  .reg .pred %p<4>;\n  .reg .b16 %h<4>;\n  .reg .b32 %r<8>;\n"
          "  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n  " +
          instruction + ";\n}\n")
      .str();
}

TEST(DecoderTablesTest, OpcodeNamesRoundTripThroughTheParser) {
  auto check = [](const Spelling &spelling) {
    SCOPED_TRACE(spelling.mnemonic.str());
    auto module = parsePtx(kernelWith(spelling.mnemonic));
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    const PtxInstruction &inst = module->kernels[0].instructions[0];
    llvm::StringRef matched;
    EXPECT_EQ(lookupOpcode(inst, &matched), spelling.opcode);
    EXPECT_EQ(matched, spelling.mnemonic);
  };
  for (const Spelling &spelling : kOpcodes) {
    EXPECT_EQ(opcodeName(spelling.opcode), spelling.mnemonic);
    check(spelling);
  }
  for (const Spelling &alias : kAliases)
    check(alias);
}

TEST(DecoderTablesTest, OpcodeNamesAreUnique) {
  llvm::StringSet<> names;
  for (const Spelling &spelling : kOpcodes)
    EXPECT_TRUE(names.insert(spelling.mnemonic).second)
        << spelling.mnemonic.str();
  for (const Spelling &alias : kAliases)
    EXPECT_TRUE(names.insert(alias.mnemonic).second) << alias.mnemonic.str();
  // The enum follows the list: Opcode(i) is its i-th row.
  for (unsigned i = 0; i < std::size(kOpcodes); ++i)
    EXPECT_EQ(unsigned(kOpcodes[i].opcode), i);
}

TEST(DecoderTablesTest, ModifierSpellingsAreUniquePerField) {
  llvm::StringSet<> seen;
  for (const ModifierSpelling &row : modifierTable()) {
    std::string key =
        std::to_string(unsigned(row.field)) + ":" + row.spelling.str();
    EXPECT_TRUE(seen.insert(key).second) << row.spelling.str();
  }
}

/// The member of `d` that `field` sets, if it has one.
std::optional<unsigned> memberOf(const DecodedInstruction &d,
                                 ModifierField field) {
  using F = ModifierField;
  switch (field) {
  case F::Type:
    return unsigned(d.type);
  case F::MulMode:
    return unsigned(d.mulMode);
  case F::Rounding:
    return d.rounding ? std::optional<unsigned>(unsigned(*d.rounding))
                      : std::nullopt;
  case F::IntRounding:
    return d.intRounding ? std::optional<unsigned>(unsigned(*d.intRounding))
                         : std::nullopt;
  case F::Approx:
    return d.approx;
  case F::FullRange:
    return d.fullRange;
  case F::Ftz:
    return d.ftz;
  case F::Sat:
    return d.sat;
  case F::Relu:
    return d.relu;
  case F::PropagateNan:
    return d.propagateNan;
  case F::ShiftAmount:
    return d.shiftAmount;
  case F::ShiftLeft:
    return d.shiftLeft;
  case F::Clamp:
    return d.clamp;
  case F::PrmtMode:
    return unsigned(d.prmtMode);
  case F::Compare:
    return unsigned(d.compare);
  case F::Space:
    return unsigned(d.space);
  case F::VectorWidth:
    return d.vectorWidth;
  case F::NonCoherent:
    return d.nonCoherent;
  case F::ShflMode:
    return unsigned(d.shflMode);
  case F::VoteMode:
    return unsigned(d.voteMode);
  case F::AtomOp:
    return unsigned(d.atomOp);
  case F::MmaK:
    return d.mmaK;
  case F::MatrixCount:
    return d.matrixCount;
  case F::Transpose:
    return d.transpose;
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
    return std::nullopt;
  }
  return std::nullopt;
}

/// An instruction the decoder accepts with `row`'s modifier in it, or ""
/// for the fields without a member.
std::string instructionWith(const ModifierSpelling &row) {
  using F = ModifierField;
  std::string m = row.spelling.str();
  switch (row.field) {
  case F::Type: {
    auto type = ScalarType(row.value);
    if (type == ScalarType::Pred)
      return "mov.pred %p1, %p2";
    if (bitWidth(type) == 8)
      return "ld.global." + m + " %h1, [%rd1]";
    return "mov." + m + " %r1, %r2";
  }
  case F::MulMode:
    return "mul." + m + ".s32 %r1, %r2, %r3";
  case F::Rounding:
    return "add." + m + ".f32 %f1, %f2, %f3";
  case F::IntRounding:
    return "cvt." + m + ".s32.f32 %r1, %f1";
  case F::Approx:
  case F::FullRange:
    return "div." + m + ".f32 %f1, %f2, %f3";
  case F::Ftz:
  case F::Sat:
    return "add." + m + ".f32 %f1, %f2, %f3";
  case F::Relu:
    return "fma.rn." + m + ".f16 %h1, %h2, %h3, %h1";
  case F::PropagateNan:
    return "min." + m + ".f32 %f1, %f2, %f3";
  case F::ShiftAmount:
    return "bfind." + m + ".u32 %r1, %r2";
  case F::ShiftLeft:
    return "shf." + m + ".clamp.b32 %r1, %r2, %r3, %r4";
  case F::Clamp:
    return "shf.l." + m + ".b32 %r1, %r2, %r3, %r4";
  case F::PrmtMode:
    return "prmt.b32." + m + " %r1, %r2, %r3, %r4";
  case F::Compare:
    return "setp." + m +
           (Compare(row.value) <= Compare::Hs ? ".u32 %p1, %r1, %r2"
                                              : ".f32 %p1, %f1, %f2");
  case F::Space:
    return "ld." + m + ".u32 %r1, [p]";
  case F::VectorWidth:
    return "ld.global." + m +
           (row.value == 2 ? ".u32 {%r1, %r2}, [%rd1]"
                           : ".u32 {%r1, %r2, %r3, %r4}, [%rd1]");
  case F::NonCoherent:
    return "ld.global." + m + ".u32 %r1, [%rd1]";
  case F::ShflMode:
    return "shfl.sync." + m + ".b32 %r1, %r2, 1, 31, -1";
  case F::MmaK:
    return row.value == kMmaK
               ? "mma.sync.aligned." + m +
                     ".row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f1}, "
                     "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f1}"
               : "mma.sync.aligned." + m +
                     ".row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f1}, "
                     "{%r1, %r2}, {%r5}, {%f1, %f2, %f3, %f1}";
  case F::VoteMode:
    return "vote.sync." + m +
           (VoteMode(row.value) == VoteMode::Ballot ? ".b32 %r1, %p1, -1"
                                                    : ".pred %p1, %p2, -1");
  case F::AtomOp: {
    AtomOp op = AtomOp(row.value);
    std::string type = op == AtomOp::Min || op == AtomOp::Max ? ".s32"
                       : op == AtomOp::Add || op == AtomOp::Inc ||
                               op == AtomOp::Dec
                           ? ".u32"
                           : ".b32";
    return "atom.global." + m + type + " %r1, [%rd1], %r2" +
           (op == AtomOp::Cas ? ", %r3" : "");
  }
  case F::MatrixCount:
    return "ldmatrix.sync.aligned.m8n8." + m + ".shared.b16 " +
           (row.value == 1   ? "{%r1}"
            : row.value == 2 ? "{%r1, %r2}"
                             : "{%r1, %r2, %r3, %r4}") +
           ", [%r5]";
  case F::Transpose:
    return "ldmatrix.sync.aligned.m8n8.x1." + m + ".shared.b16 %r1, [%r5]";
  default:
    return "";
  }
}

TEST(DecoderTablesTest, EveryModifierDecodesToItsValue) {
  for (const ModifierSpelling &row : modifierTable()) {
    SCOPED_TRACE(row.spelling.str());
    // Alone, the spelling is taken as the row's field with its value.
    std::vector<std::string> alone = {row.spelling.str()};
    Modifiers mods(alone);
    EXPECT_EQ(mods.take(row.field), row.value);
    EXPECT_TRUE(mods.allTaken());

    // In an instruction, it sets the decoded field to that value.
    std::string instruction = instructionWith(row);
    if (instruction.empty())
      continue;
    SCOPED_TRACE(instruction);
    auto module = parsePtx(kernelWith(instruction));
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    auto kernel = decodeKernel(*module, module->kernels[0]);
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    EXPECT_EQ(memberOf(kernel->code[0], row.field), row.value);
  }
}

} // namespace
