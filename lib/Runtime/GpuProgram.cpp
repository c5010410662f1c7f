//===- GpuProgram.cpp - one manifest function on the GPU ------------------===//

#include "mirage/Runtime/GpuProgram.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <cstdint>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

/// Dynamic shared memory a kernel may use without opting in.
constexpr unsigned kDefaultDynamicSharedMemory = 48 * 1024;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message.str());
}

Expected<std::unique_ptr<GpuProgram>>
GpuProgram::create(const CudaDriver &driver, const Function &function,
                   const ModuleImages &images, bool preferPtx,
                   raw_ostream &notes) {
  std::unique_ptr<GpuProgram> program(new GpuProgram(driver, function));
  if (Error e = program->loadModule(images, preferPtx, notes))
    return std::move(e);
  if (Error e = program->prepareKernels())
    return std::move(e);
  if (Error e = program->allocate())
    return std::move(e);
  if (Error e = driver.check(
          driver.streamCreate(&program->stream, cu::kStreamNonBlocking),
          "cuStreamCreate"))
    return std::move(e);
  return program;
}

GpuProgram::~GpuProgram() {
  // Teardown errors are not worth reporting: the process is about to exit
  // and the driver reclaims everything anyway.
  if (stream)
    (void)driver.streamDestroy(stream);
  for (auto [pointer, isOwned] : zip(pointers, owned))
    if (isOwned && pointer)
      (void)driver.memFree(pointer);
  if (module)
    (void)driver.moduleUnload(module);
}

Error GpuProgram::loadPtx(const ModuleImages &images) {
  // The JIT's logs say which line of the PTX it rejects.
  std::string errorLog(16384, '\0'), infoLog(4096, '\0');
  CUjit_option options[] = {
      static_cast<CUjit_option>(cu::kJitErrorLogBuffer),
      static_cast<CUjit_option>(cu::kJitErrorLogBufferSizeBytes),
      static_cast<CUjit_option>(cu::kJitInfoLogBuffer),
      static_cast<CUjit_option>(cu::kJitInfoLogBufferSizeBytes)};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(errorLog.size())),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(infoLog.size()))};
  CUresult result = driver.moduleLoadDataEx(
      &module, images.ptx->c_str(), std::size(options), options, values);
  if (result == cu::kSuccess) {
    kind = "ptx";
    return Error::success();
  }
  module = nullptr;
  std::string log(errorLog.c_str());
  return makeError("cannot JIT-compile the PTX '" + images.ptxPath +
                   "': " + driver.describe(result) +
                   (log.empty() ? "" : "\n" + StringRef(log).rtrim()));
}

Error GpuProgram::loadModule(const ModuleImages &images, bool preferPtx,
                             raw_ostream &notes) {
  if (!preferPtx && images.cubin) {
    CUresult result = driver.moduleLoadData(&module, images.cubin->data());
    if (result == cu::kSuccess) {
      kind = "cubin";
      return Error::success();
    }
    module = nullptr;
    std::string why = "the driver rejects the cubin '" + images.cubinPath +
                      "': " + driver.describe(result);
    if (!images.ptx)
      return makeError(why + ", and the PTX cannot be read");
    notes << "note: " << why << "; JIT-compiling the PTX instead\n";
  }
  if (!images.ptx)
    return makeError("the PTX '" + images.ptxPath + "' cannot be read");
  return loadPtx(images);
}

Error GpuProgram::prepareKernels() {
  StringMap<CUfunction> byName;
  StringMap<unsigned> sharedMemory;
  for (const Launch &launch : function.launches) {
    auto [it, inserted] = byName.try_emplace(launch.kernel, nullptr);
    if (inserted) {
      if (Error e =
              driver.check(driver.moduleGetFunction(&it->second, module,
                                                    launch.kernel.c_str()),
                           "no kernel '" + launch.kernel +
                               "' in the module: cuModuleGetFunction"))
        return e;
    }
    kernels.push_back(it->second);
    unsigned &most = sharedMemory[launch.kernel];
    most = std::max(most, launch.dynamicSharedMemory);
  }
  for (const auto &entry : sharedMemory) {
    if (entry.second <= kDefaultDynamicSharedMemory)
      continue;
    if (Error e = driver.check(
            driver.funcSetAttribute(
                byName[entry.first()],
                static_cast<CUfunction_attribute>(
                    cu::kFuncAttributeMaxDynamicSharedSizeBytes),
                static_cast<int>(entry.second)),
            "cannot give kernel '" + entry.first() + "' " +
                Twine(entry.second) +
                " bytes of dynamic shared memory: cuFuncSetAttribute"))
      return e;
  }
  return Error::success();
}

