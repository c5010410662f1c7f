// Generic addressing and local memory as nvcc writes them (-O3 --ptx
// -arch=sm_80): a per-thread array indexed by data (so it lives in .local),
// and a device function taking a pointer that points into shared memory
// for some calls and global memory for others (generic ld/st after
// inlining keeps no state space: the pointer's space is unknown).
#include <cstdint>

__device__ float sum3(const float *p) { return p[0] + p[1] + p[2]; }

extern "C" __global__ void generic_local(const float *in, const int *idx,
                                         float *out, int useShared) {
  __shared__ float tile[128 + 2];
  unsigned t = threadIdx.x;
  tile[t] = in[t];
  if (t < 2)
    tile[128 + t] = in[128 + t];
  __syncthreads();
  float local[16];
  for (int i = 0; i < 16; ++i)
    local[i] = in[(t + i) % 130] * float(i + 1);
  float picked = local[idx[t] & 15];
  const float *p = useShared ? &tile[t] : &in[t];
  out[t] = picked + sum3(p);
}
