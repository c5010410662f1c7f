//===- Enumerator.cpp - depth-first enumeration of small graphs -----------===//
//
// Each world (matrices, images) is enumerated on its own. The first op's
// choices are dealt round-robin to the worker threads; each worker runs the
// depth-first search below its choices with its own state, so the workers
// share nothing but the read-only variable values. The graphs are merged
// and sorted at the end, so the result does not depend on the thread count.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/Candidates.h"
#include "mirage/Superopt/Rules/CanonicalForm.h"
#include "mirage/Superopt/Rules/Enumeration.h"
#include "mirage/Superopt/Rules/Fingerprint.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <mutex>
#include <thread>

using namespace mirage::rules;
using mirage::superopt::SplitMix64;

namespace {

struct Shared {
  const Menu &menu;
  const EnumerationOptions &options;
  const FingerprintEvaluator &eval;
  /// Values of every variable, by code.
  std::vector<TinyTensor> variables;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> states{0};
  std::mutex progressMutex;
};

class Worker {
public:
  Worker(Shared &shared, unsigned world, unsigned index, unsigned workers)
      : s(shared), menu(shared.menu), world(world), index(index),
        workers(workers) {
    usedCount.assign(menu.kinds.size(), 0);
  }

  void run() { step(0); }

  std::vector<EnumGraph> graphs;
  uint64_t states = 0, notExtended = 0;

private:
  const TinyTensor &tensor(uint8_t code) const {
    if (isVariableCode(code))
      return s.variables[code];
    unsigned op = (code - kResultCodeBase) / 2;
    return results[op][(code - kResultCodeBase) % 2];
  }

  /// Operand codes an op at `depth` may read: the variables used so far,
  /// the next unused variable of each kind, and every earlier result.
  void candidates(unsigned depth, llvm::SmallVectorImpl<uint8_t> &out) const {
    out.clear();
    for (uint8_t code : used)
      out.push_back(code);
    if (used.size() < s.options.maxInputs)
      for (unsigned k = 0; k < menu.kinds.size(); ++k)
        if (menu.kinds[k].world == world &&
            usedCount[k] < menu.kinds[k].count)
          out.push_back(variableCode(k, usedCount[k]));
    for (unsigned i = 0; i < depth; ++i) {
      unsigned n = getNumResults(menu.templates[ops[i].tmpl].kind);
      for (unsigned r = 0; r < n; ++r)
        out.push_back(resultCode(i, r));
    }
  }

  bool isFresh(uint8_t code) const {
    return isVariableCode(code) && usedCount[code / 8] == code % 8;
  }
  void markUsed(uint8_t code) {
    ++usedCount[code / 8];
    used.push_back(code);
  }
  void unmarkUsed(uint8_t code) {
    --usedCount[code / 8];
    used.pop_back();
  }

  /// The restrictions that keep the enumeration to graphs a model has:
  /// nonlinear ops and pooling on activations, convolution weights and
  /// broadcast operands from the weight kinds.
  bool applies(const OpTemplate &t, const TinyTensor *a,
               const TinyTensor *b, uint8_t ca, uint8_t cb) const {
    switch (t.kind) {
    case OpKind::Exp:
    case OpKind::Relu:
    case OpKind::MaxPool2D:
      return !a->weight;
    case OpKind::AvgPool2D:
      return !a->weight;
    case OpKind::Conv2D:
      return !a->weight && b->weight && b->shape.rank() == 4 &&
             b->shape.dims[2] == 2 * t.ints[2] + 1 &&
             b->shape.dims[3] == 2 * t.ints[3] + 1;
    case OpKind::Reshape:
      return a->weight && a->shape.rank() == 3;
    case OpKind::ReduceSum:
      // A sum over a dim of size 1 changes nothing.
      return t.ints[0] < static_cast<int64_t>(a->shape.rank()) &&
             a->shape.dims[t.ints[0]] != 1;
    case OpKind::Matmul:
      return ca != cb;
    case OpKind::Concat:
      return ca != cb && a->weight == b->weight;
    case OpKind::Sub:
    case OpKind::Add:
    case OpKind::Mul: {
      // Distinct operands: a rule about op(x, x) is an instance of the
      // rule about op(x, y).
      if (ca == cb)
        return false;
      // Subtraction of a broadcast operand only (the mean of a batch
      // normalization): between equal shapes, add and a negative scale
      // say the same, and sub would add every cancellation (x + t) - t.
      if (t.kind == OpKind::Sub && b->numElements() >= a->numElements())
        return false;
      if (a->shape.dims == b->shape.dims)
        return true;
      // One operand broadcast, and it has at most one dim that is not 1
      // (a bias or a scale vector).
      auto broadcastable = [](const TinyTensor *x) {
        return llvm::count_if(x->shape.dims,
                              [](int64_t d) { return d != 1; }) <= 1;
      };
      const TinyTensor *small = a->numElements() < b->numElements() ? a : b;
      return broadcastable(small);
    }
    default:
      return true;
    }
  }

