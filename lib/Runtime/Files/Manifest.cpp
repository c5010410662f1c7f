//===- Manifest.cpp - the GPU program manifest ----------------------------===//
//
// Messages name the manifest file and the place in it as a JSON path
// ("functions[0].buffers[2].dtype"), and say what was expected.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/Manifest.h"
#include "mirage/Target/GpuChip.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>
#include <optional>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

StringRef gpurun::roleName(Role role) {
  switch (role) {
  case Role::Input:
    return "input";
  case Role::Output:
    return "output";
  case Role::Temp:
    return "temp";
  case Role::View:
    return "view";
  }
  llvm_unreachable("unknown role");
}

std::string gpurun::formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  raw_string_ostream os(s);
  os << '[';
  interleaveComma(shape, os);
  os << ']';
  return s;
}

namespace {

/// Walks the parsed JSON, building the Manifest and reporting the first
/// defect with its JSON path.
class ManifestReader {
public:
  explicit ManifestReader(StringRef path) : path(path) {}

  Expected<Manifest> read(const json::Value &root);

private:
  Error error(const Twine &where, const Twine &message) const {
    std::string location = where.str();
    return createStringError(
        inconvertibleErrorCode(),
        (path + ": " + (location.empty() ? "" : location + ": ") + message)
            .str());
  }

  static std::string join(const Twine &where, StringRef key) {
    std::string prefix = where.str();
    return prefix.empty() ? key.str() : prefix + "." + key.str();
  }

  Expected<const json::Value *> field(const json::Object &object, StringRef key,
                                      const Twine &where) {
    if (const json::Value *value = object.get(key))
      return value;
    return error(where, "missing \"" + key + "\"");
  }

  Expected<std::string> getString(const json::Object &object, StringRef key,
                                  const Twine &where) {
    Expected<const json::Value *> value = field(object, key, where);
    if (!value)
      return value.takeError();
    std::optional<StringRef> s = (*value)->getAsString();
    if (!s)
      return error(join(where, key), "expected a string");
    return s->str();
  }

  /// A non-empty string: the names that other fields refer to.
  Expected<std::string> getName(const json::Object &object, StringRef key,
                                const Twine &where) {
    Expected<std::string> s = getString(object, key, where);
    if (s && s->empty())
      return error(join(where, key), "expected a non-empty string");
    return s;
  }

  /// An integer in [lo, hi].
  Expected<int64_t> getInteger(const json::Value &value, const Twine &where,
                               int64_t lo, int64_t hi) {
    std::optional<int64_t> i = value.getAsInteger();
    if (!i)
      return error(where, "expected an integer");
    if (*i < lo || *i > hi)
      return error(where, Twine(*i) + " is out of range [" + Twine(lo) + ", " +
                              Twine(hi) + "]");
    return *i;
  }

  Expected<int64_t> getInteger(const json::Object &object, StringRef key,
                               const Twine &where, int64_t lo, int64_t hi) {
    Expected<const json::Value *> value = field(object, key, where);
    if (!value)
      return value.takeError();
    return getInteger(**value, join(where, key), lo, hi);
  }

  Expected<const json::Array *> getArray(const json::Object &object,
                                         StringRef key, const Twine &where) {
    Expected<const json::Value *> value = field(object, key, where);
    if (!value)
      return value.takeError();
    const json::Array *array = (*value)->getAsArray();
    if (!array)
      return error(join(where, key), "expected an array");
    return array;
  }

  Expected<const json::Object *> asObject(const json::Value &value,
                                          const Twine &where) {
    if (const json::Object *object = value.getAsObject())
      return object;
    return error(where, "expected an object");
  }

  /// A dim3: three positive integers, each at most `limits[i]`.
  Error readDim3(const json::Object &object, StringRef key, const Twine &where,
                 std::array<int64_t, 3> limits, std::array<unsigned, 3> &out);

  Error readBuffer(const json::Value &value, const std::string &where,
                   Buffer &buffer, std::string &viewOf);
  Error readFunction(const json::Value &value, const std::string &where,
                     const GpuChip &chip, Function &function);
  Error readLaunch(const json::Value &value, const std::string &where,
                   const StringMap<unsigned> &bufferIndex, const GpuChip &chip,
                   Launch &launch);
  /// Orders the inputs and outputs by index and checks that the indices
  /// are 0, 1, ..., n - 1.
  Error collectIndexed(Function &function, Role role,
                       SmallVectorImpl<unsigned> &positions);

  std::string resolve(StringRef file) const {
    if (sys::path::is_absolute(file))
      return file.str();
    SmallString<256> resolved(sys::path::parent_path(path));
    sys::path::append(resolved, file);
    return std::string(resolved);
  }

