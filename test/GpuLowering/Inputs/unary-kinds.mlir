// Every unary kind, one output each, on a 64x128 f16 input (the inputs the
// runner draws are uniform in [-1, 1); pow and sqrt take the square first).
func.func @unary_kinds(%x: tensor<64x128xf16>)
    -> (tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>) {
  %e = graph.exp %x : tensor<64x128xf16>
  %q = graph.square %x : tensor<64x128xf16>
  %r = graph.sqrt %q : tensor<64x128xf16>
  %s = graph.silu %x : tensor<64x128xf16>
  %g = graph.gelu %x : tensor<64x128xf16>
  %u = graph.relu %x : tensor<64x128xf16>
  %c = graph.clamp %x, min = -0.5, max = 0.25 : tensor<64x128xf16>
  %m = graph.scalar_mul %x, -3.0 : tensor<64x128xf16>
  %p = graph.pow %q, 1.5 : tensor<64x128xf16>
  %o = graph.scalar_add %x, 0.75 : tensor<64x128xf16>
  %t = graph.tanh %x : tensor<64x128xf16>
  %sg = graph.sigmoid %x : tensor<64x128xf16>
  return %e, %r, %s, %g, %u, %c, %m, %p, %o, %t, %sg, %q
      : tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>,
        tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>
}
