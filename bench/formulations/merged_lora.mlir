// Naive merged LoRA: X (A B), the rank-16 update formed as a [4096, 1024]
// matrix first. (X A) B is the cheaper formulation; only the kernel-level
// enumeration sees it (docs/Search.md, "Kernel-level enumeration"). Not
// one of Mirage's benchmark programs (bench/programs): run it with
// python3 bench/run-search-bench.py bench/formulations/merged_lora.mlir
// X (64,4096), A (4096,16), B (16,1024), f16.
func.func @merged_lora(%X: tensor<64x4096xf16>, %A: tensor<4096x16xf16>, %B: tensor<16x1024xf16>) -> tensor<64x1024xf16> {
  %ab = graph.matmul %A, %B : (tensor<4096x16xf16>, tensor<16x1024xf16>) -> tensor<4096x1024xf16>
  %y = graph.matmul %X, %ab : (tensor<64x4096xf16>, tensor<4096x1024xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}
