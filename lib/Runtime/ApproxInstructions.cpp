//===- ApproxInstructions.cpp - what .approx costs the comparison ---------===//

#include "mirage/Runtime/ApproxInstructions.h"
#include "mirage/GpuEmulator/PtxArithmetic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <optional>

using namespace mirage;
using namespace mirage::gpurun;
using emulator::ApproxFunction;
using emulator::ErrorKind;

static std::optional<ApproxFunction> approxFunction(llvm::StringRef opcode) {
  return llvm::StringSwitch<std::optional<ApproxFunction>>(opcode)
      .Case("ex2", ApproxFunction::Ex2)
      .Case("lg2", ApproxFunction::Lg2)
      .Case("rsqrt", ApproxFunction::Rsqrt)
      .Case("sqrt", ApproxFunction::Sqrt)
      .Case("rcp", ApproxFunction::Rcp)
      .Case("div", ApproxFunction::Div)
      .Case("sin", ApproxFunction::Sin)
      .Case("cos", ApproxFunction::Cos)
      .Case("tanh", ApproxFunction::Tanh)
      .Default(std::nullopt);
}

std::vector<ApproxUse>
mirage::gpurun::findApproxUses(const emulator::PtxModule &module,
                               llvm::ArrayRef<std::string> kernels) {
  std::vector<ApproxUse> uses;
  for (const emulator::PtxKernel &kernel : module.kernels) {
    if (!llvm::is_contained(kernels, kernel.name))
      continue;
    for (const emulator::PtxInstruction &inst : kernel.instructions) {
      // div.full.f32 is bounded like div.approx (2 ulp; the emulator
      // gives the correctly rounded quotient).
      bool full = inst.opcode == "div" && llvm::is_contained(inst.modifiers, "full");
      if (!full && !llvm::is_contained(inst.modifiers, "approx"))
        continue;
      std::optional<ApproxFunction> function = approxFunction(inst.opcode);
      if (!function)
        continue;
      std::string text = inst.opcode;
      for (const std::string &modifier : inst.modifiers)
        text += "." + modifier;
      if (llvm::any_of(uses, [&](const ApproxUse &use) {
            return use.instruction == text;
          }))
        continue;
      // At a = 1: every bound holds there in its main form (sin and cos in
      // [-2 pi, 2 pi], lg2's absolute form near 1).
      emulator::ErrorBound bound = emulator::approxErrorBound(*function, 1.0f);
      ApproxUse use{text, "", 0};
      switch (bound.kind) {
      case ErrorKind::Ulp:
        use.bound = std::to_string(int(bound.bound)) + " ulp"; // 1 or 2
        use.relative = bound.bound * std::ldexp(1.0, -23);
        break;
      case ErrorKind::Relative:
        use.bound =
            llvm::formatv("2^{0:f1} relative", std::log2(bound.bound)).str();
        use.relative = bound.bound;
        break;
      case ErrorKind::Absolute:
        use.bound =
            llvm::formatv("2^{0:f1} absolute", std::log2(bound.bound)).str();
        break;
      case ErrorKind::Unbounded:
        use.bound = "unbounded";
        break;
      }
      uses.push_back(std::move(use));
    }
  }
  return uses;
}
