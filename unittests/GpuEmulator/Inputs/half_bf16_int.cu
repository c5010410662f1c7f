// An emulator test input (CudaKernelsTest.cpp): half, bf16 and packed
// arithmetic, copysign and the integer bit instructions, as nvcc compiles
// plain CUDA C++ (and, in asmBits, PTX the compiler never picks by itself).
// half_bf16_int.sm_80.ptx and half_bf16_int.sm_90.ptx were produced by
//   nvcc -O3 --ptx -arch=sm_80 -o half_bf16_int.sm_80.ptx half_bf16_int.cu
//   nvcc -O3 --ptx -arch=sm_90 -o half_bf16_int.sm_90.ptx half_bf16_int.cu
// For sm_80 nvcc writes bf16 add, sub and mul as fma.rn.bf16 with the
// constants 1, -1 and -0; sm_90 has add/sub/mul.bf16 of their own.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// The first five kernels are the ones of the scratch file that found the
// emulator's gaps, unchanged.

extern "C" __global__ void half2_ops(const __half2 *a, const __half2 *b,
                                     __half2 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 x = a[i], y = b[i];
    __half2 z = __hadd2(x, y);
    z = __hmul2(z, y);
    z = __hfma2(x, y, z);
    c[i] = z;
  }
}

extern "C" __global__ void bf16_ops(const __nv_bfloat16 *a,
                                    const __nv_bfloat16 *b,
                                    __nv_bfloat16 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 x = a[i], y = b[i];
    __nv_bfloat16 z = __hadd(x, y);
    z = __hmul(z, y);
    z = __hfma(x, y, z);
    c[i] = z;
  }
}

extern "C" __global__ void bf162_ops(const __nv_bfloat162 *a,
                                     const __nv_bfloat162 *b,
                                     __nv_bfloat162 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat162 x = a[i], y = b[i];
    c[i] = __hfma2(x, y, __hadd2(x, y));
  }
}

extern "C" __global__ void gelu_tanh(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.f + tanhf(0.79788456f * (v + 0.044715f * v * v * v)));
  }
}

extern "C" __global__ void int_ops(const int *a, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = a[i];
    out[i] = __popc(v) + __clz(v) + __brev(v) + (v / 7) + (v % 5) +
             __byte_perm(v, i, 0x3210) + __funnelshift_l(v, i, 3) + abs(v) +
             min(v, i);
  }
}

// The other forms, one result per operation: out[k * n + i] is operation
// k on element i.

extern "C" __global__ void half2_more(const __half2 *a, const __half2 *b,
                                      const __half2 *c, __half2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = __hsub2(x, y);
    out[1 * n + i] = __hmin2(x, y);
    out[2 * n + i] = __hmax2(x, y);
    out[3 * n + i] = __hmin2_nan(x, y);
    out[4 * n + i] = __hmax2_nan(x, y);
    out[5 * n + i] = __hneg2(x);
    out[6 * n + i] = __habs2(x);
    out[7 * n + i] = __hadd2_sat(x, y);
    out[8 * n + i] = __hfma2_relu(x, y, z);
    out[9 * n + i] = __hfma2_sat(x, y, z);
  }
}

extern "C" __global__ void bf16_more(const __nv_bfloat16 *a,
                                     const __nv_bfloat16 *b,
                                     const __nv_bfloat16 *c,
                                     __nv_bfloat16 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = __hsub(x, y);
    out[1 * n + i] = __hmin(x, y);
    out[2 * n + i] = __hmax(x, y);
    out[3 * n + i] = __hmin_nan(x, y);
    out[4 * n + i] = __hmax_nan(x, y);
    out[5 * n + i] = __hneg(x);
    out[6 * n + i] = __habs(x);
    out[7 * n + i] = __hadd_sat(x, y);
    out[8 * n + i] = __hfma_relu(x, y, z);
    out[9 * n + i] = __hfma_sat(x, y, z);
  }
}

extern "C" __global__ void bf162_more(const __nv_bfloat162 *a,
                                      const __nv_bfloat162 *b,
                                      const __nv_bfloat162 *c,
                                      __nv_bfloat162 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat162 x = a[i], y = b[i], z = c[i];
    out[0 * n + i] = __hsub2(x, y);
    out[1 * n + i] = __hmin2(x, y);
    out[2 * n + i] = __hmax2(x, y);
    out[3 * n + i] = __hmin2_nan(x, y);
    out[4 * n + i] = __hmax2_nan(x, y);
    out[5 * n + i] = __hneg2(x);
    out[6 * n + i] = __habs2(x);
    out[7 * n + i] = __hmul2(x, y);
    out[8 * n + i] = __hfma2_relu(x, y, z);
    out[9 * n + i] = __hadd2_sat(x, y);
  }
}

extern "C" __global__ void int_more(const unsigned *a, const unsigned *b,
                                    unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned x = a[i], y = b[i];
    unsigned long long w = (unsigned long long)x << 32 | y;
    out[0 * n + i] = __byte_perm(x, y, y);
    out[1 * n + i] = __byte_perm(x, y, 0x5140);
    out[2 * n + i] = __funnelshift_r(x, y, y);
    out[3 * n + i] = __funnelshift_lc(x, y, y >> 26);
    out[4 * n + i] = __funnelshift_rc(x, y, y >> 26);
    out[5 * n + i] = __ffs(x);
    out[6 * n + i] = __popcll(w);
    out[7 * n + i] = __clzll(w >> (y & 63));
    out[8 * n + i] = (unsigned)(__brevll(w) >> 7);
    out[9 * n + i] =
        __float_as_uint(copysignf(__uint_as_float(x), __uint_as_float(y)));
  }
}

// Instructions nvcc does not choose for C++ code, in inline PTX.
extern "C" __global__ void asm_bits(const unsigned *a, const unsigned *b,
                                    unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned x = a[i], y = b[i], r;
    asm("bfi.b32 %0, %1, %2, %3, %4;"
        : "=r"(r)
        : "r"(x), "r"(y), "r"(y & 0x3f), "r"(x >> 26));
    out[0 * n + i] = r;
    asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(x));
    out[1 * n + i] = r;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(x >> (y & 31)));
    out[2 * n + i] = r;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[3 * n + i] = r;
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[4 * n + i] = r;
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[5 * n + i] = r;
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[6 * n + i] = r;
    asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[7 * n + i] = r;
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
    out[8 * n + i] = r;
    unsigned long long d;
    asm("bfind.s64 %0, %1;" : "=r"(r) : "l"((long long)x << 32 | y));
    out[9 * n + i] = r;
    asm("bfi.b64 %0, %1, %2, %3, %4;"
        : "=l"(d)
        : "l"((unsigned long long)y << 32 | x), "l"((unsigned long long)x),
          "r"(y >> 25), "r"(x & 0x7f));
    out[10 * n + i] = (unsigned)(d >> 32) ^ (unsigned)d;
  }
}
