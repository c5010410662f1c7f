// NASNet-A normal cell (bench/graph-models/generate.py; do not edit):
// inputs h, h_prev tensor<1x44x28x28xf32>, then the weights.
module {
  func.func @nasnet_a_cell(%h: tensor<1x44x28x28xf32>, %hprev: tensor<1x44x28x28xf32>, %w0: tensor<44x1x3x3xf32>, %w1: tensor<44x44x1x1xf32>, %w2: tensor<44x1x1xf32>, %w3: tensor<44x1x3x3xf32>, %w4: tensor<44x44x1x1xf32>, %w5: tensor<44x1x1xf32>, %w6: tensor<44x1x5x5xf32>, %w7: tensor<44x44x1x1xf32>, %w8: tensor<44x1x1xf32>, %w9: tensor<44x1x5x5xf32>, %w10: tensor<44x44x1x1xf32>, %w11: tensor<44x1x1xf32>, %w12: tensor<44x1x3x3xf32>, %w13: tensor<44x44x1x1xf32>, %w14: tensor<44x1x1xf32>) -> tensor<1x264x28x28xf32> {
    %0 = graph.relu %h : tensor<1x44x28x28xf32>
    %1 = graph.conv2d %0, %w0 {groups = 44 : i64, padding = array<i64: 1, 1>} : (tensor<1x44x28x28xf32>, tensor<44x1x3x3xf32>) -> tensor<1x44x28x28xf32>
    %2 = graph.conv2d %1, %w1 : (tensor<1x44x28x28xf32>, tensor<44x44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %3 = graph.add %2, %w2 : (tensor<1x44x28x28xf32>, tensor<44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %4 = graph.add %3, %h : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x44x28x28xf32>
    %5 = graph.relu %hprev : tensor<1x44x28x28xf32>
    %6 = graph.conv2d %5, %w3 {groups = 44 : i64, padding = array<i64: 1, 1>} : (tensor<1x44x28x28xf32>, tensor<44x1x3x3xf32>) -> tensor<1x44x28x28xf32>
    %7 = graph.conv2d %6, %w4 : (tensor<1x44x28x28xf32>, tensor<44x44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %8 = graph.add %7, %w5 : (tensor<1x44x28x28xf32>, tensor<44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %9 = graph.relu %h : tensor<1x44x28x28xf32>
    %10 = graph.conv2d %9, %w6 {groups = 44 : i64, padding = array<i64: 2, 2>} : (tensor<1x44x28x28xf32>, tensor<44x1x5x5xf32>) -> tensor<1x44x28x28xf32>
    %11 = graph.conv2d %10, %w7 : (tensor<1x44x28x28xf32>, tensor<44x44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %12 = graph.add %11, %w8 : (tensor<1x44x28x28xf32>, tensor<44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %13 = graph.add %8, %12 : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x44x28x28xf32>
    %14 = graph.avg_pool2d %h, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x44x28x28xf32> -> tensor<1x44x28x28xf32>
    %15 = graph.add %14, %hprev : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x44x28x28xf32>
    %16 = graph.avg_pool2d %hprev, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x44x28x28xf32> -> tensor<1x44x28x28xf32>
    %17 = graph.avg_pool2d %hprev, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x44x28x28xf32> -> tensor<1x44x28x28xf32>
    %18 = graph.add %16, %17 : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x44x28x28xf32>
    %19 = graph.relu %hprev : tensor<1x44x28x28xf32>
    %20 = graph.conv2d %19, %w9 {groups = 44 : i64, padding = array<i64: 2, 2>} : (tensor<1x44x28x28xf32>, tensor<44x1x5x5xf32>) -> tensor<1x44x28x28xf32>
    %21 = graph.conv2d %20, %w10 : (tensor<1x44x28x28xf32>, tensor<44x44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %22 = graph.add %21, %w11 : (tensor<1x44x28x28xf32>, tensor<44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %23 = graph.relu %hprev : tensor<1x44x28x28xf32>
    %24 = graph.conv2d %23, %w12 {groups = 44 : i64, padding = array<i64: 1, 1>} : (tensor<1x44x28x28xf32>, tensor<44x1x3x3xf32>) -> tensor<1x44x28x28xf32>
    %25 = graph.conv2d %24, %w13 : (tensor<1x44x28x28xf32>, tensor<44x44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %26 = graph.add %25, %w14 : (tensor<1x44x28x28xf32>, tensor<44x1x1xf32>) -> tensor<1x44x28x28xf32>
    %27 = graph.add %22, %26 : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x44x28x28xf32>
    %28 = graph.concat(%hprev, %4) dim = 1 : (tensor<1x44x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x88x28x28xf32>
    %29 = graph.concat(%28, %13) dim = 1 : (tensor<1x88x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x132x28x28xf32>
    %30 = graph.concat(%29, %15) dim = 1 : (tensor<1x132x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x176x28x28xf32>
    %31 = graph.concat(%30, %18) dim = 1 : (tensor<1x176x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x220x28x28xf32>
    %32 = graph.concat(%31, %27) dim = 1 : (tensor<1x220x28x28xf32>, tensor<1x44x28x28xf32>) -> tensor<1x264x28x28xf32>
    return %32 : tensor<1x264x28x28xf32>
  }
}
