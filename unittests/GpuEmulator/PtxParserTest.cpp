//===- PtxParserTest.cpp - the PTX emulator's parser ----------------------===//
//
// Hand-written snippets check each directive and operand kind against values
// written here; the inputs in Inputs/ are the PTX our pipeline emits
// (ptx_*.ptx) and an nvcc-compiled kernel (warp_reduce.cu, .ptx).
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/PtxParser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <string>

using namespace mirage::emulator;
using Kind = PtxOperand::Kind;

namespace {

PtxModule parseOrFail(llvm::StringRef text) {
  auto module = parsePtx(text);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return {};
  }
  return std::move(*module);
}

/// The message parsePtx fails with, or "" if it parses.
std::string parseError(llvm::StringRef text) {
  auto module = parsePtx(text);
  if (module)
    return "";
  return llvm::toString(module.takeError());
}

/// A kernel around `body`; its first body line is line 3.
std::string kernelWith(llvm::StringRef body) {
  return (".version 7.0\n.entry k() {\n" + body + "\n}\n").str();
}

/// The instructions of kernelWith(body).
std::vector<PtxInstruction> instructionsOf(llvm::StringRef body) {
  PtxModule module = parseOrFail(kernelWith(body));
  if (module.kernels.size() != 1) {
    ADD_FAILURE() << "expected one kernel";
    return {};
  }
  return module.kernels[0].instructions;
}

void expectRegister(const PtxOperand &operand, llvm::StringRef name) {
  EXPECT_EQ(operand.kind, Kind::Register);
  EXPECT_EQ(operand.name, name);
  EXPECT_FALSE(operand.negated);
}

//===----------------------------------------------------------------------===//
// Module and kernel directives
//===----------------------------------------------------------------------===//

TEST(PtxParserTest, ModuleHeaderAndVariables) {
  PtxModule module = parseOrFail(R"(
// comment
.version 8.3
.target sm_80, debug
.address_size 64
.shared .align 16 .b8 __dynamic_shmem__0;
.extern .shared .align 16 .b8 dyn[];
.global .align 4 .u32 counter = 7;
.const .align 2 .v2 .b8 table[2][2] = {{1, 0x10}, {-1, 255}};
)");
  EXPECT_EQ(module.versionMajor, 8u);
  EXPECT_EQ(module.versionMinor, 3u);
  EXPECT_EQ(module.target, "sm_80");
  EXPECT_EQ(module.targetOptions, std::vector<std::string>{"debug"});
  EXPECT_EQ(module.addressSize, 64u);
  EXPECT_TRUE(module.kernels.empty());
  ASSERT_EQ(module.variables.size(), 4u);

  const PtxVariable &shmem = module.variables[0];
  EXPECT_EQ(shmem.space, PtxStateSpace::Shared);
  EXPECT_EQ(shmem.name, "__dynamic_shmem__0");
  EXPECT_EQ(shmem.type, ".b8");
  EXPECT_EQ(shmem.alignment, 16u);
  EXPECT_TRUE(shmem.dimensions.empty());
  EXPECT_FALSE(shmem.isExtern);

  const PtxVariable &dyn = module.variables[1];
  EXPECT_EQ(dyn.space, PtxStateSpace::Shared);
  EXPECT_EQ(dyn.name, "dyn");
  EXPECT_TRUE(dyn.isExtern);
  ASSERT_EQ(dyn.dimensions.size(), 1u);
  EXPECT_EQ(dyn.dimensions[0], std::nullopt);

  const PtxVariable &counter = module.variables[2];
  EXPECT_EQ(counter.space, PtxStateSpace::Global);
  EXPECT_EQ(counter.type, ".u32");
  ASSERT_EQ(counter.initializer.size(), 1u);
  EXPECT_EQ(counter.initializer[0].kind, Kind::Integer);
  EXPECT_EQ(counter.initializer[0].intValue, 7);

  const PtxVariable &table = module.variables[3];
  EXPECT_EQ(table.space, PtxStateSpace::Const);
  EXPECT_EQ(table.alignment, 2u);
  EXPECT_EQ(table.vectorWidth, 2u);
  EXPECT_EQ(table.dimensions,
            (std::vector<std::optional<uint64_t>>{2, 2}));
  ASSERT_EQ(table.initializer.size(), 4u);
  EXPECT_EQ(table.initializer[0].intValue, 1);
  EXPECT_EQ(table.initializer[1].intValue, 16);
  EXPECT_EQ(table.initializer[2].intValue, -1);
  EXPECT_EQ(table.initializer[3].intValue, 255);
}

