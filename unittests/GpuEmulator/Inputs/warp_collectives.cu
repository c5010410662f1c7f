// Warp collectives as CUDA C++ writes them: __ballot_sync, __all_sync,
// __any_sync, __activemask, __syncwarp and %lanemask_lt (a stream
// compaction's rank), and ldmatrix (x4, and x4.trans) through inline PTX
// as CUTLASS's SM80 copy atoms issue it. nvcc -O3 --ptx -arch=sm_80.
#include <cstdint>

extern "C" __global__ void warp_vote(const int *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  unsigned rank = __popc(ballot & lt);
  unsigned all = __all_sync(0xffffffffu, v > 0);
  unsigned any = __any_sync(0xffffffffu, v > 1000);
  unsigned active = 0;
  if (v % 3 == 0)
    active = __activemask();
  __syncwarp();
  out[4 * t + 0] = ballot;
  out[4 * t + 1] = rank;
  out[4 * t + 2] = all | any << 1;
  out[4 * t + 3] = active;
}

// One warp: 32 rows of 8 halves into shared memory, then each lane names
// row (5 lane + 3) % 32 for ldmatrix; every lane stores the 8 words it got.
extern "C" __global__ void ldmatrix_rows(const uint4 *in, unsigned *out) {
  __shared__ __align__(16) uint4 rows[32];
  unsigned lane = threadIdx.x;
  rows[lane] = in[lane];
  __syncwarp();
  unsigned addr = static_cast<unsigned>(
      __cvta_generic_to_shared(&rows[(5 * lane + 3) % 32]));
  unsigned a0, a1, a2, a3, b0, b1, b2, b3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(addr));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(b0), "=r"(b1), "=r"(b2), "=r"(b3)
      : "r"(addr));
  unsigned *o = out + 8 * lane;
  o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3;
  o[4] = b0; o[5] = b1; o[6] = b2; o[7] = b3;
}