  StringRef path;
};

} // namespace

Error ManifestReader::readDim3(const json::Object &object, StringRef key,
                               const Twine &where,
                               std::array<int64_t, 3> limits,
                               std::array<unsigned, 3> &out) {
  std::string at = join(where, key);
  Expected<const json::Array *> array = getArray(object, key, where);
  if (!array)
    return array.takeError();
  if ((*array)->size() != 3)
    return error(at, "expected 3 integers (x, y, z), got " +
                         Twine((*array)->size()) + " values");
  for (auto [i, value] : enumerate(**array)) {
    Expected<int64_t> n =
        getInteger(value, at + "[" + Twine(i) + "]", 1, limits[i]);
    if (!n)
      return n.takeError();
    out[i] = static_cast<unsigned>(*n);
  }
  return Error::success();
}

Error ManifestReader::readBuffer(const json::Value &value,
                                 const std::string &where, Buffer &buffer,
                                 std::string &viewOf) {
  Expected<const json::Object *> object = asObject(value, where);
  if (!object)
    return object.takeError();
  const json::Object &o = **object;

  Expected<std::string> name = getName(o, "name", where);
  if (!name)
    return name.takeError();
  buffer.name = *name;

  Expected<std::string> role = getString(o, "role", where);
  if (!role)
    return role.takeError();
  std::optional<Role> parsedRole = StringSwitch<std::optional<Role>>(*role)
                                       .Case("input", Role::Input)
                                       .Case("output", Role::Output)
                                       .Case("temp", Role::Temp)
                                       .Case("view", Role::View)
                                       .Default(std::nullopt);
  if (!parsedRole)
    return error(join(where, "role"), "unknown role \"" + *role +
                                          "\"; expected \"input\", "
                                          "\"output\", \"temp\" or \"view\"");
  buffer.role = *parsedRole;

  // "index" belongs to inputs and outputs, "view_of" to views; anywhere
  // else they would be ignored, which hides a mistake.
  bool indexed = buffer.role == Role::Input || buffer.role == Role::Output;
  if (indexed) {
    Expected<int64_t> index =
        getInteger(o, "index", where, 0, std::numeric_limits<int32_t>::max());
    if (!index)
      return index.takeError();
    buffer.index = static_cast<unsigned>(*index);
  } else if (o.get("index")) {
    return error(join(where, "index"),
                 "only inputs and outputs have an index; this buffer's "
                 "role is \"" +
                     roleName(buffer.role) + "\"");
  }
  if (buffer.role == Role::View) {
    Expected<std::string> base = getName(o, "view_of", where);
    if (!base)
      return base.takeError();
    viewOf = *base;
  } else if (o.get("view_of")) {
    return error(join(where, "view_of"),
                 "only views have \"view_of\"; this buffer's role is \"" +
                     roleName(buffer.role) + "\"");
  }

  Expected<const json::Array *> shape = getArray(o, "shape", where);
  if (!shape)
    return shape.takeError();
  int64_t elements = 1;
  for (auto [i, dim] : enumerate(**shape)) {
    Expected<int64_t> n =
        getInteger(dim, join(where, "shape") + "[" + std::to_string(i) + "]", 0,
                   std::numeric_limits<int64_t>::max());
    if (!n)
      return n.takeError();
    if (MulOverflow(elements, *n, elements))
      return error(join(where, "shape"), "too many elements");
    buffer.shape.push_back(*n);
  }

  Expected<std::string> dtype = getString(o, "dtype", where);
  if (!dtype)
    return dtype.takeError();
  std::optional<Dtype> parsedDtype = parseDtype(*dtype);
  if (!parsedDtype)
    return error(join(where, "dtype"), "unknown dtype \"" + *dtype +
                                           "\"; expected \"f16\", \"bf16\", "
                                           "\"f32\", \"i32\" or \"i64\"");
  buffer.dtype = *parsedDtype;

  Expected<int64_t> bytes =
      getInteger(o, "bytes", where, 0, std::numeric_limits<int64_t>::max());
  if (!bytes)
    return bytes.takeError();
  buffer.bytes = static_cast<uint64_t>(*bytes);
  int64_t needed;
  if (MulOverflow(elements, int64_t(dtypeSize(buffer.dtype)), needed))
    return error(join(where, "shape"), "too many elements");
  if (buffer.bytes != uint64_t(needed))
    return error(join(where, "bytes"), Twine(*bytes) + ", but shape " +
                                           formatShape(buffer.shape) + " of " +
                                           dtypeName(buffer.dtype) + " takes " +
                                           Twine(needed) + " bytes");
  return Error::success();
}

