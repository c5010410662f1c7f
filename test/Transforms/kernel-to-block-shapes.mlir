// Default block graphs of odd shapes: extents of 1, primes (7, 13, 17, 31,
// 997, 10007, 127x129x131), K = 1, a 1x4096 @ 4096x1 matmul, a batch of
// 1, reductions and softmax over 1-element rows, in f16, bf16 and f32.
// Tile sizes must divide their dims, so prime extents get tiles of 1 or the
// whole dim; every rewritten copy is verified against its graph original,
// and the output parses back. GpuLowering/odd-shapes.test compiles the same
// functions for sm_80 and sm_75 through ptxas.
// RUN: mirage-opt %s --kernel-to-block | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: mirage-opt %s --kernel-to-block=target=sm_75 | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK-COUNT-23: is equivalent to

func.func @mm0(%a: tensor<1x1xf16>, %b: tensor<1x1xf16>) -> tensor<1x1xf16> {
  %y = graph.matmul %a, %b : (tensor<1x1xf16>, tensor<1x1xf16>) -> tensor<1x1xf16>
  return %y : tensor<1x1xf16>
}
func.func @mm0_k(%arg0: tensor<1x1xf16>, %arg1: tensor<1x1xf16>) -> tensor<1x1xf16> attributes {mirage.equivalent_to = @mm0} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<1x1xf16>, tensor<1x1xf16>) -> tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}

func.func @mm1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %y = graph.matmul %a, %b : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
func.func @mm1_k(%arg0: tensor<1x1xf32>, %arg1: tensor<1x1xf32>) -> tensor<1x1xf32> attributes {mirage.equivalent_to = @mm1} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @mm5(%a: tensor<1x7xbf16>, %b: tensor<7x3xbf16>) -> tensor<1x3xbf16> {
  %y = graph.matmul %a, %b : (tensor<1x7xbf16>, tensor<7x3xbf16>) -> tensor<1x3xbf16>
  return %y : tensor<1x3xbf16>
}
func.func @mm5_k(%arg0: tensor<1x7xbf16>, %arg1: tensor<7x3xbf16>) -> tensor<1x3xbf16> attributes {mirage.equivalent_to = @mm5} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<1x7xbf16>, tensor<7x3xbf16>) -> tensor<1x3xbf16>
  return %0 : tensor<1x3xbf16>
}

func.func @mm9(%a: tensor<2x17xf16>, %b: tensor<17x31xf16>) -> tensor<2x31xf16> {
  %y = graph.matmul %a, %b : (tensor<2x17xf16>, tensor<17x31xf16>) -> tensor<2x31xf16>
  return %y : tensor<2x31xf16>
}
func.func @mm9_k(%arg0: tensor<2x17xf16>, %arg1: tensor<17x31xf16>) -> tensor<2x31xf16> attributes {mirage.equivalent_to = @mm9} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<2x17xf16>, tensor<17x31xf16>) -> tensor<2x31xf16>
  return %0 : tensor<2x31xf16>
}

func.func @mm12(%a: tensor<13x1xf16>, %b: tensor<1x9xf16>) -> tensor<13x9xf16> {
  %y = graph.matmul %a, %b : (tensor<13x1xf16>, tensor<1x9xf16>) -> tensor<13x9xf16>
  return %y : tensor<13x9xf16>
}
func.func @mm12_k(%arg0: tensor<13x1xf16>, %arg1: tensor<1x9xf16>) -> tensor<13x9xf16> attributes {mirage.equivalent_to = @mm12} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<13x1xf16>, tensor<1x9xf16>) -> tensor<13x9xf16>
  return %0 : tensor<13x9xf16>
}

func.func @mm15(%a: tensor<64x3xf16>, %b: tensor<3x1xf16>) -> tensor<64x1xf16> {
  %y = graph.matmul %a, %b : (tensor<64x3xf16>, tensor<3x1xf16>) -> tensor<64x1xf16>
  return %y : tensor<64x1xf16>
}
func.func @mm15_k(%arg0: tensor<64x3xf16>, %arg1: tensor<3x1xf16>) -> tensor<64x1xf16> attributes {mirage.equivalent_to = @mm15} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<64x3xf16>, tensor<3x1xf16>) -> tensor<64x1xf16>
  return %0 : tensor<64x1xf16>
}