TEST(PtxParserTest, KernelSignatureAndLaunchBounds) {
  PtxModule module = parseOrFail(R"(
.version 7.0
.target sm_80
.address_size 64
.visible .entry first(
	.param .u64 .ptr .align 1 first_param_0,
	.param .align 2 .b8 first_param_1[2],
	.param .u32 first_param_2,
	.param .u64 .ptr .global .align 16 first_param_3
)
.maxntid 128, 1, 1
.minnctapersm 2
.pragma "nounroll";
{
	ret;
}
.entry second()
.reqntid 64
.maxnreg 32
{
	exit;
}
)");
  ASSERT_EQ(module.kernels.size(), 2u);
  const PtxKernel &first = module.kernels[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_TRUE(first.isVisible);
  ASSERT_EQ(first.params.size(), 4u);

  EXPECT_EQ(first.params[0].name, "first_param_0");
  EXPECT_EQ(first.params[0].type, ".u64");
  EXPECT_TRUE(first.params[0].isPointer);
  EXPECT_EQ(first.params[0].alignment, std::nullopt);
  EXPECT_EQ(first.params[0].pointeeAlignment, 1u);
  EXPECT_EQ(first.params[0].pointerSpace, "");

  EXPECT_EQ(first.params[1].type, ".b8");
  EXPECT_EQ(first.params[1].alignment, 2u);
  EXPECT_EQ(first.params[1].arraySize, 2u);
  EXPECT_FALSE(first.params[1].isPointer);

  EXPECT_EQ(first.params[2].type, ".u32");
  EXPECT_EQ(first.params[2].arraySize, std::nullopt);

  EXPECT_EQ(first.params[3].pointerSpace, ".global");
  EXPECT_EQ(first.params[3].pointeeAlignment, 16u);

  EXPECT_EQ(first.maxntid, (std::vector<unsigned>{128, 1, 1}));
  EXPECT_TRUE(first.reqntid.empty());
  EXPECT_EQ(first.minnctapersm, 2u);
  EXPECT_EQ(first.maxnreg, std::nullopt);

  const PtxKernel &second = module.kernels[1];
  EXPECT_EQ(second.name, "second");
  EXPECT_FALSE(second.isVisible);
  EXPECT_TRUE(second.params.empty());
  EXPECT_EQ(second.reqntid, std::vector<unsigned>{64});
  EXPECT_EQ(second.maxnreg, 32u);
  ASSERT_EQ(second.instructions.size(), 1u);
  EXPECT_EQ(second.instructions[0].opcode, "exit");
}

TEST(PtxParserTest, DeclarationsInTheBody) {
  PtxModule module = parseOrFail(kernelWith(R"(	.reg .pred 	%p<11>;
	.reg .b64 	%SP, %SPL;
	.shared .align 4 .b8 buf[256];
	.local .align 8 .b8 __local_depot0[16];
	{
	.reg .b16 %tmp;
	}
	.loc 1 12 5
	.file 1 "/tmp/k.cu"
	.pragma "nounroll";)"));
  ASSERT_EQ(module.kernels.size(), 1u);
  const PtxKernel &kernel = module.kernels[0];
  ASSERT_EQ(kernel.registers.size(), 4u);
  EXPECT_EQ(kernel.registers[0].type, ".pred");
  EXPECT_EQ(kernel.registers[0].name, "%p");
  EXPECT_EQ(kernel.registers[0].count, 11u);
  EXPECT_EQ(kernel.registers[1].type, ".b64");
  EXPECT_EQ(kernel.registers[1].name, "%SP");
  EXPECT_EQ(kernel.registers[1].count, std::nullopt);
  EXPECT_EQ(kernel.registers[2].name, "%SPL");
  EXPECT_EQ(kernel.registers[3].type, ".b16");
  // Declared in a nested block: renamed apart from any outer %tmp.
  EXPECT_EQ(kernel.registers[3].name, "%tmp#0");

  ASSERT_EQ(kernel.variables.size(), 2u);
  EXPECT_EQ(kernel.variables[0].space, PtxStateSpace::Shared);
  EXPECT_EQ(kernel.variables[0].name, "buf");
  EXPECT_EQ(kernel.variables[0].alignment, 4u);
  EXPECT_EQ(kernel.variables[0].dimensions,
            std::vector<std::optional<uint64_t>>{256});
  EXPECT_EQ(kernel.variables[1].space, PtxStateSpace::Local);
  EXPECT_EQ(kernel.variables[1].alignment, 8u);
  EXPECT_TRUE(kernel.instructions.empty());
}

//===----------------------------------------------------------------------===//
// Instructions and operands
//===----------------------------------------------------------------------===//

TEST(PtxParserTest, OpcodeModifiersAndLineNumbers) {
  auto instructions = instructionsOf(R"(	ld.shared.v4.b32 	{%r1, %r2, %r3, %r4}, [%rd1];
	/* a comment
	   over two lines */ bar.sync 	0;
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
		{%r10, %r11, %r12, %r13},
		{%r5, %r9, %r6, %r9},
		{%r7, %r8},
		{%r34, %r33, %r32, %r31};
	ret;)");
  ASSERT_EQ(instructions.size(), 4u);
  EXPECT_EQ(instructions[0].line, 3u);
  EXPECT_EQ(instructions[0].opcode, "ld");
  EXPECT_EQ(instructions[0].modifiers,
            (std::vector<std::string>{"shared", "v4", "b32"}));
  EXPECT_EQ(instructions[0].guard, std::nullopt);

  EXPECT_EQ(instructions[1].line, 5u);
  EXPECT_EQ(instructions[1].opcode, "bar");

  const PtxInstruction &mma = instructions[2];
  EXPECT_EQ(mma.line, 6u);
  EXPECT_EQ(mma.opcode, "mma");
  EXPECT_EQ(mma.modifiers,
            (std::vector<std::string>{"sync", "aligned", "m16n8k16", "row",
                                      "col", "f32", "f16", "f16", "f32"}));
  ASSERT_EQ(mma.operands.size(), 4u);
  EXPECT_EQ(mma.operands[2].kind, Kind::Vector);
  ASSERT_EQ(mma.operands[2].elements.size(), 2u);
  expectRegister(mma.operands[2].elements[1], "%r8");

  EXPECT_EQ(instructions[3].line, 11u);
  EXPECT_EQ(instructions[3].opcode, "ret");
  EXPECT_TRUE(instructions[3].modifiers.empty());
  EXPECT_TRUE(instructions[3].operands.empty());
}

TEST(PtxParserTest, Registers) {
  auto instructions = instructionsOf(R"(	mov.u32 	%r12, %tid.x;
	mov.u32 	%rd3, %ntid.x;
	mov.u32 	%f4, %ctaid.y;
	mov.u32 	%rs2, %nctaid.z;
	mov.u32 	%hh1, %laneid;
	mov.u32 	%p1, %warpid;
	and.pred 	%p2, %p1, !%p3;)");
  ASSERT_EQ(instructions.size(), 7u);
  const char *expected[][2] = {{"%r12", "%tid.x"},   {"%rd3", "%ntid.x"},
                               {"%f4", "%ctaid.y"},  {"%rs2", "%nctaid.z"},
                               {"%hh1", "%laneid"},  {"%p1", "%warpid"}};
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(instructions[i].operands.size(), 2u);
    expectRegister(instructions[i].operands[0], expected[i][0]);
    expectRegister(instructions[i].operands[1], expected[i][1]);
  }
  const PtxOperand &negated = instructions[6].operands[2];
  EXPECT_EQ(negated.kind, Kind::Register);
  EXPECT_EQ(negated.name, "%p3");
  EXPECT_TRUE(negated.negated);
}

TEST(PtxParserTest, IntegerImmediates) {
  auto instructions = instructionsOf(
      "\tprmt.b32 %r1, 42, -128, 0xff;\n"
      "\tmov.u32 %r2, 0xFFFFFFFF;\n"
      "\tmov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\n"
      "\tmov.u32 %r3, 017;\n"
      "\tmov.u32 %r4, 0b101;\n"
      "\tmov.u32 %r5, 7U;");
  ASSERT_EQ(instructions.size(), 6u);
  const auto &prmt = instructions[0].operands;
  ASSERT_EQ(prmt.size(), 4u);
  for (int i = 1; i < 4; ++i)
    EXPECT_EQ(prmt[i].kind, Kind::Integer);
  EXPECT_EQ(prmt[1].intValue, 42);
  EXPECT_EQ(prmt[2].intValue, -128);
  EXPECT_EQ(prmt[3].intValue, 255);
  EXPECT_EQ(instructions[1].operands[1].intValue, 4294967295);
  EXPECT_EQ(instructions[2].operands[1].intValue, -1);
  EXPECT_EQ(instructions[3].operands[1].intValue, 15);
  EXPECT_EQ(instructions[4].operands[1].intValue, 5);
  EXPECT_EQ(instructions[5].operands[1].intValue, 7);
}

TEST(PtxParserTest, FloatImmediatesKeepTheirBits) {
  auto instructions = instructionsOf(
      "\tfma.rn.f32 %f1, %f2, 0f3F800000, 0fCB40007F;\n"
      "\tadd.f64 %fd1, %fd2, 0dBFF0000000000000;\n"
      "\tadd.f64 %fd3, %fd2, 1.5;\n"
      "\tadd.f32 %f4, %f2, -0f3F800000;\n"
      "\tadd.f64 %fd4, %fd2, 2.5e-1;");
  ASSERT_EQ(instructions.size(), 5u);
  const PtxOperand &one = instructions[0].operands[2];
  EXPECT_EQ(one.kind, Kind::Float);
  EXPECT_FALSE(one.isDouble);
  EXPECT_EQ(one.floatBits, 0x3F800000u);
  EXPECT_EQ(instructions[0].operands[3].floatBits, 0xCB40007Fu);

  const PtxOperand &minusOne = instructions[1].operands[2];
  EXPECT_EQ(minusOne.kind, Kind::Float);
  EXPECT_TRUE(minusOne.isDouble);
  EXPECT_EQ(minusOne.floatBits, 0xBFF0000000000000u);

  const PtxOperand &decimal = instructions[2].operands[2];
  EXPECT_EQ(decimal.kind, Kind::Float);
  EXPECT_TRUE(decimal.isDouble);
  EXPECT_EQ(decimal.floatBits, 0x3FF8000000000000u);

  EXPECT_EQ(instructions[3].operands[2].floatBits, 0xBF800000u);
  EXPECT_EQ(instructions[4].operands[2].floatBits, 0x3FD0000000000000u);
}

TEST(PtxParserTest, Addresses) {
  auto instructions = instructionsOf(
      "\tld.shared.b32 %r1, [%rd1];\n"
      "\tld.shared.b32 %r1, [%rd1+16];\n"
      "\tld.shared.b16 %rs1, [%rd69+-1600];\n"
      "\tld.param.b64 %rd6, [k_param_0];\n"
      "\tld.shared.b32 %r1, [buf+8];\n"
      "\tst.shared.b32 [%r2-4], 0;");
  ASSERT_EQ(instructions.size(), 6u);
  struct Expected {
    const char *base;
    bool baseIsSymbol;
    int64_t offset;
  } expected[] = {{"%rd1", false, 0},      {"%rd1", false, 16},
                  {"%rd69", false, -1600}, {"k_param_0", true, 0},
                  {"buf", true, 8},        {"%r2", false, -4}};
  for (int i = 0; i < 6; ++i) {
    const PtxOperand &address = instructions[i].operands[i == 5 ? 0 : 1];
    EXPECT_EQ(address.kind, Kind::Address) << i;
    EXPECT_EQ(address.name, expected[i].base) << i;
    EXPECT_EQ(address.baseIsSymbol, expected[i].baseIsSymbol) << i;
    EXPECT_EQ(address.intValue, expected[i].offset) << i;
  }
}

TEST(PtxParserTest, VectorsPairsSinksAndSymbols) {
  auto instructions = instructionsOf(R"(	mov.b32 	%r7, {%rs1, %rs2};
	ld.shared.v4.b32 	{%r1, _, %r3, %r4}, [%rd1];
	shfl.sync.bfly.b32 	%r12|%p2, %r8, %r10, %r9, %r11;
	mov.u32 	%r26, partial;
	bra.uni 	$L__BB0_3;)");
  ASSERT_EQ(instructions.size(), 5u);
  const PtxOperand &pack = instructions[0].operands[1];
  EXPECT_EQ(pack.kind, Kind::Vector);
  ASSERT_EQ(pack.elements.size(), 2u);
  expectRegister(pack.elements[0], "%rs1");
  expectRegister(pack.elements[1], "%rs2");

  const PtxOperand &withSink = instructions[1].operands[0];
  ASSERT_EQ(withSink.elements.size(), 4u);
  expectRegister(withSink.elements[0], "%r1");
  EXPECT_EQ(withSink.elements[1].kind, Kind::Sink);
  expectRegister(withSink.elements[3], "%r4");

  const PtxOperand &pair = instructions[2].operands[0];
  EXPECT_EQ(pair.kind, Kind::RegisterPair);
  ASSERT_EQ(pair.elements.size(), 2u);
  expectRegister(pair.elements[0], "%r12");
  expectRegister(pair.elements[1], "%p2");
  EXPECT_EQ(instructions[2].operands.size(), 5u);

  EXPECT_EQ(instructions[3].operands[1].kind, Kind::Symbol);
  EXPECT_EQ(instructions[3].operands[1].name, "partial");

  EXPECT_EQ(instructions[4].opcode, "bra");
  EXPECT_EQ(instructions[4].modifiers, std::vector<std::string>{"uni"});
  ASSERT_EQ(instructions[4].operands.size(), 1u);
  EXPECT_EQ(instructions[4].operands[0].kind, Kind::Symbol);
  EXPECT_EQ(instructions[4].operands[0].name, "$L__BB0_3");
}

TEST(PtxParserTest, GuardsLabelsAndNestedScopes) {
  PtxModule module = parseOrFail(kernelWith(R"($L__BB0_1:
	@%p1 bra 	$L__BB0_1;
	{ mul.f16 %rs2,%rs3,%rs1;
	}
	{  cvt.f32.f16 %f28, %rs2;}
$L__BB0_2:
	@!%p2 exit;
$L__BB0_3:)"));
  ASSERT_EQ(module.kernels.size(), 1u);
  const PtxKernel &kernel = module.kernels[0];
  ASSERT_EQ(kernel.instructions.size(), 4u);
  const PtxInstruction &branch = kernel.instructions[0];
  ASSERT_TRUE(branch.guard.has_value());
  EXPECT_EQ(branch.guard->predicate, "%p1");
  EXPECT_FALSE(branch.guard->negated);
  EXPECT_EQ(branch.line, 4u);
  EXPECT_EQ(kernel.instructions[1].opcode, "mul");
  EXPECT_EQ(kernel.instructions[2].opcode, "cvt");
  EXPECT_EQ(kernel.instructions[2].line, 7u);
  const PtxInstruction &exit = kernel.instructions[3];
  ASSERT_TRUE(exit.guard.has_value());
  EXPECT_EQ(exit.guard->predicate, "%p2");
  EXPECT_TRUE(exit.guard->negated);

  EXPECT_EQ(kernel.labels.size(), 3u);
  EXPECT_EQ(kernel.labels.lookup("$L__BB0_1"), 0u);
  EXPECT_EQ(kernel.labels.lookup("$L__BB0_2"), 3u);
  EXPECT_EQ(kernel.labels.lookup("$L__BB0_3"), 4u);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(PtxParserTest, UnterminatedInstructionNamesItsLine) {
  EXPECT_EQ(parseError(kernelWith("\tmov.u32 %r1, %r2;\n"
                                  "\tadd.s32 %r1, %r2, %r3\n"
                                  "\tret;")),
            "PTX line 4: missing ';' after instruction 'add.s32' "
            "(unexpected 'ret' on line 5)");
  EXPECT_EQ(parseError(kernelWith("\tret")),
            "PTX line 3: missing ';' after instruction 'ret' "
            "(unexpected '}' on line 4)");
}

TEST(PtxParserTest, BadRegisterDeclarationNamesItsLine) {
  EXPECT_EQ(parseError(kernelWith("\t.reg .b32 %r<4>;\n\t.reg .b32 r<4>;")),
            "PTX line 4: unexpected token 'r' in register declaration "
            "(expected %name)");
  EXPECT_EQ(parseError(kernelWith("\n\t.reg .b32 %r<x>;")),
            "PTX line 4: unexpected token 'x' in register declaration "
            "(expected an unsigned integer)");
  EXPECT_EQ(parseError(kernelWith("\t.reg .b33 %r<4>;")),
            "PTX line 3: unexpected token '.b33' in register declaration "
            "(expected a type)");
}

TEST(PtxParserTest, UnknownDirectivesNameTheirLine) {
  EXPECT_EQ(parseError(".version 7.0\n.target sm_80\n.frobnicate 3\n"),
            "PTX line 3: unknown directive '.frobnicate' at module scope");
  EXPECT_EQ(parseError(kernelWith("\tret;\n\t.frobnicate;")),
            "PTX line 4: unknown directive '.frobnicate' in body of kernel "
            "'k'");
}

TEST(PtxParserTest, OtherErrors) {
  EXPECT_EQ(parseError(".version 7.0\n.visible .func (.param .b32 r) "
                       "helper(.param .b32 x)\n{\n}\n"),
            "PTX line 2: device function 'helper' is not supported (.func)");
  EXPECT_EQ(parseError(".version 7.0\n/* open\n\n"),
            "PTX line 2: unterminated '/*' comment");
  EXPECT_EQ(parseError(kernelWith("L1:\n\tret;\nL1:")),
            "PTX line 5: label 'L1' redefined");
  EXPECT_EQ(parseError(kernelWith("\tld.shared.b32 %r1, [%rd1+];")),
            "PTX line 3: unexpected token ']' in instruction "
            "'ld.shared.b32' (expected an address offset)");
  EXPECT_EQ(parseError(kernelWith("\tmov.f32 %f1, 0f3F80;")),
            "PTX line 3: malformed f32 literal '0f3F80'");
  EXPECT_EQ(parseError(kernelWith("\tret;")).empty(), true);
  EXPECT_EQ(parseError(".version 7.0\n.entry k()\n{\n\tret;\n"),
            "PTX line 5: missing '}' at the end of body of kernel 'k'");
}

//===----------------------------------------------------------------------===//
// Real PTX
//===----------------------------------------------------------------------===//

PtxModule parseInput(llvm::StringRef name) {
  std::string path = std::string(MIRAGE_SOURCE_DIR) +
                     "/unittests/GpuEmulator/Inputs/" + name.str();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  return parseOrFail((*buffer)->getBuffer());
}

/// Registers are named with '%'; vector elements are registers or sinks.
void expectWellFormed(const PtxOperand &operand) {
  switch (operand.kind) {
  case Kind::Register:
    EXPECT_TRUE(llvm::StringRef(operand.name).starts_with("%"));
    break;
  case Kind::Vector:
    EXPECT_FALSE(operand.elements.empty());
    for (const PtxOperand &element : operand.elements)
      EXPECT_TRUE(element.kind == Kind::Register || element.kind == Kind::Sink);
    break;
  case Kind::RegisterPair:
    ASSERT_EQ(operand.elements.size(), 2u);
    EXPECT_EQ(operand.elements[0].kind, Kind::Register);
    EXPECT_EQ(operand.elements[1].kind, Kind::Register);
    break;
  case Kind::Address:
  case Kind::Symbol:
    EXPECT_FALSE(operand.name.empty());
    break;
  case Kind::Integer:
  case Kind::Float:
  case Kind::Sink:
    break;
  }
}

/// Checks every instruction of `module` and counts its opcodes.
void checkInstructions(const PtxModule &module,
                       llvm::StringMap<unsigned> &histogram) {
  for (const PtxKernel &kernel : module.kernels) {
    for (const PtxInstruction &instruction : kernel.instructions) {
      ++histogram[instruction.opcode];
      EXPECT_GT(instruction.line, 0u);
      if (instruction.guard) {
        EXPECT_TRUE(
            llvm::StringRef(instruction.guard->predicate).starts_with("%p"));
      }
      for (const PtxOperand &operand : instruction.operands)
        expectWellFormed(operand);
      // Every branch goes to a label of its kernel.
      if (instruction.opcode == "bra") {
        ASSERT_EQ(instruction.operands.size(), 1u);
        EXPECT_TRUE(kernel.labels.contains(instruction.operands[0].name))
            << kernel.name << " line " << instruction.line;
      }
      if (instruction.opcode != "mma")
        continue;
      // m16n8k16 f32 += f16 * f16: D and C are 4 f32 registers, A 4 and B 2
      // registers of f16x2.
      ASSERT_EQ(instruction.operands.size(), 4u);
      EXPECT_EQ(instruction.operands[0].kind, Kind::Vector);
      EXPECT_EQ(instruction.operands[0].elements.size(), 4u);
      EXPECT_EQ(instruction.operands[1].kind, Kind::Vector);
      EXPECT_EQ(instruction.operands[1].elements.size(), 4u);
      EXPECT_EQ(instruction.operands[2].kind, Kind::Vector);
      EXPECT_EQ(instruction.operands[2].elements.size(), 2u);
      EXPECT_EQ(instruction.operands[3].elements.size(), 4u);
    }
  }
}

TEST(PtxParserTest, PipelinePtx) {
  struct Input {
    const char *file;
    std::vector<size_t> paramCounts; // per kernel
    unsigned mmaCount;
  } inputs[] = {{"ptx_rmsnorm_b1.ptx", {2, 3}, 2},
                {"ptx_gated_mlp.ptx", {3, 3, 2, 3}, 4},
                {"ptx_lora.ptx", {3, 3, 3, 3}, 5},
                {"ptx_gqa_b1.ptx", {3, 2, 3}, 34}};
  llvm::StringMap<unsigned> histogram;
  for (const Input &input : inputs) {
    SCOPED_TRACE(input.file);
    PtxModule module = parseInput(input.file);
    EXPECT_EQ(module.versionMajor, 7u);
    EXPECT_EQ(module.target, "sm_80");
    EXPECT_EQ(module.addressSize, 64u);
    ASSERT_EQ(module.variables.size(), 1u);
    EXPECT_EQ(module.variables[0].name, "__dynamic_shmem__0");
    ASSERT_EQ(module.kernels.size(), input.paramCounts.size());
    for (size_t k = 0; k < module.kernels.size(); ++k) {
      EXPECT_EQ(module.kernels[k].params.size(), input.paramCounts[k]);
      EXPECT_EQ(module.kernels[k].maxntid,
                (std::vector<unsigned>{128, 1, 1}));
      EXPECT_FALSE(module.kernels[k].instructions.empty());
    }
    llvm::StringMap<unsigned> fileHistogram;
    checkInstructions(module, fileHistogram);
    EXPECT_EQ(fileHistogram.lookup("mma"), input.mmaCount);
    for (const auto &entry : fileHistogram)
      histogram[entry.getKey()] += entry.getValue();
  }
  for (const char *opcode : {"ld", "st", "cp", "mma", "bar", "shfl"})
    EXPECT_GT(histogram.lookup(opcode), 0u) << opcode;
}

TEST(PtxParserTest, NvccPtx) {
  PtxModule module = parseInput("warp_reduce.ptx");
  EXPECT_EQ(module.target, "sm_80");
  ASSERT_EQ(module.variables.size(), 1u);
  EXPECT_EQ(module.variables[0].name, "partial");
  EXPECT_TRUE(module.variables[0].isExtern);
  ASSERT_EQ(module.kernels.size(), 1u);
  const PtxKernel &kernel = module.kernels[0];
  EXPECT_EQ(kernel.name, "warpReduce");
  ASSERT_EQ(kernel.params.size(), 4u);
  EXPECT_EQ(kernel.params[1].arraySize, 2u); // the __half
  EXPECT_EQ(kernel.labels.size(), 4u);

  llvm::StringMap<unsigned> histogram;
  checkInstructions(module, histogram);
  EXPECT_EQ(histogram.lookup("shfl"), 10u);
  EXPECT_EQ(histogram.lookup("bar"), 1u);
  unsigned halfProducts = 0; // __hmul, inline asm in a nested scope
  for (const PtxInstruction &instruction : kernel.instructions) {
    if (instruction.opcode == "shfl") {
      EXPECT_EQ(instruction.operands[0].kind, Kind::RegisterPair);
    }
    if (instruction.opcode == "mul" &&
        instruction.modifiers == std::vector<std::string>{"f16"})
      ++halfProducts;
  }
  EXPECT_EQ(halfProducts, 1u);
}

TEST(PtxParserTest, TruncatedPtxFailsWithALineNumber) {
  std::string path = std::string(MIRAGE_SOURCE_DIR) +
                     "/unittests/GpuEmulator/Inputs/warp_reduce.ptx";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer)) << path;
  llvm::StringRef text = (*buffer)->getBuffer();
  // Every prefix ending inside the kernel body is incomplete.
  size_t body = text.find("{\n");
  ASSERT_NE(body, llvm::StringRef::npos);
  for (size_t end = body; end + 3 < text.size(); end += 7) {
    std::string error = parseError(text.take_front(end));
    EXPECT_TRUE(llvm::StringRef(error).starts_with("PTX line "))
        << "prefix of " << end << " bytes: '" << error << "'";
  }
}

} // namespace
