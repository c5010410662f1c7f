//===- SearchCache.h - on-disk cache of search results ----------*- C++ -*-===//
//
// Results of the µGraph search are stored as files named by a SHA-256 key of
// the subprogram (printed generically, so names and locations do not
// matter), the target, its calibration, every search option and budget, and
// the versions of the tool, of LLVM/MLIR, of the search and of the cost
// model (kSearchVersion, kCostModelVersion), so that an upgrade never reuses
// a stale µGraph.
//
// An entry is a text file: a header of `// name: value` lines, then the
// µGraph's function. The `checksum` line holds the SHA-256 of every other
// byte of the file, so a truncated, corrupted or edited entry is detected
// (and reported, discarded and recomputed by the pass). An entry whose
// checksum was recomputed after an edit still has to pass the pass's
// re-verification before it is emitted (docs/Search.md, "Cache").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SEARCHCACHE_H
#define MIRAGE_SUPEROPT_SEARCHCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mirage::superopt {

/// What a cache entry holds besides its key.
struct CacheEntry {
  /// The search remark of the run that stored it.
  std::string remark;
  /// Why the search that stored it stopped early ("" if it ran to its end
  /// within every budget): a budget-cut result is served only to the same
  /// budgets (they are in the key) and says so.
  std::string budget;
  /// The µGraph: one func.func in MLIR's textual form.
  std::string body;
};

class SearchCache {
public:
  /// An empty `directory` picks $MIRAGE_CACHE_DIR, else
  /// $XDG_CACHE_HOME/mirage-opt, else ~/.cache/mirage-opt.
  explicit SearchCache(llvm::StringRef directory);

  /// The key of a subprogram under a search configuration; it includes the
  /// tool, LLVM, search and cost-model versions.
  static std::string key(llvm::StringRef program, llvm::StringRef config);
  /// The versions the key and every entry record, on one line.
  static std::string versions();

  enum class Status { Miss, Hit, Corrupt };
  struct Lookup {
    Status status = Status::Miss;
    CacheEntry entry;
    /// Why a Corrupt entry was rejected.
    std::string problem;
  };
  /// Reads and checks the entry of `key`.
  Lookup lookup(llvm::StringRef key) const;
  /// Writes atomically (a temporary file renamed into place).
  llvm::Error store(llvm::StringRef key, const CacheEntry &entry) const;
  /// Removes the entry of `key`, if there is one.
  llvm::Error remove(llvm::StringRef key) const;
  /// Removes every entry (and leftover temporary file) of the directory;
  /// other files are left alone. Returns how many were removed.
  llvm::Expected<unsigned> clear() const;

  const std::string &directory() const { return dir; }
  std::string pathOf(llvm::StringRef key) const;

  /// The file's contents for an entry (exposed for the unit tests).
  static std::string serialize(llvm::StringRef key, const CacheEntry &entry);
  /// Parses and checks a file's contents; fails with the reason.
  static llvm::Expected<CacheEntry> parse(llvm::StringRef key,
                                          llvm::StringRef contents);

private:
  std::string dir;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SEARCHCACHE_H
