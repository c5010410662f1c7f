// The search never emits a formulation less stable in its dtype than the op
// it replaces (docs/Search.md, "Numerical stability"): softmax keeps its
// predefined kernel (exp only after its max subtraction) or, folded into
// attention's second matmul, becomes an online softmax (block.softmax_accum,
// which rescales by its running maximum), sums of f16 data
// are kept in f32 tiles unless the original rounds the same value to f16,
// and a program's own max subtraction stays before its exp.
//
// Each program scales its inputs first (16x, 4x, 40x) in a subprogram of
// its own (an identity broadcast, which the search leaves alone, splits
// them; a reshape no longer does, see reshape-views.mlir), so the
// search's own checks see inputs in [-1, 1) while the whole function, checked
// afterwards against its kernel-level reference, sees logits of tens to
// hundreds and row RMS of about 9: an exp / sum / div softmax gives NaN there
// (inf / inf), an f16 sum of squares overflows (every output 0).
//
// RUN: mirage-opt %s -split-input-file --mlir-disable-threading --superoptimize="cache=off" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %t.mlir -split-input-file --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// REMARK-COUNT-10: remark: superoptimize
// VERIFY: remark: @mm_add_softmax is equivalent to @reference
// VERIFY: remark: @attention is equivalent to @reference
// VERIFY: remark: @rms_norm_matmul is equivalent to @reference
// VERIFY: remark: @sum_exp_shifted is equivalent to @reference
// VERIFY: remark: @softmax_f32 is equivalent to @reference
// VERIFY-NOT: not equivalent

