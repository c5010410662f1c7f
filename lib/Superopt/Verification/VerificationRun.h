//===- VerificationRun.h - one verification's state and steps ---*- C++ -*-===//
//
// Private to lib/Superopt/Verification. verifyEquivalence
// (EquivalenceVerifier.cpp) runs the two methods, each in a file of its
// own, on one VerificationRun: the pair, the options, the report being
// filled, and the caller's limits (a stop request, a memory limit), which
// every interpreter run goes through.
//
// A step returns failure either on an error (diagnosed at the program) or
// when a limit stopped it (report.interrupted set, no diagnostic).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_VERIFICATION_VERIFICATIONRUN_H
#define MIRAGE_LIB_SUPEROPT_VERIFICATION_VERIFICATIONRUN_H

#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Superopt/Verification/FieldFragment.h"

namespace mirage::superopt {

class VerificationRun {
public:
  VerificationRun(mlir::func::FuncOp original, mlir::func::FuncOp candidate,
                  const VerifierOptions &options, VerificationReport &report);

  /// True, with the report marked interrupted, once the caller asked to
  /// stop.
  bool stopRequested();

  /// Whether `bytes` fit the memory limit; checked before inputs are drawn.
  /// When not, the report is marked interrupted and false returned.
  bool admit(uint64_t bytes, llvm::StringRef what);

  /// Runs `f` while `heldBytes` (inputs, kept outputs) are held.
  mlir::FailureOr<llvm::SmallVector<RealTensor>>
  runReal(mlir::func::FuncOp f, llvm::ArrayRef<RealTensor> inputs,
          RealMode mode, uint64_t heldBytes);
  mlir::FailureOr<llvm::SmallVector<FieldTensor>>
  runField(mlir::func::FuncOp f, llvm::ArrayRef<FieldTensor> inputs,
           FieldArithmetic &arith, uint64_t heldBytes);

  mlir::func::FuncOp original, candidate;
  const VerifierOptions &options;
  VerificationReport &report;

private:
  /// The limits of a run, or nothing (and the report interrupted) when the
  /// held bytes alone exceed the memory limit.
  std::optional<InterpreterLimits> limitsFor(uint64_t heldBytes);
  /// Records why a run stopped short.
  void interrupted(const RunInterruption &why);

  uint64_t memoryLimit;
};

template <typename T> uint64_t bytesOf(llvm::ArrayRef<Tensor<T>> tensors) {
  uint64_t n = 0;
  for (const Tensor<T> &t : tensors)
    n += t.data.size() * sizeof(T);
  return n;
}
uint64_t bytesOf(llvm::ArrayRef<FieldTensor> tensors);

/// The finite-field tests (FieldTests.cpp). Sets report.fieldApplied when
/// they decided (agreement or a mismatch), report.fieldAbandoned when they
/// were given up.
mlir::LogicalResult runFieldTests(VerificationRun &run,
                                  const FieldFragment &original,
                                  const FieldFragment &candidate);

/// The floating-point checks (FloatChecks.cpp), at every input scale; with
/// `floatOnly` (no field verdict) more input sets, and the fp64 check at
/// every scale rather than the first only.
mlir::LogicalResult runFloatChecks(VerificationRun &run, bool floatOnly);

/// The shortest decimal that reads back as x.
std::string formatExact(double x);
/// x to three significant digits, for tolerances.
std::string formatShort(double x);

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_VERIFICATION_VERIFICATIONRUN_H
