// Comparisons and select down the levels: --graph-to-kernel makes
// comparisons kernel.binary kinds and select a kernel.select; the default
// block graph of a comparison is a block.binary, that of a select a
// thread.fused chain of one thread.select (block graphs have no ternary
// op). The kernel-level copies are proved equivalent to their graph-level
// originals; comparisons and select are uninterpreted in the field test.
// RUN: mirage-opt %s --graph-to-kernel | FileCheck %s --check-prefix=KERNEL
// RUN: mirage-opt %s --kernel-to-block | FileCheck %s --check-prefix=BLOCK
// RUN: mirage-opt %s --kernel-to-block | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV --implicit-check-not="error:"

// KERNEL-LABEL: func.func @masked(
// KERNEL-NEXT: %[[M:.*]] = kernel.binary lt %arg0, %arg1 : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
// KERNEL-NEXT: kernel.binary eq
// KERNEL-NEXT: kernel.binary ne
// KERNEL-NEXT: kernel.binary le
// KERNEL-NEXT: kernel.binary gt
// KERNEL-NEXT: kernel.binary ge
// KERNEL-NEXT: %{{.*}} = kernel.select %[[M]], %arg0, %arg2 : (tensor<4x64xf16>, tensor<4x64xf16>, tensor<1xf16>) -> tensor<4x64xf16>
// EQUIV: remark: @masked_k is equivalent to @masked: finite-field test:
func.func @masked(%x: tensor<4x64xf16>, %t: tensor<4x1xf16>, %fill: tensor<1xf16>)
    -> (tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>,
        tensor<4x64xf16>, tensor<4x64xf16>) {
  %lt = graph.lt %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %eq = graph.eq %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %ne = graph.ne %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %le = graph.le %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %gt = graph.gt %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %ge = graph.ge %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %y = graph.select %lt, %x, %fill : (tensor<4x64xf16>, tensor<4x64xf16>, tensor<1xf16>) -> tensor<4x64xf16>
  return %y, %eq, %ne, %le, %gt, %ge : tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>,
      tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>
}

// BLOCK-LABEL: func.func @masked_k(
// BLOCK: kernel.graph_def
// BLOCK: block.binary lt %{{.*}}, %{{.*}} : (!block.tile<{{.*}}xf16>, !block.tile<{{.*}}x1xf16>) -> !block.tile<{{.*}}xf16>
// BLOCK: kernel.graph_def
// BLOCK: %[[F:.*]] = thread.fused(%{{.*}}, %{{.*}}, %{{.*}}) : (!block.tile<[[S:.*]]xf16>, !block.tile<[[S]]xf16>, !block.tile<1xf16>) -> !block.tile<[[S]]xf16> {
// BLOCK-NEXT: ^bb0(%[[C:.*]]: f16, %[[A:.*]]: f16, %[[B:.*]]: f16):
// BLOCK-NEXT: %[[P:.*]] = thread.select %[[C]], %[[A]], %[[B]] : f16
// BLOCK-NEXT: thread.yield %[[P]] : f16
// BLOCK: block.accum sum %[[F]]
func.func @masked_k(%x: tensor<4x64xf16>, %t: tensor<4x1xf16>, %fill: tensor<1xf16>)
    -> (tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>,
        tensor<4x64xf16>, tensor<4x64xf16>)
    attributes {mirage.equivalent_to = @masked} {
  %lt = kernel.binary lt %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %eq = kernel.binary eq %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %ne = kernel.binary ne %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %le = kernel.binary le %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %gt = kernel.binary gt %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %ge = kernel.binary ge %x, %t : (tensor<4x64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16>
  %y = kernel.select %lt, %x, %fill : (tensor<4x64xf16>, tensor<4x64xf16>, tensor<1xf16>) -> tensor<4x64xf16>
  return %y, %eq, %ne, %le, %gt, %ge : tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>,
      tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>
}
