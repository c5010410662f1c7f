// Each verdict is also a remark of MLIR's remark engine, category
// mirage-verify, whose metrics a tool can read: the method, the tests, the
// primes, the scales, the bound and the errors (--remarks-filter,
// --remark-format=yaml). The human-readable text stays as it was.
// RUN: not mirage-opt %s --verify-equivalence --remarks-filter=mirage-verify --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s < %t.yaml
// Another category selects none of them.
// RUN: not mirage-opt %s --verify-equivalence --remarks-filter=mirage-search --remark-format=yaml --remarks-output-file=%t.other.yaml -o /dev/null 2>/dev/null
// RUN: not grep mirage-verify %t.other.yaml

// TEXT: remark: @doubled is equivalent to @scaled: finite-field test
// TEXT: error: @softmax_no_max is not equivalent to @softmax: output #0 differs at

// CHECK-LABEL: --- !Passed
// CHECK-NEXT: Pass: mirage-verify
// CHECK-NEXT: Name: Equivalent
// CHECK: Function: doubled
// CHECK-NEXT: Args:
// CHECK-NEXT: - original: scaled
// CHECK-NEXT: - method: finite-field and floating point
// CHECK-NEXT: - fieldTests: '3'
// CHECK-NEXT: - p: '{{[0-9]+}}'
// CHECK-NEXT: - q: '{{[0-9]+}}'
// CHECK-NEXT: - primeSeed: '{{[0-9]+}}'
// CHECK-NEXT: - primeDraws: '1'
// CHECK-NEXT: - constants: '1'
// CHECK-NEXT: - degree: '1'
// CHECK-NEXT: - sites: '0'
// CHECK-NEXT: - log2Bound: '-{{[0-9.e+]+}}'
// CHECK-NEXT: - realTests: '1'
// CHECK-NEXT: - scales: 1, 4, 16, 64, 256, 1024
// CHECK-NEXT: - fp64MaxRelError: '{{.*}}'
// CHECK-NEXT: - nativeMaxError: '{{.*}}'

// CHECK-LABEL: --- !Failure
// CHECK-NEXT: Pass: mirage-verify
// CHECK-NEXT: Name: NotEquivalent
// CHECK: Function: softmax_no_max
// CHECK: - method: finite-field and floating point
// CHECK: - scales: 1, 4, 16
// CHECK: - mismatchMethod: 'f16 check at input scale 16 (inputs in [-16, 16))'
// CHECK-NEXT: - mismatchOutput: '0'
// CHECK-NEXT: - mismatchPosition: {{[0-9]+}}, {{[0-9]+}}
// CHECK-NEXT: - mismatchScale: '1.600000e+01'
// CHECK-NEXT: - originalValue: '{{.*}}'
// CHECK-NEXT: - candidateValue: nan in f16

func.func @scaled(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
func.func @doubled(%x: tensor<8x4xf32>) -> tensor<8x4xf32>
    attributes {mirage.equivalent_to = @scaled} {
  %y = graph.add %x, %x : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
func.func @softmax(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %y = graph.softmax %x, dim = 1 : tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
func.func @softmax_no_max(%x: tensor<4x32xf16>) -> tensor<4x32xf16>
    attributes {mirage.equivalent_to = @softmax} {
  %e = graph.exp %x : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %y = graph.div %e, %s : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
