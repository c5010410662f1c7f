//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// mirage-gpu-run builds and starts on machines without the CUDA toolkit or a
// GPU, so it does not link libcuda: it loads libcuda.so.1 with dlopen and
// looks up the few entry points it calls. The types come from cuda.h when
// the toolkit is there at configure time (MIRAGE_HAVE_CUDA_H), which also
// lets the compiler check every signature below against the real
// prototypes; otherwise the handful of types needed are declared here, with
// the same names and ABI.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_CUDADRIVER_H
#define MIRAGE_RUNTIME_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#if MIRAGE_HAVE_CUDA_H
#include <cuda.h>
#else
// The driver API's types as cuda.h declares them on 64-bit platforms; the
// enums are passed as int, which is their ABI.
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUjit_option;
typedef int CUstreamCaptureMode;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
#endif

namespace mirage::gpurun {

/// The enumerators used, by value, so that the code is the same with and
/// without cuda.h (CudaDriver.cpp checks them against cuda.h when it has it).
namespace cu {
constexpr int kSuccess = 0;
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr int kAttributeMaxSharedMemoryPerBlockOptin = 97;
constexpr int kFuncAttributeMaxDynamicSharedSizeBytes = 8;
constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSizeBytes = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr unsigned kStreamNonBlocking = 1;
constexpr int kStreamCaptureModeGlobal = 0;
constexpr unsigned kEventDefault = 0;
} // namespace cu

/// The entry points, as (member, exported symbol, signature). The versioned
/// symbols (_v2) are the ones cuda.h maps the plain names to; they have been
/// exported since CUDA 3.2 (cuStreamBeginCapture_v2 since 10.1,
/// cuGraphInstantiateWithFlags since 11.4).
#define MIRAGE_CUDA_DRIVER_ENTRY_POINTS(X)                                     \
  X(init, cuInit, CUresult(unsigned int))                                      \
  X(driverGetVersion, cuDriverGetVersion, CUresult(int *))                     \
  X(getErrorName, cuGetErrorName, CUresult(CUresult, const char **))           \
  X(getErrorString, cuGetErrorString, CUresult(CUresult, const char **))       \
  X(deviceGetCount, cuDeviceGetCount, CUresult(int *))                         \
  X(deviceGet, cuDeviceGet, CUresult(CUdevice *, int))                         \
  X(deviceGetName, cuDeviceGetName, CUresult(char *, int, CUdevice))           \
  X(deviceGetAttribute, cuDeviceGetAttribute,                                  \
    CUresult(int *, CUdevice_attribute, CUdevice))                             \
  X(devicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,                          \
    CUresult(CUcontext *, CUdevice))                                           \
  X(devicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, CUresult(CUdevice)) \
  X(ctxSetCurrent, cuCtxSetCurrent, CUresult(CUcontext))                       \
  X(moduleLoadData, cuModuleLoadData, CUresult(CUmodule *, const void *))      \
  X(moduleLoadDataEx, cuModuleLoadDataEx,                                      \
    CUresult(CUmodule *, const void *, unsigned int, CUjit_option *, void **)) \
  X(moduleGetFunction, cuModuleGetFunction,                                    \
    CUresult(CUfunction *, CUmodule, const char *))                            \
  X(moduleUnload, cuModuleUnload, CUresult(CUmodule))                          \
  X(funcSetAttribute, cuFuncSetAttribute,                                      \
    CUresult(CUfunction, CUfunction_attribute, int))                           \
  X(memAlloc, cuMemAlloc_v2, CUresult(CUdeviceptr *, size_t))                  \
  X(memFree, cuMemFree_v2, CUresult(CUdeviceptr))                              \
  X(memcpyHtoDAsync, cuMemcpyHtoDAsync_v2,                                     \
    CUresult(CUdeviceptr, const void *, size_t, CUstream))                     \
  X(memcpyDtoHAsync, cuMemcpyDtoHAsync_v2,                                     \
    CUresult(void *, CUdeviceptr, size_t, CUstream))                           \
  X(memsetD8Async, cuMemsetD8Async,                                            \
    CUresult(CUdeviceptr, unsigned char, size_t, CUstream))                    \
  X(streamCreate, cuStreamCreate, CUresult(CUstream *, unsigned int))          \
  X(streamDestroy, cuStreamDestroy_v2, CUresult(CUstream))                     \
  X(streamSynchronize, cuStreamSynchronize, CUresult(CUstream))                \
  X(launchKernel, cuLaunchKernel,                                              \
    CUresult(CUfunction, unsigned int, unsigned int, unsigned int,             \
             unsigned int, unsigned int, unsigned int, unsigned int, CUstream, \
             void **, void **))                                                \
  X(eventCreate, cuEventCreate, CUresult(CUevent *, unsigned int))             \
  X(eventRecord, cuEventRecord, CUresult(CUevent, CUstream))                   \
  X(eventSynchronize, cuEventSynchronize, CUresult(CUevent))                   \
  X(eventDestroy, cuEventDestroy_v2, CUresult(CUevent))                        \
  X(streamBeginCapture, cuStreamBeginCapture_v2,                               \
    CUresult(CUstream, CUstreamCaptureMode))                                   \
  X(streamEndCapture, cuStreamEndCapture, CUresult(CUstream, CUgraph *))       \
  X(graphInstantiate, cuGraphInstantiateWithFlags,                             \
    CUresult(CUgraphExec *, CUgraph, unsigned long long))                      \
  X(graphLaunch, cuGraphLaunch, CUresult(CUgraphExec, CUstream))               \
  X(graphExecDestroy, cuGraphExecDestroy, CUresult(CUgraphExec))               \
  X(graphDestroy, cuGraphDestroy, CUresult(CUgraph))

/// The loaded driver library and its entry points.
class CudaDriver {
public:
  /// Loads `library` (normally "libcuda.so.1") and resolves every entry
  /// point. Failing here means that the machine has no usable CUDA driver.
  static llvm::Expected<std::unique_ptr<CudaDriver>>
  load(llvm::StringRef library);

  /// "CUDA_ERROR_OUT_OF_MEMORY: out of memory", or the number when the
  /// driver does not know the code.
  std::string describe(CUresult result) const;

  /// Success for CUDA_SUCCESS, otherwise an error "<what>: <describe>".
  llvm::Error check(CUresult result, const llvm::Twine &what) const;

#define MIRAGE_CUDA_MEMBER(member, symbol, signature)                          \
  std::add_pointer_t<signature> member = nullptr;
  MIRAGE_CUDA_DRIVER_ENTRY_POINTS(MIRAGE_CUDA_MEMBER)
#undef MIRAGE_CUDA_MEMBER
  /// cuEventElapsedTime_v2 (CUDA 12.8 and later), or cuEventElapsedTime.
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent) = nullptr;

  std::string library;
};

/// The device a run uses, with its primary context current.
struct CudaDevice {
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  int computeCapability = 0; // major * 10 + minor: 90 for sm_90
  int driverVersion = 0;     // 13000 for CUDA 13.0
  int maxSharedMemoryPerBlock = 0;
};

/// Initializes the driver and makes device `ordinal`'s primary context
/// current. An error here means no usable GPU.
llvm::Expected<CudaDevice> openDevice(const CudaDriver &driver, int ordinal);

/// Releases the primary context that openDevice retained.
void closeDevice(const CudaDriver &driver, CudaDevice &device);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_CUDADRIVER_H