  void step(unsigned depth) {
    llvm::SmallVector<uint8_t, 16> first, second;
    unsigned choice = 0;
    for (unsigned ti = 0; ti < menu.templates.size(); ++ti) {
      const OpTemplate &t = menu.templates[ti];
      if (t.world != world)
        continue;
      unsigned arity = getNumOperands(t.kind);
      unsigned numScalars = t.scalars.empty() ? 1 : t.scalars.size();
      candidates(depth, first);
      for (uint8_t a : first) {
        bool freshA = isFresh(a);
        if (freshA)
          markUsed(a);
        if (arity == 1) {
          for (unsigned sc = 0; sc < numScalars; ++sc)
            if (depth > 0 || choice++ % workers == index)
              tryOp(depth, ti, sc, a, 0);
        } else {
          candidates(depth, second);
          for (uint8_t b : second) {
            if (isCommutative(t.kind) && b < a)
              continue;
            bool freshB = isFresh(b);
            if (freshB)
              markUsed(b);
            if (depth > 0 || choice++ % workers == index)
              tryOp(depth, ti, 0, a, b);
            if (freshB)
              unmarkUsed(b);
          }
        }
        if (freshA)
          unmarkUsed(a);
        if (s.stop.load(std::memory_order_relaxed))
          return;
      }
    }
  }

  void tryOp(unsigned depth, unsigned ti, unsigned sc, uint8_t a, uint8_t b) {
    const OpTemplate &t = menu.templates[ti];
    unsigned arity = getNumOperands(t.kind);
    const TinyTensor *ta = &tensor(a);
    const TinyTensor *tb = arity > 1 ? &tensor(b) : nullptr;
    if (!applies(t, ta, tb, a, b))
      return;
    ops[depth] = EnumOp{static_cast<uint8_t>(ti), static_cast<uint8_t>(sc),
                        {a, b}};
    if (!extendsCanonically(menu, llvm::ArrayRef(ops, depth + 1)))
      return;
    if ((++states & 0xfff) == 0) {
      s.states.fetch_add(0x1000, std::memory_order_relaxed);
      if (s.options.shouldStop && s.options.shouldStop())
        s.stop = true;
      if (s.options.progress && index == 0 && (states & 0xfffff) == 0) {
        std::lock_guard<std::mutex> lock(s.progressMutex);
        *s.options.progress << llvm::formatv(
            "discover-substitutions: {0} graphs tried ({1})\n",
            s.states.load(), menu.worldNames[world]);
        s.options.progress->flush();
      }
    }
    llvm::SmallVector<const TinyTensor *, 2> operands = {ta};
    if (tb)
      operands.push_back(tb);
    ScalarExpr scalar = t.scalars.empty() ? ScalarExpr() : t.scalars[sc];
    // Scalar symbols, like variables, are used in order: c1 alone only
    // after c0 (a graph scaling by c1 alone is a renaming of one by c0).
    unsigned savedScalars = scalarsUsed;
    if (scalar.kind == ScalarExpr::Kind::Symbol) {
      if (scalar.a > 0 && !(scalarsUsed & (1u << (scalar.a - 1))))
        return;
      scalarsUsed |= 1u << scalar.a;
    } else if (scalar.kind != ScalarExpr::Kind::None) {
      scalarsUsed |= (1u << scalar.a) | (1u << scalar.b);
    }
    auto restore = llvm::make_scope_exit([&] { scalarsUsed = savedScalars; });
    if (!s.eval.apply(t.kind, t.ints, scalar, operands, nullptr,
                      results[depth]))
      return;
    bool duplicate = false;
    for (const TinyTensor &r : results[depth])
      duplicate |= recomputes(depth, r);
    record(depth + 1);
    if (duplicate) {
      ++notExtended;
      return;
    }
    if (depth + 1 < s.options.maxOps && !s.stop.load(std::memory_order_relaxed))
      step(depth + 1);
  }

