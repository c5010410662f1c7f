// A PTX parser test input: shared memory, __syncthreads, __shfl_xor_sync and
// half arithmetic, as nvcc compiles them. warp_reduce.ptx was produced by
//   nvcc -O3 --ptx -arch=sm_80 -o warp_reduce.ptx warp_reduce.cu
#include <cuda_fp16.h>

// Sums x * scale over each block of up to 1024 threads; one float per block.
extern "C" __global__ void warpReduce(const __half *x, __half scale,
                                      float *out, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? __half2float(__hmul(x[i], scale)) : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}