Error ManifestReader::readLaunch(const json::Value &value,
                                 const std::string &where,
                                 const StringMap<unsigned> &bufferIndex,
                                 const GpuChip &chip, Launch &launch) {
  Expected<const json::Object *> object = asObject(value, where);
  if (!object)
    return object.takeError();
  const json::Object &o = **object;

  Expected<std::string> kernel = getName(o, "kernel", where);
  if (!kernel)
    return kernel.takeError();
  launch.kernel = *kernel;
  // The hardware limits of every GPU since compute capability 3.0.
  if (Error e = readDim3(o, "grid", where,
                         {kGpuMaxGridX, kGpuMaxGridYZ, kGpuMaxGridYZ},
                         launch.grid))
    return e;
  if (Error e = readDim3(o, "block", where, {1024, 1024, 64}, launch.block))
    return e;
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (threads > uint64_t(kGpuMaxThreadsPerBlock))
    return error(
        join(where, "block"),
        formatShape({launch.block[0], launch.block[1], launch.block[2]}) +
            " has " + Twine(threads) + " threads; a block has at most " +
            Twine(kGpuMaxThreadsPerBlock));
  // The chip's own limit: a launch beyond it fails on the GPU.
  Expected<int64_t> smem = getInteger(o, "dynamic_shared_memory", where, 0,
                                      std::numeric_limits<int32_t>::max());
  if (!smem)
    return smem.takeError();
  if (*smem > chip.maxSharedMemoryPerBlock)
    return error(join(where, "dynamic_shared_memory"),
                 Twine(*smem) + " bytes, more than the " +
                     Twine(chip.maxSharedMemoryPerBlock) + " a block of " +
                     chip.name + " may have");
  launch.dynamicSharedMemory = static_cast<unsigned>(*smem);

  Expected<const json::Array *> args = getArray(o, "args", where);
  if (!args)
    return args.takeError();
  for (auto [i, arg] : enumerate(**args)) {
    std::string at = join(where, "args") + "[" + std::to_string(i) + "]";
    std::optional<StringRef> name = arg.getAsString();
    if (!name)
      return error(at, "expected a buffer name");
    auto it = bufferIndex.find(*name);
    if (it == bufferIndex.end())
      return error(at, "unknown buffer \"" + *name + "\"");
    launch.args.push_back(it->second);
  }
  return Error::success();
}

Error ManifestReader::collectIndexed(Function &function, Role role,
                                     SmallVectorImpl<unsigned> &positions) {
  SmallVector<unsigned> members;
  for (auto [position, buffer] : enumerate(function.buffers))
    if (buffer.role == role)
      members.push_back(position);
  constexpr unsigned kMissing = ~0u;
  positions.assign(members.size(), kMissing);
  for (unsigned position : members) {
    const Buffer &buffer = function.buffers[position];
    std::string at =
        function.where + ".buffers[" + std::to_string(position) + "].index";
    if (buffer.index >= members.size())
      return error(at, Twine(buffer.index) + " is out of range: the " +
                           Twine(members.size()) + " " + roleName(role) +
                           "s have indices 0 to " + Twine(members.size() - 1));
    if (positions[buffer.index] != kMissing)
      return error(at, roleName(role) + " index " + Twine(buffer.index) +
                           " is also that of \"" +
                           function.buffers[positions[buffer.index]].name +
                           "\"");
    positions[buffer.index] = position;
  }
  return Error::success();
}