  /// Whether `r` equals a tensor the graph already has.
  bool recomputes(unsigned depth, const TinyTensor &r) const {
    auto same = [&](const TinyTensor &t) {
      return t.shape.dims == r.shape.dims &&
             (t.fieldHash == r.fieldHash || t.realHash == r.realHash);
    };
    for (uint8_t code : used)
      if (same(s.variables[code]))
        return true;
    for (unsigned i = 0; i < depth; ++i)
      for (unsigned k = 0; k < getNumResults(menu.templates[ops[i].tmpl].kind);
           ++k)
        if (same(results[i][k]))
          return true;
    return false;
  }

  void record(unsigned numOps) {
    // Connected: every op reaches every other through shared values.
    unsigned parent[kMaxEnumOps + 128];
    auto find = [&](unsigned x) {
      while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
      return x;
    };
    auto node = [&](uint8_t code) {
      return isVariableCode(code) ? kMaxEnumOps + code
                                  : (code - kResultCodeBase) / 2u;
    };
    for (unsigned i = 0; i < kMaxEnumOps + 128; ++i)
      parent[i] = i;
    bool consumed[kMaxEnumOps][2] = {};
    for (unsigned i = 0; i < numOps; ++i) {
      unsigned arity = getNumOperands(menu.templates[ops[i].tmpl].kind);
      for (unsigned a = 0; a < arity; ++a) {
        uint8_t code = ops[i].operands[a];
        parent[find(i)] = find(node(code));
        if (!isVariableCode(code))
          consumed[(code - kResultCodeBase) / 2][code % 2] = true;
      }
    }
    for (unsigned i = 1; i < numOps; ++i)
      if (find(i) != find(0))
        return;
    // Graphs of weights alone compute what is folded before a run; their
    // identities repeat the activations' ones.
    if (llvm::all_of(used, [&](uint8_t code) {
          return menu.kinds[code / 8].weight;
        }))
      return;
    EnumGraph g;
    g.world = world;
    g.numOps = numOps;
    llvm::SmallVector<uint64_t, 4> hashes;
    for (unsigned i = 0; i < numOps; ++i) {
      g.ops[i] = ops[i];
      OpKind k = menu.templates[ops[i].tmpl].kind;
      g.realKeyed |= k == OpKind::Relu || k == OpKind::MaxPool2D;
    }
    for (unsigned i = 0; i < numOps; ++i)
      for (unsigned r = 0; r < getNumResults(menu.templates[ops[i].tmpl].kind);
           ++r) {
        if (consumed[i][r])
          continue;
        if (g.numOutputs == 4)
          return;
        g.outputs[g.numOutputs++] = resultCode(i, r);
      }
    for (unsigned i = 0; i < g.numOutputs; ++i) {
      const TinyTensor &t = tensor(g.outputs[i]);
      hashes.push_back(g.realKeyed ? t.realHash : t.fieldHash);
    }
    g.key = keyOf(hashes, g.realKeyed);
    graphs.push_back(g);
  }

public:
  static uint64_t keyOf(llvm::SmallVectorImpl<uint64_t> &hashes,
                        bool realKeyed) {
    llvm::sort(hashes);
    uint64_t key = realKeyed ? 0x5bd1e995ULL : 0x27d4eb2fULL;
    for (uint64_t h : hashes)
      key = SplitMix64::mix(key ^ h);
    return key;
  }

private:
  Shared &s;
  const Menu &menu;
  unsigned world, index, workers;
  EnumOp ops[kMaxEnumOps];
  llvm::SmallVector<TinyTensor, 2> results[kMaxEnumOps];
  llvm::SmallVector<unsigned, 8> usedCount;
  llvm::SmallVector<uint8_t, 8> used;
  unsigned scalarsUsed = 0;
};

/// Appends to `out` the graph `g` under every injective renaming of its
/// variables within their kinds other than the identity, canonicalized and
/// keyed.
void addRenamings(const Menu &menu, const FingerprintEvaluator &eval,
                  llvm::ArrayRef<TinyTensor> variables, const EnumGraph &g,
                  std::vector<llvm::SmallVector<TinyTensor, 2>> &values,
                  std::vector<EnumGraph> &out) {
  llvm::SmallVector<uint8_t, 8> used;
  for (unsigned i = 0; i < g.numOps; ++i) {
    unsigned arity = getNumOperands(menu.templates[g.ops[i].tmpl].kind);
    for (unsigned a = 0; a < arity; ++a) {
      uint8_t c = g.ops[i].operands[a];
      if (isVariableCode(c) && !llvm::is_contained(used, c))
        used.push_back(c);
    }
  }
  llvm::sort(used);
  llvm::SmallVector<uint8_t, 8> target(used.size());
  llvm::SmallVector<std::pair<uint8_t, uint8_t>, 8> rename;
  std::function<void(size_t)> assign = [&](size_t i) {
    if (i == used.size()) {
      if (target == used)
        return;
      rename.clear();
      for (size_t k = 0; k < used.size(); ++k)
        rename.push_back({used[k], target[k]});
      EnumGraph r = renameVariables(menu, g, rename);
      if (!evaluateGraph(menu, eval, variables, r, values))
        return;
      llvm::SmallVector<uint64_t, 4> hashes;
      for (unsigned o = 0; o < r.numOutputs; ++o) {
        uint8_t c = r.outputs[o];
        const TinyTensor &t =
            isVariableCode(c) ? variables[c]
                              : values[(c - kResultCodeBase) / 2][c % 2];
        hashes.push_back(r.realKeyed ? t.realHash : t.fieldHash);
      }
      r.key = Worker::keyOf(hashes, r.realKeyed);
      out.push_back(r);
      return;
    }
    unsigned kind = used[i] / 8;
    for (unsigned idx = 0; idx < menu.kinds[kind].count; ++idx) {
      uint8_t code = variableCode(kind, idx);
      if (llvm::is_contained(llvm::ArrayRef(target).take_front(i), code))
        continue;
      target[i] = code;
      assign(i + 1);
    }
  };
  assign(0);
}

} // namespace

