//===- SearchCache.cpp - on-disk cache of search results ------------------===//

#include "Superopt/Search/SearchCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mirage::superopt;

SearchCache::SearchCache(llvm::StringRef directory) {
  if (!directory.empty()) {
    dir = directory.str();
    return;
  }
  if (auto env = llvm::sys::Process::GetEnv("MIRAGE_CACHE_DIR")) {
    dir = *env;
    return;
  }
  llvm::SmallString<256> path;
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    path = *xdg;
  else if (llvm::sys::path::home_directory(path))
    llvm::sys::path::append(path, ".cache");
  llvm::sys::path::append(path, "mirage-opt");
  dir = std::string(path);
}

std::string SearchCache::key(llvm::StringRef program, llvm::StringRef config) {
  llvm::SHA256 hash;
  // Bump the version whenever the search or the stored format changes.
  hash.update("mirage-opt search cache v1\n");
  hash.update(config);
  hash.update("\n");
  hash.update(program);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::optional<std::string> SearchCache::lookup(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".mlir");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

llvm::Error SearchCache::store(llvm::StringRef key,
                               llvm::StringRef contents) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create cache directory '" +
                                           dir + "'");
  llvm::SmallString<256> path(dir), temp;
  llvm::sys::path::append(path, key + ".mlir");
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".%%%%%%.tmp", fd, temp))
    return llvm::createStringError(ec, "cannot write to '" + dir + "'");
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path))
    return llvm::createStringError(ec, "cannot rename into '" + dir + "'");
  return llvm::Error::success();
}
