// An emulator test input (CudaKernelsTest.cpp): a shared-memory tiled
// matmul, as nvcc compiles it. tiled_matmul.ptx was produced by
//   nvcc -O3 --ptx -arch=sm_80 -o tiled_matmul.ptx tiled_matmul.cu
#include <cuda_fp16.h>

constexpr int kTile = 16;

__device__ inline float toFloat(float x) { return x; }
__device__ inline float toFloat(__half x) { return __half2float(x); }

// C (M x N) = A (M x K) B (K x N), all row-major, accumulated in f32. Each
// CTA of kTile x kTile threads computes one kTile x kTile tile of C; tiles
// of A and B are staged in shared memory as f32, with zeros past the edges,
// so M, N and K need not be multiples of kTile.
template <typename T>
__device__ void tiledMatmul(const T *A, const T *B, float *C, int M, int N,
                            int K) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    As[ty][tx] = row < M && k0 + tx < K ? toFloat(A[row * K + k0 + tx]) : 0.0f;
    Bs[ty][tx] =
        k0 + ty < K && col < N ? toFloat(B[(k0 + ty) * N + col]) : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

extern "C" __global__ void matmulF32(const float *A, const float *B, float *C,
                                     int M, int N, int K) {
  tiledMatmul(A, B, C, M, N, K);
}

// Half inputs, converted to f32 as they are staged.
extern "C" __global__ void matmulF16(const __half *A, const __half *B, float *C,
                                     int M, int N, int K) {
  tiledMatmul(A, B, C, M, N, K);
}
