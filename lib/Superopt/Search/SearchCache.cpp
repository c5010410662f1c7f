//===- SearchCache.cpp - on-disk cache of search results ------------------===//

#include "mirage/Superopt/Search/SearchCache.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Superopt/Search/Superoptimizer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mirage::superopt;

// The project's version, from CMake (lib/Superopt/Search/CMakeLists.txt).
#ifndef MIRAGE_OPT_VERSION
#define MIRAGE_OPT_VERSION "unversioned"
#endif

/// The layout of an entry file; bump when it changes.
static constexpr unsigned kEntryFormat = 2;
static constexpr llvm::StringLiteral kMagic = "// mirage-opt search cache entry";

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

std::string SearchCache::versions() {
  return (llvm::Twine("mirage-opt ") + MIRAGE_OPT_VERSION + ", LLVM " +
          LLVM_VERSION_STRING + ", search v" + llvm::Twine(kSearchVersion) +
          ", cost model v" + llvm::Twine(kCostModelVersion) + ", entry format " +
          llvm::Twine(kEntryFormat))
      .str();
}

std::string SearchCache::key(llvm::StringRef program, llvm::StringRef config) {
  llvm::SHA256 hash;
  hash.update(versions());
  hash.update("\n");
  hash.update(config);
  hash.update("\n");
  hash.update(program);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string SearchCache::pathOf(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".mlir");
  return std::string(path);
}

static std::string sha256(llvm::StringRef text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

/// One header line; values never hold a newline.
static void headerLine(std::string &out, llvm::StringRef name,
                       llvm::StringRef value) {
  std::string flat = value.str();
  for (char &c : flat)
    if (c == '\n' || c == '\r')
      c = ' ';
  out += "// " + name.str() + ": " + flat + "\n";
}

std::string SearchCache::serialize(llvm::StringRef key,
                                   const CacheEntry &entry) {
  std::string rest;
  headerLine(rest, "key", key);
  headerLine(rest, "versions", versions());
  headerLine(rest, "budget", entry.budget.empty() ? "complete" : entry.budget);
  headerLine(rest, "remark", entry.remark);
  rest += entry.body;
  if (!llvm::StringRef(rest).ends_with("\n"))
    rest += "\n";
  // The checksum covers the magic line and everything after its own line.
  std::string out = kMagic.str() + "\n";
  headerLine(out, "checksum", "sha256 " + sha256(kMagic.str() + "\n" + rest));
  return out + rest;
}

llvm::Expected<CacheEntry> SearchCache::parse(llvm::StringRef key,
                                              llvm::StringRef contents) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
  };
  auto [magic, afterMagic] = contents.split('\n');
  if (magic != kMagic)
    return fail("not a cache entry (no '" + kMagic + "' line)");
  auto [checksumLine, rest] = afterMagic.split('\n');
  llvm::StringRef stored = checksumLine;
  if (!stored.consume_front("// checksum: sha256 "))
    return fail("no checksum line");
  if (sha256(magic.str() + "\n" + rest.str()) != stored)
    return fail("checksum mismatch: the entry was truncated or modified");

  // The checksum holds: the header was written by serialize().
  CacheEntry entry;
  bool keyMatches = false;
  while (rest.starts_with("// ")) {
    auto [line, next] = rest.split('\n');
    rest = next;
    auto [name, value] = line.drop_front(3).split(": ");
    if (name == "key")
      keyMatches = value == key;
    else if (name == "versions" && value != versions())
      return fail("written by another version (" + value + ")");
    else if (name == "budget")
      entry.budget = value == "complete" ? "" : value.str();
    else if (name == "remark")
      entry.remark = value.str();
  }
  if (!keyMatches)
    return fail("its key line does not match its file name");
  if (rest.trim().empty())
    return fail("no µGraph");
  entry.body = rest.str();
  return entry;
}

SearchCache::Lookup SearchCache::lookup(llvm::StringRef key) const {
  Lookup result;
  auto buffer = llvm::MemoryBuffer::getFile(pathOf(key), /*IsText=*/true);
  if (!buffer)
    return result; // a miss
  llvm::Expected<CacheEntry> entry = parse(key, (*buffer)->getBuffer());
  if (!entry) {
    result.status = Status::Corrupt;
    result.problem = llvm::toString(entry.takeError());
    return result;
  }
  result.status = Status::Hit;
  result.entry = std::move(*entry);
  return result;
}

llvm::Error SearchCache::store(llvm::StringRef key,
                               const CacheEntry &entry) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create cache directory '" +
                                           dir + "'");
  std::string path = pathOf(key);
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".%%%%%%.tmp", fd, temp))
    return llvm::createStringError(ec, "cannot write to '" + dir + "'");
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << serialize(key, entry);
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return llvm::createStringError(ec, "cannot write '" + temp + "'");
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return llvm::createStringError(ec, "cannot rename into '" + dir + "'");
  }
  return llvm::Error::success();
}

llvm::Error SearchCache::remove(llvm::StringRef key) const {
  if (std::error_code ec = llvm::sys::fs::remove(pathOf(key)))
    return llvm::createStringError(ec, "cannot remove '" + pathOf(key) + "'");
  return llvm::Error::success();
}

llvm::Expected<unsigned> SearchCache::clear() const {
  if (!llvm::sys::fs::is_directory(dir))
    return 0;
  // Entries are named by their 64-digit key; temporary files add a suffix.
  llvm::Regex entryName("^[0-9a-f]{64}\\.mlir(\\.[A-Za-z0-9]{6}\\.tmp)?$");
  unsigned removed = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (!entryName.match(llvm::sys::path::filename(it->path())))
      continue;
    if (std::error_code rm = llvm::sys::fs::remove(it->path()))
      return llvm::createStringError(rm, "cannot remove '" + it->path() + "'");
    ++removed;
  }
  if (ec)
    return llvm::createStringError(ec, "cannot list '" + dir + "'");
  return removed;
}