EnumerationResult mirage::rules::enumerateGraphs(
    const Menu &menu, const EnumerationOptions &options) {
  EnumerationResult result;
  llvm::Expected<FingerprintEvaluator> eval =
      FingerprintEvaluator::create(options.seed, menu.numScalars);
  if (!eval) {
    llvm::consumeError(eval.takeError());
    return result;
  }
  Shared shared{menu, options, *eval, {}, {}, {}, {}};
  shared.variables.resize(128);
  for (unsigned k = 0; k < menu.kinds.size(); ++k)
    for (unsigned i = 0; i < menu.kinds[k].count; ++i) {
      uint8_t code = variableCode(k, i);
      TinyTensor &t = shared.variables[code];
      const VariableKind &kind = menu.kinds[k];
      t.shape.dims.assign(kind.shape.begin(), kind.shape.end());
      t.shape.resetSplits();
      if (kind.splitDim >= 0)
        t.shape.splits[kind.splitDim].push_back(kind.shape[kind.splitDim] / 2);
      t.weight = kind.weight;
      eval->randomize(t, code);
    }

  // Graphs without ops: each variable, and each pair of variables of one
  // world (the other side of split(concat(x, y)) = x, y).
  std::vector<EnumGraph> all;
  llvm::SmallVector<uint8_t, 32> codes;
  for (unsigned k = 0; k < menu.kinds.size(); ++k)
    for (unsigned i = 0; i < menu.kinds[k].count; ++i)
      codes.push_back(variableCode(k, i));
  for (uint8_t a : codes) {
    EnumGraph g;
    g.world = menu.kinds[a / 8].world;
    g.numOutputs = 1;
    g.outputs[0] = a;
    llvm::SmallVector<uint64_t, 4> h = {shared.variables[a].fieldHash};
    g.key = Worker::keyOf(h, false);
    all.push_back(g);
    EnumGraph r = g; // the same graph keyed by its fp64 values
    r.realKeyed = true;
    h = {shared.variables[a].realHash};
    r.key = Worker::keyOf(h, true);
    all.push_back(r);
    for (uint8_t b : codes) {
      if (b <= a || menu.kinds[b / 8].world != g.world)
        continue;
      for (bool real : {false, true}) {
        EnumGraph p = g;
        p.realKeyed = real;
        p.numOutputs = 2;
        p.outputs[1] = b;
        h = {real ? shared.variables[a].realHash
                  : shared.variables[a].fieldHash,
             real ? shared.variables[b].realHash
                  : shared.variables[b].fieldHash};
        p.key = Worker::keyOf(h, real);
        all.push_back(p);
      }
    }
  }

  unsigned threads = options.threads ? options.threads
                                     : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned world = 0; world < menu.worldNames.size(); ++world) {
    bool present = llvm::any_of(menu.templates, [&](const OpTemplate &t) {
      return t.world == world;
    });
    if (!present)
      continue;
    for (unsigned i = 0; i < threads; ++i)
      workers.push_back(std::make_unique<Worker>(shared, world, i, threads));
  }
  // Run `threads` workers at a time.
  for (size_t begin = 0; begin < workers.size(); begin += threads) {
    std::vector<std::thread> running;
    for (size_t i = begin; i < std::min(workers.size(), begin + threads); ++i)
      running.emplace_back([w = workers[i].get()] { w->run(); });
    for (std::thread &t : running)
      t.join();
  }
  for (auto &w : workers) {
    result.stats.statesVisited += w->states;
    result.stats.notExtended += w->notExtended;
    all.insert(all.end(), w->graphs.begin(), w->graphs.end());
    w->graphs = {};
  }
  result.stats.stopped = shared.stop.load();
  result.stats.graphsRecorded = all.size();

  // Variable renamings. The enumeration names variables in order of first
  // use, so each graph is generated once; but the two sides of a rule must
  // share one naming, and the first-use naming of one side may not be the
  // other's (split(x @ concat(w1, w2)) first uses w1, the two products it
  // replaces first use x). So every graph is also keyed under each other
  // injective renaming of its variables within their kinds.
  size_t original = all.size();
  std::vector<std::vector<EnumGraph>> renamed(threads);
  {
    std::vector<std::thread> running;
    for (unsigned w = 0; w < threads; ++w)
      running.emplace_back([&, w] {
        std::vector<llvm::SmallVector<TinyTensor, 2>> values;
        for (size_t i = w; i < original; i += threads) {
          if (shared.stop.load(std::memory_order_relaxed))
            return;
          if (all[i].numOps == 0)
            continue;
          addRenamings(menu, *eval, shared.variables, all[i], values,
                       renamed[w]);
        }
      });
    for (std::thread &t : running)
      t.join();
  }
  for (auto &v : renamed) {
    result.stats.renamings += v.size();
    all.insert(all.end(), v.begin(), v.end());
    v = {};
  }

  std::sort(all.begin(), all.end(), [](const EnumGraph &a, const EnumGraph &b) {
    return a.key < b.key;
  });
  std::vector<EnumGraph> kept;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].key == all[i].key)
      ++j;
    ++result.stats.distinctKeys;
    if (j - i >= 2) {
      size_t start = kept.size();
      kept.insert(kept.end(), all.begin() + i, all.begin() + j);
      std::sort(kept.begin() + start, kept.end(),
                [&](const EnumGraph &a, const EnumGraph &b) {
                  return graphLess(menu, a, b);
                });
      // One graph reached both directly and as a renaming: kept once.
      auto last = std::unique(kept.begin() + start, kept.end(),
                              [&](const EnumGraph &a, const EnumGraph &b) {
                                return serializeGraph(menu, a) ==
                                       serializeGraph(menu, b);
                              });
      kept.erase(last, kept.end());
      if (kept.size() - start < 2)
        kept.resize(start);
      else
        ++result.stats.groups;
    }
    i = j;
  }
  result.stats.graphsInGroups = kept.size();
  result.graphs = std::move(kept);
  return result;
}