func.func @mm19(%a: tensor<1x4096xf32>, %b: tensor<4096x1xf32>) -> tensor<1x1xf32> {
  %y = graph.matmul %a, %b : (tensor<1x4096xf32>, tensor<4096x1xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
func.func @mm19_k(%arg0: tensor<1x4096xf32>, %arg1: tensor<4096x1xf32>) -> tensor<1x1xf32> attributes {mirage.equivalent_to = @mm19} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<1x4096xf32>, tensor<4096x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @mm22(%a: tensor<127x129xf32>, %b: tensor<129x131xf32>) -> tensor<127x131xf32> {
  %y = graph.matmul %a, %b : (tensor<127x129xf32>, tensor<129x131xf32>) -> tensor<127x131xf32>
  return %y : tensor<127x131xf32>
}
func.func @mm22_k(%arg0: tensor<127x129xf32>, %arg1: tensor<129x131xf32>) -> tensor<127x131xf32> attributes {mirage.equivalent_to = @mm22} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<127x129xf32>, tensor<129x131xf32>) -> tensor<127x131xf32>
  return %0 : tensor<127x131xf32>
}

func.func @mm24(%a: tensor<16x8xf16>, %b: tensor<8x8xf16>) -> tensor<16x8xf16> {
  %y = graph.matmul %a, %b : (tensor<16x8xf16>, tensor<8x8xf16>) -> tensor<16x8xf16>
  return %y : tensor<16x8xf16>
}
func.func @mm24_k(%arg0: tensor<16x8xf16>, %arg1: tensor<8x8xf16>) -> tensor<16x8xf16> attributes {mirage.equivalent_to = @mm24} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<16x8xf16>, tensor<8x8xf16>) -> tensor<16x8xf16>
  return %0 : tensor<16x8xf16>
}

func.func @bmm231(%a: tensor<7x5x9xf16>, %b: tensor<7x9x3xf16>) -> tensor<7x5x3xf16> {
  %y = graph.matmul %a, %b : (tensor<7x5x9xf16>, tensor<7x9x3xf16>) -> tensor<7x5x3xf16>
  return %y : tensor<7x5x3xf16>
}
func.func @bmm231_k(%arg0: tensor<7x5x9xf16>, %arg1: tensor<7x9x3xf16>) -> tensor<7x5x3xf16> attributes {mirage.equivalent_to = @bmm231} {
  %0 = kernel.matmul %arg0, %arg1 : (tensor<7x5x9xf16>, tensor<7x9x3xf16>) -> tensor<7x5x3xf16>
  return %0 : tensor<7x5x3xf16>
}

func.func @un38(%a: tensor<3x1xf16>) -> tensor<3x1xf16> {
  %y = graph.exp %a : tensor<3x1xf16>
  return %y : tensor<3x1xf16>
}
func.func @un38_k(%arg0: tensor<3x1xf16>) -> tensor<3x1xf16> attributes {mirage.equivalent_to = @un38} {
  %0 = kernel.unary exp %arg0 : tensor<3x1xf16>
  return %0 : tensor<3x1xf16>
}

