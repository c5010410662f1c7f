// An emulator test input (CudaKernelsTest.cpp): an f32 vector add with a
// bounds check, as nvcc compiles it. vector_add.ptx was produced by
//   nvcc -O3 --ptx -arch=sm_80 -o vector_add.ptx vector_add.cu

// c[i] = a[i] + b[i] for i < n; the grid may cover more than n threads.
extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