Error ManifestReader::readFunction(const json::Value &value,
                                   const std::string &where,
                                   const GpuChip &chip, Function &function) {
  function.where = where;
  Expected<const json::Object *> object = asObject(value, where);
  if (!object)
    return object.takeError();
  const json::Object &o = **object;

  Expected<std::string> name = getName(o, "name", where);
  if (!name)
    return name.takeError();
  function.name = *name;
  Expected<std::string> reference = getName(o, "reference", where);
  if (!reference)
    return reference.takeError();
  function.reference = *reference;

  Expected<const json::Array *> buffers = getArray(o, "buffers", where);
  if (!buffers)
    return buffers.takeError();
  StringMap<unsigned> bufferIndex;
  SmallVector<std::string> viewOf;
  for (auto [i, value] : enumerate(**buffers)) {
    std::string at = where + ".buffers[" + std::to_string(i) + "]";
    Buffer buffer;
    viewOf.emplace_back();
    if (Error e = readBuffer(value, at, buffer, viewOf.back()))
      return e;
    auto [it, inserted] = bufferIndex.try_emplace(buffer.name, i);
    if (!inserted)
      return error(join(at, "name"), "buffer \"" + buffer.name +
                                         "\" is also buffers[" +
                                         Twine(it->second) + "]");
    buffer.storage = i;
    function.buffers.push_back(std::move(buffer));
  }

  // Views can only be resolved once every name is known: a view may come
  // before the buffer it views.
  for (auto [i, buffer] : enumerate(function.buffers)) {
    if (buffer.role != Role::View)
      continue;
    std::string at = where + ".buffers[" + std::to_string(i) + "].view_of";
    auto it = bufferIndex.find(viewOf[i]);
    if (it == bufferIndex.end())
      return error(at, "unknown buffer \"" + viewOf[i] + "\"");
    const Buffer &base = function.buffers[it->second];
    if (base.role == Role::View)
      return error(at, "\"" + base.name +
                           "\" is a view itself; name the buffer it views");
    if (buffer.bytes > base.bytes)
      return error(at, "the view takes " + Twine(buffer.bytes) +
                           " bytes, more than the " + Twine(base.bytes) +
                           " of \"" + base.name + "\"");
    buffer.storage = it->second;
  }

  if (Error e = collectIndexed(function, Role::Input, function.inputs))
    return e;
  if (Error e = collectIndexed(function, Role::Output, function.outputs))
    return e;
  if (function.outputs.empty())
    return error(where, "no buffer has role \"output\"");

  Expected<const json::Array *> launches = getArray(o, "launches", where);
  if (!launches)
    return launches.takeError();
  for (auto [i, value] : enumerate(**launches)) {
    Launch launch;
    if (Error e =
            readLaunch(value, where + ".launches[" + std::to_string(i) + "]",
                       bufferIndex, chip, launch))
      return e;
    function.launches.push_back(std::move(launch));
  }
  if (function.launches.empty())
    return error(join(where, "launches"),
                 "no launch: nothing would write the outputs");
  return Error::success();
}

Expected<Manifest> ManifestReader::read(const json::Value &root) {
  const json::Object *o = root.getAsObject();
  if (!o)
    return error("", "expected a JSON object at the top level");
  Manifest manifest;
  manifest.path = path.str();

  Expected<std::string> format = getString(*o, "format", "");
  if (!format)
    return format.takeError();
  if (*format != kManifestFormat)
    return error("format", "\"" + *format + "\" is not \"" +
                               kManifestFormat + "\"");
  Expected<const json::Value *> version = field(*o, "version", "");
  if (!version)
    return version.takeError();
  if ((*version)->getAsInteger() != std::optional<int64_t>(kManifestVersion))
    return error("version", "unsupported version " +
                                formatv("{0}", **version).str() +
                                "; mirage-gpu-run reads version 1");

  Expected<std::string> chip = getName(*o, "chip", "");
  if (!chip)
    return chip.takeError();
  const GpuChip *gpu = lookupGpuChip(*chip);
  if (!gpu)
    return error("chip", unsupportedGpuChipMessage(*chip));
  manifest.chip = *chip;

  Expected<std::string> ptx = getName(*o, "ptx", "");
  if (!ptx)
    return ptx.takeError();
  manifest.ptxPath = resolve(*ptx);
  // The cubin is optional: without ptxas the pipeline can only write PTX.
  if (o->get("cubin")) {
    Expected<std::string> cubin = getName(*o, "cubin", "");
    if (!cubin)
      return cubin.takeError();
    manifest.cubinPath = resolve(*cubin);
  }

  Expected<const json::Array *> functions = getArray(*o, "functions", "");
  if (!functions)
    return functions.takeError();
  if ((*functions)->empty())
    return error("functions", "the manifest defines no function");
  StringMap<unsigned> functionIndex;
  for (auto [i, value] : enumerate(**functions)) {
    Function function;
    std::string at = "functions[" + std::to_string(i) + "]";
    if (Error e = readFunction(value, at, *gpu, function))
      return std::move(e);
    auto [it, inserted] = functionIndex.try_emplace(function.name, i);
    if (!inserted)
      return error(at + ".name", "function \"" + function.name +
                                     "\" is also functions[" +
                                     Twine(it->second) + "]");
    manifest.functions.push_back(std::move(function));
  }
  return manifest;
}

Expected<Manifest> gpurun::parseManifest(StringRef text, StringRef path) {
  Expected<json::Value> root = json::parse(text);
  if (!root)
    return createStringError(
        inconvertibleErrorCode(),
        (path + ": invalid JSON: " + toString(root.takeError())).str());
  return ManifestReader(path).read(*root);
}

Expected<Manifest> gpurun::loadManifest(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return createStringError(buffer.getError(),
                             "cannot open manifest '" + path +
                                 "': " + buffer.getError().message());
  return parseManifest((*buffer)->getBuffer(), path);
}
