// The validation kernels of the timing model (docs/TimingModel.md,
// "Validation"): the microbenchmarks whose hardware figures are published.
// Compiled to PTX for sm_80 and sm_90 by regenerate.sh (nvcc -O3 --ptx);
// mirage-timing-validation runs the PTX in the emulator under the timing
// model at the published sizes.

// STREAM copy and triad on float4, one element per thread (the BabelStream
// kernels' form, vectorized).
extern "C" __global__ void stream_copy(const float4 *__restrict__ a,
                                       float4 *__restrict__ c, long n) {
  long i = blockIdx.x * long(blockDim.x) + threadIdx.x;
  if (i < n)
    c[i] = a[i];
}

extern "C" __global__ void stream_triad(float4 *__restrict__ a,
                                        const float4 *__restrict__ b,
                                        const float4 *__restrict__ c,
                                        float scalar, long n) {
  long i = blockIdx.x * long(blockDim.x) + threadIdx.x;
  if (i < n) {
    float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + scalar * y.x, x.y + scalar * y.y,
                       x.z + scalar * y.z, x.w + scalar * y.w);
  }
}

// Pointer chase (P-chase, Mei & Chu; Jia et al.): one thread follows a
// ring of 64-bit addresses for `warm` steps, then `steps` more, each load's
// address the previous load's value (no arithmetic between them). Two runs
// that differ only in `steps` give the latency of one dependent load.
// `cached` selects ld.global.ca (through L1) or ld.global.cg (L2 only).
extern "C" __global__ void chase(const unsigned long long *ring,
                                 unsigned long long *out, unsigned warm,
                                 unsigned steps, int cached) {
  unsigned long long p = reinterpret_cast<unsigned long long>(ring);
  unsigned total = warm + steps;
  if (cached) {
    for (unsigned i = 0; i < total; ++i)
      asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
  } else {
    for (unsigned i = 0; i < total; ++i)
      asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  }
  *out = p;
}

// The same in shared memory: a ring of 1024 32-bit shared addresses, 8
// words apart (one slot per 32-byte line), followed by one thread.
extern "C" __global__ void shared_chase(unsigned *out, unsigned steps) {
  __shared__ unsigned ring[8192];
  unsigned base = unsigned(__cvta_generic_to_shared(ring));
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
    ring[i * 8] = base + ((i * 8 + 8) % 8192) * 4;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned p = base;
    for (unsigned i = 0; i < steps; ++i)
      asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
    *out = p;
  }
}

// Shared-memory throughput at a word stride: every thread loads word
// (lane * stride) of the tile, 8 independent volatile loads per iteration,
// `reps` iterations; stride 2^k makes a 2^k-way bank conflict (k <= 5).
extern "C" __global__ void shared_stride(float *out, unsigned stride,
                                         unsigned reps) {
  __shared__ float tile[8192];
  for (unsigned i = threadIdx.x; i < 8192; i += blockDim.x)
    tile[i] = float(i);
  __syncthreads();
  volatile float *v = tile + (threadIdx.x % 32) * stride % 8192;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
  for (unsigned r = 0; r < reps; ++r) {
    s0 += v[0];
    s1 += v[0];
    s2 += v[0];
    s3 += v[0];
    s4 += v[0];
    s5 += v[0];
    s6 += v[0];
    s7 += v[0];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

// mma.sync m16n8k16 (f16 in, f32 accumulate): `chains` independent
// accumulators per warp, `steps` mma each; chains = 1 is a dependent chain
// (the latency), many warps of several chains the throughput.
template <int Chains>
__device__ void mmaLoop(float *out, unsigned steps) {
  unsigned a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  unsigned b0 = a0 ^ 5, b1 = a0 ^ 9;
  float d[Chains][4] = {};
  for (unsigned s = 0; s < steps; ++s)
#pragma unroll
    for (int c = 0; c < Chains; ++c)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
          "{%0, %1, %2, %3};\n"
          : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  float sum = 0;
  for (int c = 0; c < Chains; ++c)
    sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" __global__ void mma_chain(float *out, unsigned steps) {
  mmaLoop<1>(out, steps);
}

extern "C" __global__ void mma_throughput(float *out, unsigned steps) {
  mmaLoop<4>(out, steps);
}
