//===- DeviceMemory.cpp - the emulator's global memory --------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mirage::emulator;

uint64_t DeviceMemory::allocate(uint64_t bytes) {
  uint64_t base = next;
  Buffer &buffer = buffers[base];
  buffer.data.assign(std::max<uint64_t>(bytes, 1), 0);
  buffer.written.assign(buffer.data.size(), false);
  // A 4 KiB gap after each buffer keeps small overruns unmapped.
  next = llvm::alignTo(base + buffer.data.size() + 4096, 256);
  return base;
}

DeviceMemory::Buffer *DeviceMemory::find(uint64_t address, uint64_t size,
                                         uint64_t &base) {
  auto it = buffers.upper_bound(address);
  if (it == buffers.begin())
    return nullptr;
  --it;
  uint64_t offset = address - it->first;
  if (offset + size > it->second.data.size() || offset + size < offset)
    return nullptr;
  base = it->first;
  return &it->second;
}

static llvm::Error outside(uint64_t address, uint64_t size) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("host access of {0} bytes at {1:x} is outside every "
                    "device buffer",
                    size, address)
          .str());
}

llvm::Error DeviceMemory::write(uint64_t address,
                                llvm::ArrayRef<uint8_t> data) {
  uint64_t base;
  Buffer *buffer = find(address, data.size(), base);
  if (!buffer)
    return outside(address, data.size());
  std::copy(data.begin(), data.end(), buffer->data.begin() + (address - base));
  std::fill_n(buffer->written.begin() + (address - base), data.size(), true);
  return llvm::Error::success();
}

llvm::Error DeviceMemory::read(uint64_t address,
                               llvm::MutableArrayRef<uint8_t> data) const {
  uint64_t base;
  Buffer *buffer =
      const_cast<DeviceMemory *>(this)->find(address, data.size(), base);
  if (!buffer)
    return outside(address, data.size());
  std::copy_n(buffer->data.begin() + (address - base), data.size(),
              data.begin());
  return llvm::Error::success();
}

void DeviceMemory::markInitialized(uint64_t address) {
  uint64_t base;
  if (Buffer *buffer = find(address, 1, base))
    std::fill(buffer->written.begin(), buffer->written.end(), true);
}

void DeviceMemory::markWritten(uint64_t address, uint64_t size) {
  uint64_t base;
  if (Buffer *buffer = find(address, size, base))
    std::fill_n(buffer->written.begin() + (address - base), size, true);
}

std::optional<uint64_t> DeviceMemory::firstUnwritten(uint64_t address,
                                                     uint64_t size) const {
  uint64_t base;
  const Buffer *buffer =
      const_cast<DeviceMemory *>(this)->find(address, size, base);
  if (!buffer)
    return std::nullopt;
  for (uint64_t i = 0; i < size; ++i)
    if (!buffer->written[address - base + i])
      return i;
  return std::nullopt;
}
