// Functions whose sizes exceed what mirage-run can hold (errors.test).

func.func @wraps(%a: tensor<4294967296x4294967296xf32>, %b: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %c = graph.matmul %a, %b : (tensor<4294967296x4294967296xf32>, tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}

// 2^33 elements inside the function.
func.func @repeats(%a: tensor<2x4xf32>) -> tensor<16384x4xf32> {
  %r = graph.repeat %a, repeats = [65536, 16384] : tensor<2x4xf32> -> tensor<131072x65536xf32>
  %s = graph.reduce_sum %r, dim = 0 : tensor<131072x65536xf32> -> tensor<1x65536xf32>
  %t = graph.reshape %s : tensor<1x65536xf32> -> tensor<16384x4xf32>
  return %t : tensor<16384x4xf32>
}

// Within every limit but a small memory limit: 512 x 512 doubles are 2 MiB.

func.func @wide(%a: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %c = graph.exp %a : tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
