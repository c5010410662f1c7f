//===- SearchCache.h - on-disk cache of search results ----------*- C++ -*-===//
//
// Results of the µGraph search are stored as files named by a SHA-256 of
// the subprogram (printed generically, so names and locations do not
// matter), the target, its calibration and every search limit. A hit skips
// the search; the stored µGraph was verified when it was stored.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SEARCHCACHE_H
#define MIRAGE_SUPEROPT_SEARCHCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mirage::superopt {

class SearchCache {
public:
  /// An empty `directory` picks $MIRAGE_CACHE_DIR, else
  /// $XDG_CACHE_HOME/mirage-opt, else ~/.cache/mirage-opt.
  explicit SearchCache(llvm::StringRef directory);

  /// The key of a subprogram under a search configuration.
  static std::string key(llvm::StringRef program, llvm::StringRef config);

  std::optional<std::string> lookup(llvm::StringRef key) const;
  /// Writes atomically (a temporary file renamed into place).
  llvm::Error store(llvm::StringRef key, llvm::StringRef contents) const;

  const std::string &directory() const { return dir; }

private:
  std::string dir;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SEARCHCACHE_H
