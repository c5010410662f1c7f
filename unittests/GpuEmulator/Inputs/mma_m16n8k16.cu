// An emulator test input (CudaKernelsTest.cpp): tensor-core products with
// inline mma.sync.aligned.m16n8k16 in f16 and bf16, as nvcc compiles them.
// mma_m16n8k16.ptx was produced by
//   nvcc -O3 --ptx -arch=sm_80 -o mma_m16n8k16.ptx mma_m16n8k16.cu
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// D = A B + C with A M x K row-major, B K x N column-major (element (k, n)
// at B[n * K + k]), C and D M x N row-major, M = 16 gridDim.y,
// N = 8 gridDim.x and K a multiple of 16. Each CTA is one warp and computes
// the 16 x 8 tile (blockIdx.y, blockIdx.x) of D, 16 columns of A at a time.
// The fragments follow the PTX ISA's figures for m16n8k16 ("Matrix
// Fragments for mma.m16n8k16 with floating point type"): with g = lane / 4
// and t = lane % 4, a register holds two elements consecutive in k, at
//   A: rows g, g + 8, g, g + 8 and columns 2t, 2t, 2t + 8, 2t + 8;
//   B: rows 2t, 2t + 8 and column g;
// and the accumulator's element i is at row g + 8 (i / 2), column
// 2t + i % 2.

__device__ inline void mmaStep(float (&d)[4], const uint32_t (&a)[4],
                               const uint32_t (&b)[2], __half) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
}

__device__ inline void mmaStep(float (&d)[4], const uint32_t (&a)[4],
                               const uint32_t (&b)[2], __nv_bfloat16) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
}

/// Computes this lane's accumulator fragment into d, and where its
/// elements are in C and D into at. pairOfA(r, k) and pairOfB(n, k) return
/// elements k and k + 1 of row r of A and of column n of B, packed, the
/// first in the low half.
template <typename Element, typename PairOfA, typename PairOfB>
__device__ void mmaTile(PairOfA pairOfA, PairOfB pairOfB, const float *C, int K,
                        int (&at)[4], float (&d)[4]) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  int N = 8 * gridDim.x;
  int row = 16 * blockIdx.y + g, col = 8 * blockIdx.x + 2 * t;
  int n = 8 * blockIdx.x + g;
  for (int i = 0; i < 4; ++i) {
    at[i] = (row + 8 * (i / 2)) * N + col + i % 2;
    d[i] = C[at[i]];
  }
  for (int k0 = 0; k0 < K; k0 += 16) {
    int k = k0 + 2 * t;
    uint32_t a[4] = {pairOfA(row, k), pairOfA(row + 8, k), pairOfA(row, k + 8),
                     pairOfA(row + 8, k + 8)};
    uint32_t b[2] = {pairOfB(n, k), pairOfB(n, k + 8)};
    mmaStep(d, a, b, Element());
  }
}

// f16 inputs, loaded two at a time.
extern "C" __global__ void mmaF16(const __half *A, const __half *B,
                                  const float *C, float *D, int K) {
  auto pairAt = [](const __half *p) {
    return *reinterpret_cast<const uint32_t *>(p);
  };
  int at[4];
  float d[4];
  mmaTile<__half>([&](int r, int k) { return pairAt(&A[r * K + k]); },
                  [&](int n, int k) { return pairAt(&B[n * K + k]); }, C, K, at,
                  d);
  for (int i = 0; i < 4; ++i)
    D[at[i]] = d[i];
}

// f32 inputs, rounded to bf16 in the kernel; D is written in f32 and,
// rounded again, in bf16.
extern "C" __global__ void mmaBF16(const float *A, const float *B,
                                   const float *C, float *D,
                                   __nv_bfloat16 *DBf16, int K) {
  auto pairAt = [](const float *p) {
    __nv_bfloat162 v = __floats2bfloat162_rn(p[0], p[1]);
    return *reinterpret_cast<uint32_t *>(&v);
  };
  int at[4];
  float d[4];
  mmaTile<__nv_bfloat16>([&](int r, int k) { return pairAt(&A[r * K + k]); },
                         [&](int n, int k) { return pairAt(&B[n * K + k]); }, C,
                         K, at, d);
  for (int i = 0; i < 4; ++i) {
    D[at[i]] = d[i];
    DBf16[at[i]] = __float2bfloat16(d[i]);
  }
}
