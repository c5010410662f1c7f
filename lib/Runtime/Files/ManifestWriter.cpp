//===- ManifestWriter.cpp - the GPU program manifest, written -------------===//
//
// The writing half of the manifest's one schema (Manifest.h): what
// emit-gpu-artifacts writes is built as the same Manifest the launchers
// read, and printed here, so the two sides cannot disagree on a field's
// name, type or presence (ManifestTest reads back what this writes).
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/Manifest.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace mirage::gpurun;

/// `file` as the reader resolves it: relative to the manifest's folder
/// when it lies there, else as given.
static std::string relativeToManifest(StringRef manifestPath, StringRef file) {
  StringRef folder = sys::path::parent_path(manifestPath);
  if (folder.empty() || !file.starts_with(folder))
    return file.str();
  StringRef rest = file.drop_front(folder.size());
  if (rest.empty() || !sys::path::is_separator(rest.front()))
    return file.str();
  return rest.drop_front().str();
}

static json::Object printBuffer(const Function &function,
                                const Buffer &buffer) {
  json::Object entry{{"name", buffer.name},
                     {"role", roleName(buffer.role).str()}};
  if (buffer.role == Role::Input || buffer.role == Role::Output)
    entry["index"] = int64_t(buffer.index);
  if (buffer.role == Role::View)
    entry["view_of"] = function.buffers[buffer.storage].name;
  entry["shape"] = json::Array(buffer.shape);
  entry["dtype"] = dtypeName(buffer.dtype).str();
  entry["bytes"] = int64_t(buffer.bytes);
  return entry;
}

static json::Object printLaunch(const Function &function,
                                const Launch &launch) {
  json::Array args;
  for (unsigned arg : launch.args)
    args.push_back(function.buffers[arg].name);
  return json::Object{
      {"kernel", launch.kernel},
      {"grid", json::Array(launch.grid)},
      {"block", json::Array(launch.block)},
      {"dynamic_shared_memory", int64_t(launch.dynamicSharedMemory)},
      {"args", std::move(args)}};
}

std::string mirage::gpurun::printManifest(const Manifest &manifest) {
  json::Array functions;
  for (const Function &function : manifest.functions) {
    json::Object entry{{"name", function.name}};
    if (!function.reference.empty())
      entry["reference"] = function.reference;
    json::Array buffers, launches;
    for (const Buffer &buffer : function.buffers)
      buffers.push_back(printBuffer(function, buffer));
    for (const Launch &launch : function.launches)
      launches.push_back(printLaunch(function, launch));
    entry["buffers"] = std::move(buffers);
    entry["launches"] = std::move(launches);
    functions.push_back(std::move(entry));
  }
  json::Object root{{"format", kManifestFormat},
                    {"version", kManifestVersion},
                    {"chip", manifest.chip},
                    {"ptx", relativeToManifest(manifest.path, manifest.ptxPath)}};
  if (!manifest.cubinPath.empty())
    root["cubin"] = relativeToManifest(manifest.path, manifest.cubinPath);
  root["functions"] = std::move(functions);
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", json::Value(std::move(root))) << "\n";
  return text;
}