func.func @un41(%a: tensor<1x5xf32>) -> tensor<1x5xf32> {
  %y = graph.exp %a : tensor<1x5xf32>
  return %y : tensor<1x5xf32>
}
func.func @un41_k(%arg0: tensor<1x5xf32>) -> tensor<1x5xf32> attributes {mirage.equivalent_to = @un41} {
  %0 = kernel.unary exp %arg0 : tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

func.func @un45(%a: tensor<6x10007xf32>) -> tensor<6x10007xf32> {
  %y = graph.exp %a : tensor<6x10007xf32>
  return %y : tensor<6x10007xf32>
}
func.func @un45_k(%arg0: tensor<6x10007xf32>) -> tensor<6x10007xf32> attributes {mirage.equivalent_to = @un45} {
  %0 = kernel.unary exp %arg0 : tensor<6x10007xf32>
  return %0 : tensor<6x10007xf32>
}

func.func @un48(%a: tensor<1x1x1x1xf16>) -> tensor<1x1x1x1xf16> {
  %y = graph.exp %a : tensor<1x1x1x1xf16>
  return %y : tensor<1x1x1x1xf16>
}
func.func @un48_k(%arg0: tensor<1x1x1x1xf16>) -> tensor<1x1x1x1xf16> attributes {mirage.equivalent_to = @un48} {
  %0 = kernel.unary exp %arg0 : tensor<1x1x1x1xf16>
  return %0 : tensor<1x1x1x1xf16>
}

func.func @red50(%a: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %y = graph.reduce_sum %a, dim = 0 : tensor<1x1xf32> -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
func.func @red50_k(%arg0: tensor<1x1xf32>) -> tensor<1x1xf32> attributes {mirage.equivalent_to = @red50} {
  %0 = kernel.reduce sum %arg0, dim = 0 : tensor<1x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @red54(%a: tensor<7x13xf32>) -> tensor<7x1xf32> {
  %y = graph.reduce_sum %a, dim = 1 : tensor<7x13xf32> -> tensor<7x1xf32>
  return %y : tensor<7x1xf32>
}
func.func @red54_k(%arg0: tensor<7x13xf32>) -> tensor<7x1xf32> attributes {mirage.equivalent_to = @red54} {
  %0 = kernel.reduce sum %arg0, dim = 1 : tensor<7x13xf32> -> tensor<7x1xf32>
  return %0 : tensor<7x1xf32>
}

func.func @redmax59(%a: tensor<3x1x5xf16>) -> tensor<3x1x5xf16> {
  %y = graph.reduce_max %a, dim = 1 : tensor<3x1x5xf16> -> tensor<3x1x5xf16>
  return %y : tensor<3x1x5xf16>
}
func.func @redmax59_k(%arg0: tensor<3x1x5xf16>) -> tensor<3x1x5xf16> attributes {mirage.equivalent_to = @redmax59} {
  %0 = kernel.reduce max %arg0, dim = 1 : tensor<3x1x5xf16> -> tensor<3x1x5xf16>
  return %0 : tensor<3x1x5xf16>
}

func.func @red60(%a: tensor<2x10007xf32>) -> tensor<2x1xf32> {
  %y = graph.reduce_sum %a, dim = 1 : tensor<2x10007xf32> -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}
func.func @red60_k(%arg0: tensor<2x10007xf32>) -> tensor<2x1xf32> attributes {mirage.equivalent_to = @red60} {
  %0 = kernel.reduce sum %arg0, dim = 1 : tensor<2x10007xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

func.func @redmax63(%a: tensor<10007x2xf16>) -> tensor<1x2xf16> {
  %y = graph.reduce_max %a, dim = 0 : tensor<10007x2xf16> -> tensor<1x2xf16>
  return %y : tensor<1x2xf16>
}
func.func @redmax63_k(%arg0: tensor<10007x2xf16>) -> tensor<1x2xf16> attributes {mirage.equivalent_to = @redmax63} {
  %0 = kernel.reduce max %arg0, dim = 0 : tensor<10007x2xf16> -> tensor<1x2xf16>
  return %0 : tensor<1x2xf16>
}

func.func @sm66(%a: tensor<1x1xf16>) -> tensor<1x1xf16> {
  %y = graph.softmax %a, dim = 1 : tensor<1x1xf16>
  return %y : tensor<1x1xf16>
}
func.func @sm66_k(%arg0: tensor<1x1xf16>) -> tensor<1x1xf16> attributes {mirage.equivalent_to = @sm66} {
  %0 = kernel.softmax %arg0, dim = 1 : tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}

func.func @sm69(%a: tensor<2x3x5xf16>) -> tensor<2x3x5xf16> {
  %y = graph.softmax %a, dim = 2 : tensor<2x3x5xf16>
  return %y : tensor<2x3x5xf16>
}
func.func @sm69_k(%arg0: tensor<2x3x5xf16>) -> tensor<2x3x5xf16> attributes {mirage.equivalent_to = @sm69} {
  %0 = kernel.softmax %arg0, dim = 2 : tensor<2x3x5xf16>
  return %0 : tensor<2x3x5xf16>
}

func.func @rms70(%a: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %y = graph.rms_norm %a : tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
func.func @rms70_k(%arg0: tensor<1x1xf32>) -> tensor<1x1xf32> attributes {mirage.equivalent_to = @rms70} {
  %0 = kernel.rms_norm %arg0 : tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @rms73(%a: tensor<1x997xf32>) -> tensor<1x997xf32> {
  %y = graph.rms_norm %a : tensor<1x997xf32>
  return %y : tensor<1x997xf32>
}
func.func @rms73_k(%arg0: tensor<1x997xf32>) -> tensor<1x997xf32> attributes {mirage.equivalent_to = @rms73} {
  %0 = kernel.rms_norm %arg0 : tensor<1x997xf32>
  return %0 : tensor<1x997xf32>
}
