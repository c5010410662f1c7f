// Casts and erf (issue 24): a bf16-weight / f16-activation layer computed
// in f32 with an erf activation, and every conversion among f32, f16 and
// bf16 on its own.
func.func @casts(%x: tensor<32x64xf16>, %w: tensor<64x48xbf16>, %f: tensor<32x64xf32>,
                 %b: tensor<32x64xbf16>)
    -> (tensor<32x48xf16>, tensor<32x64xbf16>, tensor<32x64xf16>,
        tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %x32 = graph.cast %x : tensor<32x64xf16> -> tensor<32x64xf32>
  %w32 = graph.cast %w : tensor<64x48xbf16> -> tensor<64x48xf32>
  %y = graph.matmul %x32, %w32 : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  %e = graph.erf %y : tensor<32x48xf32>
  %o = graph.cast %e : tensor<32x48xf32> -> tensor<32x48xf16>
  %fb = graph.cast %f : tensor<32x64xf32> -> tensor<32x64xbf16>
  %bh = graph.cast %b : tensor<32x64xbf16> -> tensor<32x64xf16>
  %hb = graph.cast %x : tensor<32x64xf16> -> tensor<32x64xbf16>
  %b32 = graph.cast %b : tensor<32x64xbf16> -> tensor<32x64xf32>
  %ef = graph.erf %f : tensor<32x64xf32>
  return %o, %fb, %bh, %hb, %b32, %ef
      : tensor<32x48xf16>, tensor<32x64xbf16>, tensor<32x64xf16>,
        tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x64xf32>
}
