//===- SearchDriver.h - running the µGraph search from a pass ---*- C++ -*-===//
//
// What --superoptimize and --joint-optimize share when they run the µGraph
// search (Superoptimizer.h): the search options their common pass options
// give (SearchPassOptions.td), the threads, the cache of results with its
// re-verification before a cached µGraph is used, and the text that says
// where a budget cut a search. The passes keep their own remarks.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SEARCH_SEARCHDRIVER_H
#define MIRAGE_SUPEROPT_SEARCH_SEARCHDRIVER_H

#include "mirage/Superopt/Search/SearchCache.h"
#include "mirage/Superopt/Search/Superoptimizer.h"
#include "llvm/Support/ThreadPool.h"
#include <memory>
#include <optional>

namespace mirage::superopt {

/// The options both search passes give the µGraph search (those of
/// SearchPassOptions.td and the budgets), as the passes name them.
struct SearchPassOptions {
  unsigned kernelOps, blockOps, gridDims, kernelOutputs;
  uint64_t stateBudget;
  uint64_t memoryBudgetMiB;
  double timeBudgetSeconds;
  unsigned fieldBits;
  uint64_t seed;
};

/// The search's options from a pass's: the rest keep SearchOptions'
/// defaults, the verifier runs its real-valued tests first, and `pool`
/// runs the search's tasks (SearchThreads).
SearchOptions toSearchOptions(const SearchPassOptions &pass,
                              llvm::ThreadPoolInterface *pool);

/// The pool the search's tasks run on: MLIR's (threads = 0), a pool of its
/// own (threads > 1), or none, the calling thread (threads = 1 or MLIR's
/// threading disabled). The result of a search does not depend on it.
class SearchThreads {
public:
  SearchThreads(mlir::MLIRContext *ctx, unsigned threads);
  llvm::ThreadPoolInterface *pool() const { return chosen; }

private:
  std::unique_ptr<llvm::DefaultThreadPool> own;
  llvm::ThreadPoolInterface *chosen = nullptr;
};

/// What `cache=` asks for (docs/Search.md, "Cache").
enum class CacheMode { On, Off, Only, Refresh, Clear };
/// on, off, only, refresh, clear (true and false for on and off).
std::optional<CacheMode> parseCacheMode(llvm::StringRef text);
/// Whether a mode serves results from the cache.
bool readsCache(CacheMode mode);

/// The program part of a cache key: `subprogram` printed in MLIR's generic
/// form with its name and locations erased, so that neither changes the
/// key.
std::string cacheProgramText(mlir::func::FuncOp subprogram);

/// A cache entry checked against the subprogram it claims to optimize.
struct CachedMuGraph {
  enum class State {
    Miss,     // no entry
    Hit,      // parsed, re-verified and costed: `best` may be used
    Unusable, // an entry that cannot be used: `problem` says why
  };
  State state = State::Miss;
  /// Hit: the re-verified µGraph, a function of `scratch`.
  mlir::func::FuncOp best;
  /// Hit: the remark stored with the entry and the re-verification's
  /// summary.
  std::string remark, verification;
  /// Hit: the estimates of the default schedule and of `best`.
  FunctionCost before, after;
  /// Unusable: why.
  std::string problem;
  /// Unusable: the problem is no evidence against the entry (its
  /// re-verification was interrupted): it is kept, unused this time.
  bool keepEntry = false;
};

/// Reads the entry of `key` and checks it before it is trusted: it must
/// parse as a function of `defaultSchedule`'s type, verify equivalent to
/// it under `options.verifier` (within the search's memory budget and time
/// limit), and be accepted by the cost model on `gpu`. A µGraph that is
/// used is cloned into `scratch` as `name`_cached; one that is not leaves
/// nothing behind.
CachedMuGraph lookupVerified(const SearchCache &store, llvm::StringRef key,
                             mlir::func::FuncOp defaultSchedule,
                             mlir::ModuleOp scratch, llvm::StringRef name,
                             const GpuTarget &gpu,
                             const SearchOptions &options);

/// Where a rejected candidate differs, in one line.
std::string describeMismatch(const VerificationReport &report);

/// How a search stopped short, for its remark and its cache entry: the
/// state, memory and time budgets, an interrupted verification, the
/// kernel-level enumeration's budgets ("" when it ran to its end).
std::string describeBudgetCuts(const SearchStats &stats, uint64_t stateBudget);

/// The kernel-level enumeration's part of a search remark ("" when it was
/// off: kernel-graph-ops = 0).
std::string describeKernelLevel(const SearchStats &stats, bool enabled);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SEARCH_SEARCHDRIVER_H
