// Comparisons give a 0/1 mask in the operands' dtype, NaN unequal to
// everything (ne gives 1, the others 0); select takes on_true where the
// condition is not 0 (NaN included) and never lets the value not taken
// reach the result; a softmax over a row with -inf entries gives them 0.
// The same at every level: graph ops, predefined kernels, and their
// default block graphs (block.binary, thread.select).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 6 1 2 3 nan inf -inf
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 6 2 2 2 1 inf 0
// RUN: mirage-run %s --func=compare --input=%t/a.npy,%t/b.npy --output-dir=%t --print | FileCheck %s --check-prefix=CMP
// RUN: mirage-opt %s --graph-to-kernel -o %t/k.mlir
// RUN: mirage-run %t/k.mlir --func=compare --input=%t/a.npy,%t/b.npy --output-dir=%t --print | FileCheck %s --check-prefix=CMP
// RUN: mirage-opt %s --graph-to-kernel --kernel-to-block -o %t/b.mlir
// RUN: mirage-run %t/b.mlir --func=compare --input=%t/a.npy,%t/b.npy --output-dir=%t --print | FileCheck %s --check-prefix=CMP
// RUN: mirage-run %s --func=compare --input=%t/a.npy,%t/b.npy --output-dir=%t --print --arith=native | FileCheck %s --check-prefix=CMP

// CMP:      out0: shape [6], 6 elements
// CMP-NEXT:   values: 0, 1, 0, 0, 1, 0
// CMP:      out1: shape [6], 6 elements
// CMP-NEXT:   values: 1, 0, 1, 1, 0, 1
// CMP:      out2: shape [6], 6 elements
// CMP-NEXT:   values: 1, 0, 0, 0, 0, 1
// CMP:      out3: shape [6], 6 elements
// CMP-NEXT:   values: 1, 1, 0, 0, 1, 1
// CMP:      out4: shape [6], 6 elements
// CMP-NEXT:   values: 0, 0, 1, 0, 0, 0
// CMP:      out5: shape [6], 6 elements
// CMP-NEXT:   values: 0, 1, 1, 0, 1, 0
// select(lt, a, b), and select(a - 1, b, 7): a condition is true where it
// is not 0, NaN and infinities included.
// CMP:      out6: shape [6], 6 elements
// CMP-NEXT:   values: 1, 2, 2, 1, inf, -inf
// CMP:      out7: shape [6], 6 elements
// CMP-NEXT:   values: 7, 2, 2, 1, inf, 0
func.func @compare(%a: tensor<6xf32>, %b: tensor<6xf32>)
    -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>,
        tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %eq = graph.eq %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %ne = graph.ne %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %lt = graph.lt %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %le = graph.le %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %gt = graph.gt %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %ge = graph.ge %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %s1 = graph.select %lt, %a, %b : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %zero = graph.sub %b, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %seven = graph.scalar_add %zero, 7.0 : tensor<6xf32>
  %c = graph.scalar_add %a, -1.0 : tensor<6xf32>
  %s2 = graph.select %c, %b, %seven : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %eq, %ne, %lt, %le, %gt, %ge, %s1, %s2 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>,
      tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// A causal mask on 3x3 scores: masked_fill(mask == 0, -inf), then softmax.
// Masked entries are exactly 0 (exp(-inf) = 0); unmasked rows sum to 1.
// RUN: %python %S/Inputs/npy.py write %t/s.npy '<f4' 3,3 0 5 5 1 1 5 2 2 2
// RUN: %python %S/Inputs/npy.py write %t/m.npy '<f4' 3,3 1 0 0 1 1 0 1 1 1
// RUN: %python %S/Inputs/npy.py write %t/n.npy '<f4' 1 -inf
// RUN: mirage-run %s --func=causal --input=%t/s.npy,%t/m.npy,%t/n.npy --output-dir=%t --print | FileCheck %s --check-prefix=CAUSAL
// RUN: mirage-run %t/b.mlir --func=causal --input=%t/s.npy,%t/m.npy,%t/n.npy --output-dir=%t --print | FileCheck %s --check-prefix=CAUSAL
// CAUSAL:      out0: shape [3, 3], 9 elements
// CAUSAL-NEXT:   values: 1, 0, 0, 0.5, 0.5, 0, 0.3333333333333333, 0.3333333333333333, ...
func.func @causal(%s: tensor<3x3xf32>, %m: tensor<3x3xf32>, %ninf: tensor<1xf32>) -> tensor<3x3xf32> {
  %zero = graph.sub %m, %m : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %masked = graph.eq %m, %zero : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %f = graph.select %masked, %ninf, %s : (tensor<3x3xf32>, tensor<1xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %p = graph.softmax %f, dim = 1 : tensor<3x3xf32>
  return %p : tensor<3x3xf32>
}
