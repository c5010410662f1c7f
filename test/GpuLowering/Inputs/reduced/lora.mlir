// LoRA at a reduced shape (bench/programs/lora.mlir with 256 -> 64,
// 4096 -> 256): X W + (X A) B.
// X (16,64), W (64,256), A (64,16), B (16,256).
func.func @lora(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %A: tensor<64x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %xw = graph.matmul %X, %W : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x256xf16>
  %xa = graph.matmul %X, %A : (tensor<16x64xf16>, tensor<64x16xf16>) -> tensor<16x16xf16>
  %xab = graph.matmul %xa, %B : (tensor<16x16xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  %y = graph.add %xw, %xab : (tensor<16x256xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
