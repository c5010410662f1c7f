// A CUTLASS 2.x tensor-core GEMM for sm_80 (the kind cuBLAS runs): f16
// row-major A and column-major B, f32 accumulation and output, 128x128x32
// threadblock tiles, 64x64x32 warp tiles, mma.sync m16n8k16, 3 cp.async
// stages. The wrapper builds the kernel's Params on the device so that the
// kernel takes plain pointers and sizes; shared_bytes reports the dynamic
// shared memory it needs. Compiled for CutlassKernelsTest with the headers
// of PyPI's nvidia-cutlass 4.2.0 (cutlass_library/source/include):
//
//   nvcc -O3 --ptx -arch=sm_80 -std=c++17 --expt-relaxed-constexpr \
//     -I<cutlass include> cutlass_gemm.cu -o cutlass_gemm.sm_80.ptx
#include "cutlass/gemm/kernel/default_gemm.h"
#include "cutlass/gemm/threadblock/threadblock_swizzle.h"
#include "cutlass/epilogue/thread/linear_combination.h"

using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementC = float;
using Swizzle = cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<1>;
using GemmKernel = typename cutlass::gemm::kernel::DefaultGemm<
    ElementA, cutlass::layout::RowMajor, 8,
    ElementB, cutlass::layout::ColumnMajor, 8,
    ElementC, cutlass::layout::RowMajor, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<128, 128, 32>,
    cutlass::gemm::GemmShape<64, 64, 32>,
    cutlass::gemm::GemmShape<16, 8, 16>,
    cutlass::epilogue::thread::LinearCombination<ElementC, 4, float, float>,
    Swizzle, 3, false, cutlass::arch::OpMultiplyAdd>::GemmKernel;

extern "C" __global__ void __launch_bounds__(GemmKernel::kThreadCount)
cutlass_gemm(const ElementA *a, const ElementB *b, ElementC *c, int m, int n,
             int k) {
  cutlass::gemm::GemmCoord problem(m, n, k);
  Swizzle swizzle;
  cutlass::gemm::GemmCoord tiles = swizzle.get_tiled_shape(
      problem, {128, 128, 32}, 1);
  typename GemmKernel::Params params(
      problem, tiles, {const_cast<ElementA *>(a), k},
      {const_cast<ElementB *>(b), k}, {c, n}, {c, n}, {1.0f, 0.0f});
  extern __shared__ int storage[];
  GemmKernel op;
  op(params, *reinterpret_cast<typename GemmKernel::SharedStorage *>(storage));
}

extern "C" __global__ void shared_bytes(int *out) {
  *out = int(sizeof(typename GemmKernel::SharedStorage));
}