// matmul + add + softmax in f16, logits of about +-120.
// CHECK-LABEL: func.func @mm_add_softmax
// CHECK-NOT: block.unary exp
// CHECK: kernel.softmax
// CHECK-NOT: block.unary exp
// CHECK: return
func.func @reference(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %x = kernel.unary scale %X params = [16.0] : tensor<16x64xf16>
  %a = kernel.matmul %x, %W : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x256xf16>
  %b = kernel.binary add %a, %B : (tensor<16x256xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  %p = kernel.softmax %b, dim = 1 : tensor<16x256xf16>
  return %p : tensor<16x256xf16>
}
func.func @mm_add_softmax(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16>
    attributes {mirage.equivalent_to = @reference} {
  %x = graph.scalar_mul %X, 16.0 : tensor<16x64xf16>
  %v = graph.broadcast %x : tensor<16x64xf16> -> tensor<16x64xf16>
  %a = graph.matmul %v, %W : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x256xf16>
  %b = graph.add %a, %B : (tensor<16x256xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  %p = graph.softmax %b, dim = 1 : tensor<16x256xf16>
  return %p : tensor<16x256xf16>
}

// -----

// softmax(Q K^T / 8) V in f16 with |Q|, |K| < 4: scores of about +-12.
// One kernel with an online softmax, never a bare exp.
// CHECK-LABEL: func.func @attention
// CHECK-NOT: block.unary exp
// CHECK: block.softmax_accum
// CHECK-NOT: block.unary exp
// CHECK-NOT: kernel.softmax
// CHECK: return
func.func @reference(%Q: tensor<64x64xf16>, %Kt: tensor<64x64xf16>, %V: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %q = kernel.unary scale %Q params = [4.0] : tensor<64x64xf16>
  %k = kernel.unary scale %Kt params = [4.0] : tensor<64x64xf16>
  %s = kernel.matmul %q, %k : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %t = kernel.unary scale %s params = [0.125] : tensor<64x64xf16>
  %p = kernel.softmax %t, dim = 1 : tensor<64x64xf16>
  %o = kernel.matmul %p, %V : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %o : tensor<64x64xf16>
}
func.func @attention(%Q: tensor<64x64xf16>, %Kt: tensor<64x64xf16>, %V: tensor<64x64xf16>) -> tensor<64x64xf16>
    attributes {mirage.equivalent_to = @reference} {
  %q = graph.scalar_mul %Q, 4.0 : tensor<64x64xf16>
  %k = graph.scalar_mul %Kt, 4.0 : tensor<64x64xf16>
  %qv = graph.broadcast %q : tensor<64x64xf16> -> tensor<64x64xf16>
  %kv = graph.broadcast %k : tensor<64x64xf16> -> tensor<64x64xf16>
  %s = graph.matmul %qv, %kv : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %t = graph.scalar_mul %s, 0.125 : tensor<64x64xf16>
  %p = graph.softmax %t, dim = 1 : tensor<64x64xf16>
  %o = graph.matmul %p, %V : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %o : tensor<64x64xf16>
}

// -----

// RMSNorm + MatMul, f16, 8 x 4096, row RMS of about 9: the sum of squares
// (about 350,000) is kept in an f32 tile, and so are the squares (up to
// about 200,000 at input scale 16, beyond f16's 65504: block.accum red_rms
// squares and sums in f32) and the product the RMS divides.
// CHECK-LABEL: func.func @rms_norm_matmul
// CHECK: kernel.graph_def
// CHECK-DAG: block.matmul {{.*}} -> !block.tile<{{[0-9x]+}}xf32>
// CHECK-DAG: block.accum red_rms %{{.*}}, dim = 1 : !block.tile<{{[0-9x]+}}xf16> -> !block.tile<{{[0-9x]+}}x1xf32>
// CHECK: block.output %{{.*}} : !block.tile<{{[0-9x]+}}xf32> -> tensor<8x256xf16>
// CHECK-NOT: kernel.rms_norm
// CHECK: return
func.func @reference(%X: tensor<8x4096xf16>, %W: tensor<4096x256xf16>) -> tensor<8x256xf16> {
  %x = kernel.unary scale %X params = [16.0] : tensor<8x4096xf16>
  %n = kernel.rms_norm %x : tensor<8x4096xf16>
  %y = kernel.matmul %n, %W : (tensor<8x4096xf16>, tensor<4096x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}
func.func @rms_norm_matmul(%X: tensor<8x4096xf16>, %W: tensor<4096x256xf16>) -> tensor<8x256xf16>
    attributes {mirage.equivalent_to = @reference} {
  %x = graph.scalar_mul %X, 16.0 : tensor<8x4096xf16>
  %v = graph.broadcast %x : tensor<8x4096xf16> -> tensor<8x4096xf16>
  %n = graph.rms_norm %v : tensor<8x4096xf16>
  %y = graph.matmul %n, %W : (tensor<8x4096xf16>, tensor<4096x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// -----

// The sum of exp(x - max(x)) of a log-sum-exp, f16, |x| < 16: the search may
// fuse the subtraction, the exp and the sum, but never drops the max
// subtraction (exp(x) alone overflows f16 above 11).
// CHECK-LABEL: func.func @sum_exp_shifted
// CHECK: kernel.reduce max
// CHECK: kernel.graph_def
// CHECK-NOT: unary exp
// CHECK: {{block|thread}}.binary sub
// CHECK: {{block|thread}}.unary exp
// CHECK: return
func.func @reference(%X: tensor<16x256xf16>) -> tensor<16x1xf16> {
  %x = kernel.unary scale %X params = [16.0] : tensor<16x256xf16>
  %m = kernel.reduce max %x, dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %d = kernel.binary sub %x, %m : (tensor<16x256xf16>, tensor<16x1xf16>) -> tensor<16x256xf16>
  %e = kernel.unary exp %d : tensor<16x256xf16>
  %s = kernel.reduce sum %e, dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  return %s : tensor<16x1xf16>
}
func.func @sum_exp_shifted(%X: tensor<16x256xf16>) -> tensor<16x1xf16>
    attributes {mirage.equivalent_to = @reference} {
  %x = graph.scalar_mul %X, 16.0 : tensor<16x256xf16>
  %m = graph.reduce_max %x, dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %d = graph.sub %x, %m : (tensor<16x256xf16>, tensor<16x1xf16>) -> tensor<16x256xf16>
  %e = graph.exp %d : tensor<16x256xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  return %s : tensor<16x1xf16>
}

// -----

// matmul + softmax in f32 with logits of a few hundred: exp without the max
// overflows f32 (above 88.7) where softmax is exact.
// CHECK-LABEL: func.func @softmax_f32
// CHECK-NOT: block.unary exp
// CHECK: kernel.softmax
// CHECK-NOT: block.unary exp
// CHECK: return
func.func @reference(%X: tensor<16x64xf32>, %W: tensor<64x128xf32>) -> tensor<16x128xf32> {
  %x = kernel.unary scale %X params = [40.0] : tensor<16x64xf32>
  %a = kernel.matmul %x, %W : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
  %p = kernel.softmax %a, dim = 1 : tensor<16x128xf32>
  return %p : tensor<16x128xf32>
}
func.func @softmax_f32(%X: tensor<16x64xf32>, %W: tensor<64x128xf32>) -> tensor<16x128xf32>
    attributes {mirage.equivalent_to = @reference} {
  %x = graph.scalar_mul %X, 40.0 : tensor<16x64xf32>
  %v = graph.broadcast %x : tensor<16x64xf32> -> tensor<16x64xf32>
  %a = graph.matmul %v, %W : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
  %p = graph.softmax %a, dim = 1 : tensor<16x128xf32>
  return %p : tensor<16x128xf32>
}
