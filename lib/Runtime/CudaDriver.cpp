//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "mirage/Runtime/CudaDriver.h"
#include "llvm/Support/DynamicLibrary.h"
#include <type_traits>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

#if MIRAGE_HAVE_CUDA_H
// With the toolkit's header at hand, the compiler checks that the
// signatures and enumerators above are the driver's.
#define MIRAGE_CUDA_CHECK_SIGNATURE(member, symbol, signature)                 \
  static_assert(                                                               \
      std::is_same_v<decltype(&::symbol), std::add_pointer_t<signature>>,      \
      "wrong signature for " #symbol);
MIRAGE_CUDA_DRIVER_ENTRY_POINTS(MIRAGE_CUDA_CHECK_SIGNATURE)
#undef MIRAGE_CUDA_CHECK_SIGNATURE
static_assert(std::is_same_v<decltype(&::cuEventElapsedTime_v2),
                             decltype(CudaDriver::eventElapsedTime)>);
static_assert(cu::kSuccess == CUDA_SUCCESS);
static_assert(cu::kAttributeComputeCapabilityMajor ==
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(cu::kAttributeComputeCapabilityMinor ==
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(cu::kAttributeMaxSharedMemoryPerBlockOptin ==
              CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
static_assert(cu::kFuncAttributeMaxDynamicSharedSizeBytes ==
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
static_assert(cu::kJitInfoLogBuffer == CU_JIT_INFO_LOG_BUFFER);
static_assert(cu::kJitInfoLogBufferSizeBytes ==
              CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES);
static_assert(cu::kJitErrorLogBuffer == CU_JIT_ERROR_LOG_BUFFER);
static_assert(cu::kJitErrorLogBufferSizeBytes ==
              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
static_assert(cu::kStreamNonBlocking == CU_STREAM_NON_BLOCKING);
static_assert(cu::kStreamCaptureModeGlobal == CU_STREAM_CAPTURE_MODE_GLOBAL);
static_assert(cu::kEventDefault == CU_EVENT_DEFAULT);
#endif

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message.str());
}

Expected<std::unique_ptr<CudaDriver>> CudaDriver::load(StringRef library) {
  std::string message;
  // The library stays loaded until exit, as the driver expects.
  sys::DynamicLibrary handle =
      sys::DynamicLibrary::getPermanentLibrary(library.str().c_str(), &message);
  if (!handle.isValid())
    return makeError("cannot load the CUDA driver: " + message);

  auto driver = std::make_unique<CudaDriver>();
  driver->library = library.str();
  // Names are stringized before macro expansion, so cuda.h's own renaming
  // macros (cuLaunchKernel -> ..._ptsz) cannot change what is looked up.
#define MIRAGE_CUDA_LOAD(member, symbol, signature)                            \
  driver->member = reinterpret_cast<std::add_pointer_t<signature>>(            \
      handle.getAddressOfSymbol(#symbol));                                     \
  if (!driver->member)                                                         \
    return makeError(library + " has no " #symbol "; the driver is too old");
  MIRAGE_CUDA_DRIVER_ENTRY_POINTS(MIRAGE_CUDA_LOAD)
#undef MIRAGE_CUDA_LOAD
  for (const char *symbol : {"cuEventElapsedTime_v2", "cuEventElapsedTime"}) {
    driver->eventElapsedTime = reinterpret_cast<decltype(eventElapsedTime)>(
        handle.getAddressOfSymbol(symbol));
    if (driver->eventElapsedTime)
      break;
  }
  if (!driver->eventElapsedTime)
    return makeError(library + " has no cuEventElapsedTime");
  return driver;
}

/// Names of the codes that say why there is no usable GPU, for drivers that
/// cannot name them: the toolkit's stub libcuda fails every call, its
/// cuGetErrorName included.
static const char *fallbackErrorName(int code) {
#define MIRAGE_CUDA_ERRORS(X)                                                  \
  X(3, CUDA_ERROR_NOT_INITIALIZED)                                             \
  X(34, CUDA_ERROR_STUB_LIBRARY)                                               \
  X(100, CUDA_ERROR_NO_DEVICE)                                                 \
  X(101, CUDA_ERROR_INVALID_DEVICE)                                            \
  X(802, CUDA_ERROR_SYSTEM_NOT_READY)                                          \
  X(803, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)                                    \
  X(804, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
#if MIRAGE_HAVE_CUDA_H
#define MIRAGE_CUDA_CHECK_ERROR(code, name) static_assert(code == name);
  MIRAGE_CUDA_ERRORS(MIRAGE_CUDA_CHECK_ERROR)
#undef MIRAGE_CUDA_CHECK_ERROR
#endif
  switch (code) {
#define MIRAGE_CUDA_ERROR_CASE(code, name)                                     \
  case code:                                                                   \
    return #name;
    MIRAGE_CUDA_ERRORS(MIRAGE_CUDA_ERROR_CASE)
#undef MIRAGE_CUDA_ERROR_CASE
  default:
    return nullptr;
  }
#undef MIRAGE_CUDA_ERRORS
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  int code = static_cast<int>(result);
  // Either lookup fails for codes the driver does not know.
  if (getErrorName(result, &name) != cu::kSuccess || !name) {
    if (const char *fallback = fallbackErrorName(code))
      return std::string(fallback) + " (" + std::to_string(code) + ")";
    return "CUresult " + std::to_string(code);
  }
  std::string s = name;
  if (getErrorString(result, &text) == cu::kSuccess && text)
    s += std::string(": ") + text;
  return s;
}

Error CudaDriver::check(CUresult result, const Twine &what) const {
  if (result == cu::kSuccess)
    return Error::success();
  return makeError(what + ": " + describe(result));
}

Expected<CudaDevice> gpurun::openDevice(const CudaDriver &driver, int ordinal) {
  if (Error e = driver.check(driver.init(0), "cuInit"))
    return std::move(e);
  CudaDevice device;
  if (Error e = driver.check(driver.driverGetVersion(&device.driverVersion),
                             "cuDriverGetVersion"))
    return std::move(e);
  int count = 0;
  if (Error e = driver.check(driver.deviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(e);
  if (count == 0)
    return makeError("the driver reports no device");
  if (ordinal < 0 || ordinal >= count)
    return makeError("there is no device " + Twine(ordinal) +
                     "; the driver reports " + Twine(count));
  if (Error e = driver.check(driver.deviceGet(&device.device, ordinal),
                             "cuDeviceGet"))
    return std::move(e);
  char name[256] = {};
  if (Error e = driver.check(
          driver.deviceGetName(name, sizeof(name) - 1, device.device),
          "cuDeviceGetName"))
    return std::move(e);
  device.name = name;
  int major = 0, minor = 0;
  if (Error e = driver.check(
          driver.deviceGetAttribute(&major,
                                    static_cast<CUdevice_attribute>(
                                        cu::kAttributeComputeCapabilityMajor),
                                    device.device),
          "cuDeviceGetAttribute"))
    return std::move(e);
  if (Error e = driver.check(
          driver.deviceGetAttribute(&minor,
                                    static_cast<CUdevice_attribute>(
                                        cu::kAttributeComputeCapabilityMinor),
                                    device.device),
          "cuDeviceGetAttribute"))
    return std::move(e);
  device.computeCapability = major * 10 + minor;
  if (Error e =
          driver.check(driver.deviceGetAttribute(
                           &device.maxSharedMemoryPerBlock,
                           static_cast<CUdevice_attribute>(
                               cu::kAttributeMaxSharedMemoryPerBlockOptin),
                           device.device),
                       "cuDeviceGetAttribute"))
    return std::move(e);
  // The primary context is the one the runtime API (and PyTorch) uses; it
  // needs no flags that changed between driver versions, unlike cuCtxCreate.
  if (Error e = driver.check(
          driver.devicePrimaryCtxRetain(&device.context, device.device),
          "cuDevicePrimaryCtxRetain"))
    return std::move(e);
  if (Error e = driver.check(driver.ctxSetCurrent(device.context),
                             "cuCtxSetCurrent")) {
    (void)driver.devicePrimaryCtxRelease(device.device);
    return std::move(e);
  }
  return device;
}

void gpurun::closeDevice(const CudaDriver &driver, CudaDevice &device) {
  if (!device.context)
    return;
  (void)driver.ctxSetCurrent(nullptr);
  (void)driver.devicePrimaryCtxRelease(device.device);
  device.context = nullptr;
}
