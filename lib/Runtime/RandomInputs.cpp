//===- RandomInputs.cpp - seeded, platform-independent inputs -------------===//

#include "mirage/Runtime/RandomInputs.h"
#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>
#include <cmath>
#include <random>

using namespace llvm;
using namespace mlir;
using namespace mirage;

int mirage::significandPrecision(Type floatType) {
  return std::min(cast<FloatType>(floatType).getFPMantissaWidth(), 53u);
}

SmallVector<superopt::Tensor<double>>
mirage::generateRandomInputs(ArrayRef<RandomTensorSpec> specs, uint64_t seed,
                             double scale) {
  int exponent;
  (void)exponent;
  assert(scale > 0 && std::frexp(scale, &exponent) == 0.5 &&
         "the scale must be a power of two");
  std::mt19937_64 engine(seed);
  SmallVector<superopt::Tensor<double>> tensors;
  for (const RandomTensorSpec &spec : specs) {
    int precision = spec.precision;
    superopt::Tensor<double> tensor(spec.shape);
    // The top p + 1 bits of the draw give k in [0, 2^(p+1)) and the value is
    // (k - 2^p) * 2^-p. Integer operations and exact conversions only, so
    // the values are the same on every platform (unlike
    // std::uniform_real_distribution, whose algorithm is unspecified).
    for (double &x : tensor.data) {
      int64_t k = static_cast<int64_t>(engine() >> (63 - precision));
      x = std::ldexp(static_cast<double>(k - (int64_t(1) << precision)),
                     -precision) *
          scale;
    }
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

SmallVector<superopt::Tensor<double>>
mirage::generateRandomInputs(TypeRange tensorTypes, uint64_t seed,
                             double scale) {
  SmallVector<RandomTensorSpec> specs;
  for (Type type : tensorTypes) {
    auto tensorType = cast<RankedTensorType>(type);
    specs.push_back({tensorType.getShape(),
                     significandPrecision(tensorType.getElementType())});
  }
  return generateRandomInputs(specs, seed, scale);
}
