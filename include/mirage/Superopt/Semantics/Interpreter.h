//===- Interpreter.h - reference semantics of the four levels ---*- C++ -*-===//
//
// Executes a func.func whose body holds graph and kernel ops (graph-defined
// kernels with their block graphs and thread.fused chains included) on
// concrete inputs, in one of three arithmetics:
//
//  - fp64: every op in double precision;
//  - native: double precision, with each op's result rounded to the op's
//    own element type (f16, bf16, f32), so the program's precision loss
//    shows; where the GPU code keeps a value wider (sum and max
//    accumulators, a matmul feeding only a sum accumulator, thread.fused
//    chains: f32), the run does too (BlockSemantics.cpp,
//    ThreadSemantics.cpp);
//  - field: finite-field fingerprints (FieldArithmetic.h).
//
// The semantics of each level is in one file: GraphSemantics.cpp,
// KernelSemantics.cpp, BlockSemantics.cpp, ThreadSemantics.cpp.
//
// Sizes are checked before anything is allocated: every value of the
// function (tensors, tiles, the unfolded windows of a convolution) must
// have at most kMaxInterpreterElements elements (a located error
// otherwise), and the estimated peak of the run's live tensors must fit the
// memory limit.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_INTERPRETER_H
#define MIRAGE_SUPEROPT_INTERPRETER_H

#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include <functional>
#include <string>

namespace mirage::superopt {

/// The most elements one value of an interpreted function may have:
/// 2^31 - 1, 16 GiB as doubles. Larger programs are beyond what the
/// reference interpreter is for.
constexpr int64_t kMaxInterpreterElements = (int64_t(1) << 31) - 1;

/// Bytes per element the arithmetics hold: a double, or a residue of Z_p
/// and one of Z_q.
constexpr uint64_t kRealElementBytes = 8, kFieldElementBytes = 16;

/// Limits of one run.
struct InterpreterLimits {
  /// Bytes the run may hold at its peak, as estimatePeakBytes() estimates
  /// it before the run starts; 0 means the machine's physical memory.
  uint64_t memoryBytes = 0;
  /// Asked before each op and each block of a graph-defined kernel; when it
  /// returns true the run stops.
  std::function<bool()> shouldStop;
};

/// Why a run stopped short without an error in the program.
struct RunInterruption {
  enum class Kind { None, Stopped, OverMemory };
  Kind kind = Kind::None;
  std::string reason;
  explicit operator bool() const { return kind != Kind::None; }
};

/// The machine's physical memory in bytes (the default memory limit).
uint64_t physicalMemoryBytes();

/// "3.5 MiB", "1.0 GiB", "512 bytes": sizes in messages.
std::string formatByteCount(uint64_t bytes);

/// Checks that `func` can be run: it has a body of one block, statically
/// shaped tensor arguments and results, and no value with more than
/// kMaxInterpreterElements elements. Emits a diagnostic at the function or
/// at the op whose value is too large otherwise.
mlir::LogicalResult checkInterpretable(mlir::func::FuncOp func);

/// An estimate of the bytes a run of `func` holds at its peak, inputs
/// included, at `elementBytes` per element: the live values after each op
/// (values die after their last use), plus each op's temporaries (two
/// copies of its results for broadcasts, the unfolded windows of a
/// convolution, the tiles of one block of a graph-defined kernel).
/// `func` must have passed checkInterpretable.
uint64_t estimatePeakBytes(mlir::func::FuncOp func, uint64_t elementBytes);

/// Runs `func` on `inputs` (one per argument, shapes as the argument types)
/// in fp64 or, for RealMode::Native, in the program's own dtypes (inputs are
/// rounded to their argument's dtype first). On failure (an op without
/// semantics, a shape mismatch in the inputs, a size over the limits) a
/// diagnostic is emitted at the offending op or function. When the run
/// stops for `limits` (over memory, or shouldStop) and `interruption` is
/// given, it is filled in and no diagnostic is emitted.
mlir::FailureOr<llvm::SmallVector<RealTensor>>
interpretReal(mlir::func::FuncOp func, llvm::ArrayRef<RealTensor> inputs,
              RealMode mode, const InterpreterLimits &limits = {},
              RunInterruption *interruption = nullptr);

/// Runs `func` on finite-field inputs. `fieldInputs[i].q` may be empty when
/// the argument never reaches an exp. A division by zero in the field makes the result
/// inconclusive, reported through `arith.hitZeroDivisor()`. Limits as for
/// interpretReal.
mlir::FailureOr<llvm::SmallVector<FieldTensor>>
interpretField(mlir::func::FuncOp func, llvm::ArrayRef<FieldTensor> inputs,
               FieldArithmetic &arith, const InterpreterLimits &limits = {},
               RunInterruption *interruption = nullptr);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_INTERPRETER_H
