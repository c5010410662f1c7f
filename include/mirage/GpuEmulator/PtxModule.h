//===- PtxModule.h - the in-memory form of a PTX module ---------*- C++ -*-===//
//
// What PtxParser.h builds from PTX text, and what the PTX emulator executes.
// Instructions are kept generic (opcode, modifiers, operands) so that the
// parser accepts any opcode; the emulator decides which ones it supports.
// Every value is kept as written (immediates as raw bits, names as text) so
// that nothing is lost before execution.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_PTXMODULE_H
#define MIRAGE_GPUEMULATOR_PTXMODULE_H

#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mirage::emulator {

/// The state space of a variable: where the emulator allocates it.
enum class PtxStateSpace { Global, Shared, Const, Local };

/// An instruction operand. Only the fields of its kind are meaningful.
struct PtxOperand {
  enum class Kind {
    Register,      // %r12, %p1, %tid.x, %laneid; `!%p1` sets negated
    Integer,       // 42, -128, 0xff
    Float,         // 0f3F800000 (f32 bits), 0d3FF0000000000000, 1.5 (f64)
    Address,       // [%rd1], [%rd1+-16], [sym], [sym+8]
    Vector,        // {%r1, %r2, _}: elements are Register or Sink
    RegisterPair,  // %r1|%p2 (shfl.sync, setp): elements are two Registers
    Symbol,        // a label, parameter or variable named bare
    Sink,          // `_`: a result that is discarded
  };
  Kind kind = Kind::Register;
  /// Register: its name with the `%`; Symbol: the name; Address: the base
  /// register or symbol.
  std::string name;
  /// Register: `!%p` (a negated predicate source).
  bool negated = false;
  /// Address: the base is a symbol (variable or parameter) rather than a
  /// register holding an address.
  bool baseIsSymbol = false;
  /// Integer: the value (unsigned literals wrap into it); Address: the
  /// byte offset added to the base.
  int64_t intValue = 0;
  /// Float: the IEEE bits as written; f32 bits when !isDouble.
  uint64_t floatBits = 0;
  bool isDouble = false;
  /// Vector and RegisterPair: the elements in order.
  std::vector<PtxOperand> elements;
};

/// A `.global`, `.shared`, `.const` or `.local` variable, at module scope or
/// in a kernel body, e.g. `.extern .shared .align 16 .b8 buf[];`.
struct PtxVariable {
  PtxStateSpace space = PtxStateSpace::Global;
  std::string name;
  std::string type; // with its dot, e.g. ".b8"; the element type of an array
  /// `.align N`; nullopt when absent (the type's own alignment applies).
  std::optional<unsigned> alignment;
  /// `.v2`/`.v4` element vectors; 1 for scalars.
  unsigned vectorWidth = 1;
  /// One entry per `[N]`; nullopt for `[]`, whose size the launch decides
  /// (dynamic shared memory). Empty for a scalar.
  std::vector<std::optional<uint64_t>> dimensions;
  /// `.extern`: defined elsewhere; for `.shared`, the dynamic shared memory.
  bool isExtern = false;
  /// `= {...}` or `= v`, flattened in order: integer or float immediates.
  /// Empty when uninitialized (zero-filled).
  std::vector<PtxOperand> initializer;
};

/// A kernel parameter, e.g. `.param .u64 .ptr .align 1 k_param_0`.
struct PtxParam {
  std::string name; // what `ld.param` addresses, e.g. [k_param_0]
  std::string type; // with its dot, e.g. ".u64", ".b8"
  std::optional<unsigned> alignment; // `.align N` of the parameter itself
  /// `[N]` for byte-array parameters (structs, halves); nullopt for scalars.
  std::optional<uint64_t> arraySize;
  /// `.ptr`: the parameter is a pointer; `.ptr .global .align 16` also names
  /// the pointee's state space and alignment (hints, not semantics).
  bool isPointer = false;
  std::string pointerSpace; // e.g. ".global"; empty when not stated
  std::optional<unsigned> pointeeAlignment;
};

/// `.reg .b32 %r<12>;` declares %r0..%r11 (prefix "%r", count 12);
/// `.reg .pred %p;` declares %p alone (no count).
struct PtxRegisterDeclaration {
  std::string type; // with its dot, e.g. ".b32", ".pred"
  std::string name; // the prefix when count is set, else the register
  std::optional<unsigned> count;
};

/// An instruction's `@%p` / `@!%p` guard: it executes only on threads whose
/// predicate is true (false when negated).
struct PtxGuard {
  std::string predicate; // e.g. "%p1"
  bool negated = false;
};

/// One instruction: `@%p1 ld.shared.v4.b32 {%r1, ...}, [%rd2+16];`.
struct PtxInstruction {
  unsigned line = 0; // 1-based line of the opcode in the PTX text, for errors
  std::optional<PtxGuard> guard;
  std::string opcode; // "ld"
  /// The dot-separated parts after the opcode, in order: {"shared", "v4",
  /// "b32"} (without dots).
  std::vector<std::string> modifiers;
  std::vector<PtxOperand> operands;
};

/// An `.entry` kernel.
struct PtxKernel {
  std::string name;
  bool isVisible = false; // `.visible`: callable from the host
  std::vector<PtxParam> params;
  /// Launch bounds: `.maxntid x, y, z` and `.reqntid` (1 to 3 entries;
  /// empty when absent), `.minnctapersm n` and `.maxnreg n`.
  std::vector<unsigned> maxntid;
  std::vector<unsigned> reqntid;
  std::optional<unsigned> minnctapersm;
  std::optional<unsigned> maxnreg;
  /// Registers of the body and of its nested `{ }` scopes, in order.
  /// Nested scopes are flattened: a register is known by its name alone.
  std::vector<PtxRegisterDeclaration> registers;
  /// `.shared` and `.local` variables declared in the body.
  std::vector<PtxVariable> variables;
  std::vector<PtxInstruction> instructions;
  /// Label name -> index in `instructions` of the instruction it precedes
  /// (instructions.size() for a label at the end of the body).
  llvm::StringMap<unsigned> labels;
};

/// A PTX module: one `.ptx` file.
struct PtxModule {
  unsigned versionMajor = 0; // `.version 7.0`
  unsigned versionMinor = 0;
  std::string target; // `.target sm_80`
  /// Further `.target` entries, e.g. "debug", "texmode_independent".
  std::vector<std::string> targetOptions;
  unsigned addressSize = 32; // `.address_size`; PTX defaults to 32 bits
  std::vector<PtxKernel> kernels;
  /// Module-scope `.global`, `.shared` and `.const` variables, in order.
  std::vector<PtxVariable> variables;
};

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_PTXMODULE_H