Error GpuProgram::allocate() {
  size_t count = function.buffers.size();
  pointers.assign(count, 0);
  owned.assign(count, false);
  for (auto [i, buffer] : enumerate(function.buffers)) {
    if (buffer.storage != i)
      continue;
    // cuMemAlloc rejects zero bytes; an empty tensor still needs a pointer.
    size_t bytes = std::max<uint64_t>(buffer.bytes, 1);
    if (Error e = driver.check(driver.memAlloc(&pointers[i], bytes),
                               "cannot allocate " + Twine(bytes) +
                                   " bytes for buffer \"" + buffer.name +
                                   "\": cuMemAlloc"))
      return e;
    owned[i] = true;
  }
  for (auto [i, buffer] : enumerate(function.buffers))
    if (buffer.storage != i)
      pointers[i] = pointers[buffer.storage];

  // The argument arrays must stay where they are: cuLaunchKernel reads the
  // values through these addresses.
  argValues.resize(function.launches.size());
  argAddresses.resize(function.launches.size());
  for (auto [i, launch] : enumerate(function.launches)) {
    for (unsigned buffer : launch.args)
      argValues[i].push_back(pointers[buffer]);
    for (CUdeviceptr &value : argValues[i])
      argAddresses[i].push_back(&value);
  }
  return Error::success();
}

std::string GpuProgram::describeLaunch(unsigned i) const {
  const Launch &launch = function.launches[i];
  return ("launch " + Twine(i) + " (kernel '" + launch.kernel + "', grid " +
          formatShape({launch.grid[0], launch.grid[1], launch.grid[2]}) +
          ", block " +
          formatShape({launch.block[0], launch.block[1], launch.block[2]}) +
          ", " + Twine(launch.dynamicSharedMemory) +
          " bytes of dynamic shared memory)")
      .str();
}

Error GpuProgram::launch(unsigned i) {
  const Launch &l = function.launches[i];
  return driver.check(driver.launchKernel(kernels[i], l.grid[0], l.grid[1],
                                          l.grid[2], l.block[0], l.block[1],
                                          l.block[2], l.dynamicSharedMemory,
                                          stream, argAddresses[i].data(),
                                          /*extra=*/nullptr),
                      describeLaunch(i) + ": cuLaunchKernel");
}

// Copies and fills go on the program's stream, which does not synchronize
// with the legacy default stream that the synchronous cuMemcpy* use, and
// are waited for right away: the host buffers are temporaries, and the
// launches must see the data.

Error GpuProgram::uploadInput(unsigned index, ArrayRef<char> bytes) {
  const Buffer &buffer = function.buffers[function.inputs[index]];
  if (Error e = driver.check(
          driver.memcpyHtoDAsync(pointers[function.inputs[index]], bytes.data(),
                                 bytes.size(), stream),
          "cannot upload input \"" + buffer.name + "\": cuMemcpyHtoDAsync"))
    return e;
  return driver.check(driver.streamSynchronize(stream),
                      "cannot upload input \"" + buffer.name + "\"");
}

Error GpuProgram::poison() {
  for (auto [i, buffer] : enumerate(function.buffers)) {
    if (buffer.role != Role::Output && buffer.role != Role::Temp)
      continue;
    if (Error e = driver.check(
            driver.memsetD8Async(pointers[i], 0xff, buffer.bytes, stream),
            "cannot fill buffer \"" + buffer.name + "\": cuMemsetD8Async"))
      return e;
  }
  return driver.check(driver.streamSynchronize(stream),
                      "cannot fill the outputs and temps");
}

Error GpuProgram::runChecked() {
  for (unsigned i = 0, e = function.launches.size(); i != e; ++i) {
    if (Error err = launch(i))
      return err;
    // A fault inside the kernel shows at the next synchronization.
    if (Error err =
            driver.check(driver.streamSynchronize(stream), describeLaunch(i)))
      return err;
  }
  return Error::success();
}

