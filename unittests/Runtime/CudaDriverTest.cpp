//===- CudaDriverTest.cpp - the driver API as the runtime calls it --------===//
//
// No GPU is needed: a driver whose entry points are test functions shows
// what openDevice asks the driver and how each failure reads; the
// toolkit's stub libcuda (when the toolkit is installed) shows what a
// machine without a GPU reports; a library without the entry points shows
// the loader's message.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/CudaDriver.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace mirage::gpurun;

namespace {

// The fake device: an sm_86 with 99 KiB of opt-in shared memory.
int gDeviceCount = 1;
int gFailingCall = 0; // 1: cuInit, 2: cuDeviceGetAttribute
int gRetained = 0;

/// A CUresult from its number (an enum when cuda.h declares it).
CUresult code(int c) { return static_cast<CUresult>(c); }

CudaDriver fakeDriver() {
  CudaDriver d;
  d.library = "fake";
  d.init = [](unsigned) -> CUresult { return code(gFailingCall == 1 ? 100 : 0); };
  d.driverGetVersion = [](int *v) -> CUresult {
    *v = 13000;
    return code(0);
  };
  d.getErrorName = [](CUresult r, const char **name) -> CUresult {
    if (r == code(100)) {
      *name = "CUDA_ERROR_NO_DEVICE";
      return code(0);
    }
    return code(1); // an unknown code: cuGetErrorName fails
  };
  d.getErrorString = [](CUresult r, const char **text) -> CUresult {
    if (r == code(100)) {
      *text = "no CUDA-capable device is detected";
      return code(0);
    }
    return code(1);
  };
  d.deviceGetCount = [](int *n) -> CUresult {
    *n = gDeviceCount;
    return code(0);
  };
  d.deviceGet = [](CUdevice *dev, int ordinal) -> CUresult {
    *dev = ordinal;
    return code(0);
  };
  d.deviceGetName = [](char *name, int len, CUdevice) -> CUresult {
    std::snprintf(name, len, "Fake RTX 3090");
    return code(0);
  };
  d.deviceGetAttribute = [](int *v, CUdevice_attribute a,
                            CUdevice) -> CUresult {
    if (gFailingCall == 2)
      return code(999);
    int attribute = static_cast<int>(a);
    *v = attribute == cu::kAttributeComputeCapabilityMajor   ? 8
         : attribute == cu::kAttributeComputeCapabilityMinor ? 6
         : attribute == cu::kAttributeMaxSharedMemoryPerBlockOptin
             ? 101376
             : -1;
    return code(0);
  };
  d.devicePrimaryCtxRetain = [](CUcontext *ctx, CUdevice) -> CUresult {
    ++gRetained;
    *ctx = reinterpret_cast<CUcontext>(0x1234);
    return code(0);
  };
  d.devicePrimaryCtxRelease = [](CUdevice) -> CUresult {
    --gRetained;
    return code(0);
  };
  d.ctxSetCurrent = [](CUcontext) -> CUresult { return code(0); };
  return d;
}

struct CudaDriverTest : ::testing::Test {
  void SetUp() override {
    gDeviceCount = 1;
    gFailingCall = 0;
    gRetained = 0;
  }
};

TEST_F(CudaDriverTest, OpensTheDeviceAndReadsItsLimits) {
  CudaDriver driver = fakeDriver();
  llvm::Expected<CudaDevice> device = openDevice(driver, 0);
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  EXPECT_EQ(device->name, "Fake RTX 3090");
  EXPECT_EQ(device->computeCapability, 86);
  EXPECT_EQ(device->driverVersion, 13000);
  EXPECT_EQ(device->maxSharedMemoryPerBlock, 101376);
  EXPECT_EQ(gRetained, 1);
  closeDevice(driver, *device);
  EXPECT_EQ(gRetained, 0);
  EXPECT_EQ(device->context, nullptr);
  closeDevice(driver, *device); // twice is harmless
  EXPECT_EQ(gRetained, 0);
}

TEST_F(CudaDriverTest, SaysWhyThereIsNoDevice) {
  CudaDriver driver = fakeDriver();
  gFailingCall = 1;
  llvm::Expected<CudaDevice> device = openDevice(driver, 0);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
            "detected");

  gFailingCall = 0;
  gDeviceCount = 0;
  device = openDevice(driver, 0);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()), "the driver reports no device");

  gDeviceCount = 2;
  device = openDevice(driver, 2);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "there is no device 2; the driver reports 2");
  device = openDevice(driver, -1);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(gRetained, 0);
}

TEST_F(CudaDriverTest, DescribesCodesTheDriverCannotName) {
  CudaDriver driver = fakeDriver();
  gFailingCall = 2;
  llvm::Expected<CudaDevice> device = openDevice(driver, 0);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "cuDeviceGetAttribute: CUresult 999");
  // The stub library's code, which its own cuGetErrorName cannot name.
  EXPECT_EQ(driver.describe(code(34)), "CUDA_ERROR_STUB_LIBRARY (34)");
  EXPECT_FALSE(static_cast<bool>(driver.check(code(0), "x")));
  EXPECT_EQ(llvm::toString(driver.check(code(100), "cuMemAlloc")),
            "cuMemAlloc: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
            "detected");
}

TEST_F(CudaDriverTest, LoadingALibraryWithoutTheDriverFails) {
  llvm::Expected<std::unique_ptr<CudaDriver>> missing =
      CudaDriver::load("libmirage-no-such-driver.so.1");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("cannot load the CUDA driver: "),
            std::string::npos);
  // A library that loads but is no driver: the first entry point is named.
  llvm::Expected<std::unique_ptr<CudaDriver>> libm =
      CudaDriver::load("libm.so.6");
  ASSERT_FALSE(static_cast<bool>(libm));
  EXPECT_EQ(llvm::toString(libm.takeError()),
            "libm.so.6 has no cuInit; the driver is too old");
}

TEST_F(CudaDriverTest, TheToolkitsStubReportsNoUsableGpu) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!llvm::sys::fs::exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  llvm::Expected<std::unique_ptr<CudaDriver>> driver = CudaDriver::load(stub);
  ASSERT_TRUE(static_cast<bool>(driver)) << llvm::toString(driver.takeError());
  llvm::Expected<CudaDevice> device = openDevice(**driver, 0);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "cuInit: CUDA_ERROR_STUB_LIBRARY (34)");
}

} // namespace
