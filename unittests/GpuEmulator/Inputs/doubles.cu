// Double precision as CUDA C++ writes it (nvcc -O3 --ptx -arch=sm_80
// -fmad=false, so that the host can repeat every rounding): division,
// sqrt, fma, fmax/fmin, conversions between f32, f64 and 64-bit integers,
// a comparison, and f64 loads and stores.
extern "C" __global__ void doubles(const float *in, float *out, double *dout,
                                   int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  double x = in[t];
  double y = 1.0 / (x * x + 0.5) + sqrt(fabs(x)) - fma(x, 3.0, -1.25);
  y = fmin(fmax(y, -2.0), 1e6);
  long long q = (long long)(y * 1000.0);
  double z = y + (double)q * 1e-9;
  if (z < 0.25)
    z = -z;
  dout[t] = z;
  out[t] = (float)y;
}