Expected<std::vector<char>> GpuProgram::downloadOutput(unsigned index) {
  const Buffer &buffer = function.buffers[function.outputs[index]];
  std::vector<char> bytes(buffer.bytes);
  if (Error e = driver.check(
          driver.memcpyDtoHAsync(bytes.data(),
                                 pointers[function.outputs[index]],
                                 bytes.size(), stream),
          "cannot download output \"" + buffer.name + "\": cuMemcpyDtoHAsync"))
    return std::move(e);
  if (Error e = driver.check(driver.streamSynchronize(stream),
                             "cannot download output \"" + buffer.name + "\""))
    return std::move(e);
  return bytes;
}

Expected<Timing> GpuProgram::time(unsigned warmup, unsigned iterations,
                                  bool cudaGraph) {
  CUgraph graph = nullptr;
  CUgraphExec graphExec = nullptr;
  std::vector<CUevent> events;
  scope_exit cleanup([&] {
    for (CUevent event : events)
      (void)driver.eventDestroy(event);
    if (graphExec)
      (void)driver.graphExecDestroy(graphExec);
    if (graph)
      (void)driver.graphDestroy(graph);
  });

  if (cudaGraph) {
    if (Error e = driver.check(driver.streamBeginCapture(
                                   stream, static_cast<CUstreamCaptureMode>(
                                               cu::kStreamCaptureModeGlobal)),
                               "cuStreamBeginCapture"))
      return std::move(e);
    Error captured = Error::success();
    for (unsigned i = 0, e = function.launches.size(); i != e && !captured; ++i)
      captured = launch(i);
    // The capture must end even when a launch failed, or the stream stays
    // in capture mode.
    CUresult ended = driver.streamEndCapture(stream, &graph);
    if (captured)
      return std::move(captured);
    if (Error e = driver.check(ended, "cuStreamEndCapture"))
      return std::move(e);
    if (Error e = driver.check(driver.graphInstantiate(&graphExec, graph, 0),
                               "cuGraphInstantiate"))
      return std::move(e);
  }

  auto runOnce = [&]() -> Error {
    if (cudaGraph)
      return driver.check(driver.graphLaunch(graphExec, stream),
                          "cuGraphLaunch");
    for (unsigned i = 0, e = function.launches.size(); i != e; ++i)
      if (Error err = launch(i))
        return err;
    return Error::success();
  };

  for (unsigned i = 0; i != warmup; ++i)
    if (Error e = runOnce())
      return std::move(e);
  if (iterations == 0) {
    if (Error e = driver.check(driver.streamSynchronize(stream), "warm-up"))
      return std::move(e);
    return Timing();
  }

  // One event between consecutive iterations: the iterations run back to
  // back as in a real model, and each one's time is the gap between its
  // two events.
  events.resize(iterations + 1, nullptr);
  for (CUevent &event : events)
    if (Error e = driver.check(driver.eventCreate(&event, cu::kEventDefault),
                               "cuEventCreate"))
      return std::move(e);
  if (Error e =
          driver.check(driver.eventRecord(events[0], stream), "cuEventRecord"))
    return std::move(e);
  for (unsigned i = 0; i != iterations; ++i) {
    if (Error e = runOnce())
      return std::move(e);
    if (Error e = driver.check(driver.eventRecord(events[i + 1], stream),
                               "cuEventRecord"))
      return std::move(e);
  }
  if (Error e =
          driver.check(driver.eventSynchronize(events.back()), "timed run"))
    return std::move(e);

  std::vector<double> times;
  for (unsigned i = 0; i != iterations; ++i) {
    float ms = 0;
    if (Error e =
            driver.check(driver.eventElapsedTime(&ms, events[i], events[i + 1]),
                         "cuEventElapsedTime"))
      return std::move(e);
    times.push_back(double(ms) * 1000);
  }
  llvm::sort(times);
  Timing timing;
  timing.iterations = iterations;
  timing.minUs = times.front();
  size_t mid = times.size() / 2;
  timing.medianUs =
      times.size() % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return timing;
}
