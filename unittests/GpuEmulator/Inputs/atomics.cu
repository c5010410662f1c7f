// Atomics as CUDA C++ writes them, for nvcc -O3 --ptx -arch=sm_80: a
// shared-memory histogram flushed to global with atomicAdd, a float sum
// across CTAs, tickets from a counter (the old values), a CAS that one
// thread per slot wins, atomicMax, atomicMin, atomicExch, atomicInc,
// atomicDec, atomicAnd, atomicOr and atomicXor.
#include <cstdint>

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins,
                                     float *sum, unsigned *tickets,
                                     unsigned *counter) {
  __shared__ unsigned local[16];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t < 16)
    local[t] = 0;
  __syncthreads();
  unsigned v = in[g];
  atomicAdd(&local[v % 16], 1u);
  __syncthreads();
  if (t < 16)
    atomicAdd(&bins[t], local[t]);
  atomicAdd(sum, float(v % 7));
  tickets[g] = atomicAdd(counter, 1u);
}

extern "C" __global__ void claims(unsigned *slots, unsigned *won, int *mx,
                                  int *mn, unsigned *last, unsigned *wrap,
                                  unsigned *bits) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  won[t] = atomicCAS(&slots[t % 8], 0u, t + 1) == 0u;
  int signedValue = int(t * 37 % 101) - 50;
  atomicMax(mx, signedValue);
  atomicMin(mn, signedValue);
  atomicExch(last, 7u);
  atomicInc(&wrap[0], 9u);
  atomicDec(&wrap[1], 9u);
  atomicAnd(&bits[0], ~(1u << (t % 32)) | 0x80000000u);
  atomicOr(&bits[1], 1u << (t % 29));
  atomicXor(&bits[2], t);
}
