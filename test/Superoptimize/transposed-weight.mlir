// A projection by a transposed weight, as the imported Llama MLP has it
// (y = x W^T with W stored [out, in]): the default schedule transposes the
// whole 8192 x 512 weight. The kernel-level enumeration finds
// (W x^T)^T, which transposes the 16-row activations and the 16-column
// result instead (docs/Search.md, "Softmax and transposes"). Its
// verification is reduced along the dimension that leaves the arguments
// smallest: the weight's 8192 rows, 2 of them kept (docs/Verification.md,
// "Verification on fewer slices"), not the 16 tokens, which would keep
// all of W. At Llama's size (14336 x 4096 in f32) that is the difference
// between 0.1 s and a run over the 4 GiB memory budget.
//
// RUN: mirage-opt %s --superoptimize="cache=off threads=1" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %t.mlir --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// REMARK: remark: superoptimize @proj part 0: 2 graph op(s) -> 3 kernel(s) (0 graph-defined), was 2
// REMARK-SAME: chosen: %t2 = transpose[1,0](%arg1), %t3 = matmul(%arg0,%t2), %t4 = transpose[1,0](%t3)
// REMARK-SAME: verified: on a reduced instance, 2 of 8192 slices of result dimension 1

// CHECK-LABEL: func.func @proj
// CHECK: %[[XT:.*]] = kernel.transpose %arg0, perm = [1, 0] : tensor<16x512xf32> -> tensor<512x16xf32>
// CHECK: %[[M:.*]] = kernel.matmul %arg1, %[[XT]] : (tensor<8192x512xf32>, tensor<512x16xf32>) -> tensor<8192x16xf32>
// CHECK: kernel.transpose %[[M]], perm = [1, 0] : tensor<8192x16xf32> -> tensor<16x8192xf32>
// CHECK-NOT: tensor<512x8192xf32>

// VERIFY: remark: @proj is equivalent to @reference: finite-field test

func.func @reference(%x: tensor<16x512xf32>, %W: tensor<8192x512xf32>) -> tensor<16x8192xf32> {
  %t = kernel.transpose %W, perm = [1, 0] : tensor<8192x512xf32> -> tensor<512x8192xf32>
  %y = kernel.matmul %x, %t : (tensor<16x512xf32>, tensor<512x8192xf32>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

func.func @proj(%x: tensor<16x512xf32>, %W: tensor<8192x512xf32>) -> tensor<16x8192xf32>
    attributes {mirage.equivalent_to = @reference} {
  %t = graph.transpose %W, perm = [1, 0] : tensor<8192x512xf32> -> tensor<512x8192xf32>
  %y = graph.matmul %x, %t : (tensor<16x512xf32>, tensor<512x8192xf32>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}
