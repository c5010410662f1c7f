// Functions whose results no kernel writes (issue 24, item 6): a view alone
// (a reshape, a size-1 transpose), an argument returned, a view of one, a
// tensor returned twice, and a kernel's result returned beside a view of
// it. --kernel-to-gpu copies each such result into its output buffer with
// a copy kernel (emulate-returned-views.test).
func.func @reshape_only(%x: tensor<4x1xf32>) -> tensor<4xf32> {
  %v = graph.reshape %x : tensor<4x1xf32> -> tensor<4xf32>
  return %v : tensor<4xf32>
}
func.func @transpose_size1(%x: tensor<1x7xbf16>) -> tensor<7x1xbf16> {
  %t = graph.transpose %x, perm = [1, 0] : tensor<1x7xbf16> -> tensor<7x1xbf16>
  return %t : tensor<7x1xbf16>
}
func.func @returns_argument(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  return %x : tensor<3x5xf16>
}
func.func @argument_and_view(%x: tensor<17x3xf32>) -> (tensor<17x3xf32>, tensor<51xf32>) {
  %v = graph.reshape %x : tensor<17x3xf32> -> tensor<51xf32>
  return %x, %v : tensor<17x3xf32>, tensor<51xf32>
}
func.func @result_twice(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<128xf32>) {
  %s = graph.add %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = graph.reshape %s : tensor<8x16xf32> -> tensor<128xf32>
  return %s, %s, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<128xf32>
}
