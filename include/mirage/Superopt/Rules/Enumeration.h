//===- Enumeration.h - every small graph over the rule menu -----*- C++ -*-===//
//
// TASO's generator, for the graph dialect: enumerate every graph of up to
// `maxOps` ops of the menu over a pool of input variables, fingerprint each
// on random inputs, and keep those whose fingerprint another graph shares.
//
// The pool: variables of a few kinds, each with the concrete shape the
// fingerprints use (all matrix dims equal, so that every product and sum
// type-checks, as in TASO) and whether it is a weight (a weight only feeds
// a convolution's weight operand, a broadcast operand or weight arithmetic;
// exp, relu and pooling apply to activations). Kinds are grouped in worlds
// that share no op (matrices, NCHW images), enumerated separately.
//
// A graph is generated once up to isomorphism: its ops come in their
// canonical order (CanonicalForm.h) and variables of a kind are used in
// order (x0 before x1). A graph that recomputes a tensor it already has
// (transpose(transpose(x)) next to x) is kept but not extended: every
// larger graph around it is implied by the smaller rule.
//
// Fingerprints: every tensor is evaluated in two arithmetics at once
// (Fingerprint.h): the finite field of lib/Superopt (values in Z_p, exponent
// parts in Z_q, exp exact, relu and max uninterpreted) and fp64 on small
// integer inputs (relu and max exact, exp rounded). A graph with relu or
// max pooling is keyed by its fp64 values, any other by its field values.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_ENUMERATION_H
#define MIRAGE_SUPEROPT_RULES_ENUMERATION_H

#include "mirage/Superopt/Rules/RuleIR.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <functional>

namespace mirage::rules {

/// The largest number of ops one enumerated graph may have.
constexpr unsigned kMaxEnumOps = 5;

/// Concrete sizes of the fingerprints (the shapes are symbolic in the
/// rules; these only have to make the ops type-check and the values
/// random enough).
struct FingerprintSizes {
  int64_t matrix = 3;   // both dims of a matrix variable
  int64_t batch = 2;    // N of an image
  int64_t channels = 3; // C of an image, O and I of a weight
  int64_t spatial = 3;  // H and W of an image
};

/// A kind of input variable.
struct VariableKind {
  std::string name; // "x", "y", ...: variables are named <name><index>
  unsigned world = 0;
  llvm::SmallVector<int64_t, 4> shape;
  /// Dims that are literal in the rules (a bias's 1s, a kernel's 3x3), not
  /// symbols.
  llvm::SmallVector<bool, 4> literal;
  /// A dim that is the concatenation of two equal halves (-1: none): such
  /// a variable may be split (the rule then applies to any tensor with a
  /// size that is a sum along that dim).
  int splitDim = -1;
  bool weight = false;
  unsigned count = 1;
  std::string doc;
};

/// An op the enumeration may add, with its attributes fixed.
struct OpTemplate {
  OpKind kind;
  IntAttrs ints;
  unsigned world = 0;
  /// The choices of scalar expressions (scalar_mul, scalar_add).
  llvm::SmallVector<ScalarExpr, 4> scalars;
  std::string label; // "conv2d 3x3 same", "concat 1", ...
};

struct Menu {
  std::vector<VariableKind> kinds;
  std::vector<OpTemplate> templates;
  std::vector<std::string> worldNames;
  unsigned numScalars = 2;
};

/// The mnemonics of the default menu: matmul, add, sub, mul, scalar_mul,
/// scalar_add, exp, relu, transpose, concat, split, reduce_sum, conv2d,
/// avg_pool2d, max_pool2d, reshape.
std::vector<std::string> getDefaultMenuOps();

/// The menu of the ops named in `ops` (graph-dialect mnemonics), with the
/// variable kinds they need. Fails (the string says why) on an unknown or
/// unsupported name.
std::optional<Menu> buildMenu(llvm::ArrayRef<std::string> ops,
                              const FingerprintSizes &sizes,
                              std::string &error);

/// One op of an enumerated graph. An operand is a variable (code < 128:
/// kind * 8 + index) or a result of an earlier op (128 + 2 * op + result).
struct EnumOp {
  uint8_t tmpl = 0;
  uint8_t scalar = 0; // index into the template's scalar choices
  uint8_t operands[2] = {0, 0};
};

constexpr uint8_t kResultCodeBase = 128;
inline uint8_t variableCode(unsigned kind, unsigned index) {
  return static_cast<uint8_t>(kind * 8 + index);
}
inline uint8_t resultCode(unsigned op, unsigned result) {
  return static_cast<uint8_t>(kResultCodeBase + 2 * op + result);
}
inline bool isVariableCode(uint8_t code) { return code < kResultCodeBase; }

/// A graph as the enumeration keeps it: its ops, the values it yields
/// (results no op of the graph reads; a graph without ops yields variables)
/// and the key of its fingerprints.
struct EnumGraph {
  uint8_t world = 0;
  uint8_t numOps = 0;
  uint8_t numOutputs = 0;
  /// Keyed by fp64 values (it has relu or max pooling) rather than field
  /// values.
  bool realKeyed = false;
  EnumOp ops[kMaxEnumOps];
  uint8_t outputs[4] = {0, 0, 0, 0};
  uint64_t key = 0;
};

struct EnumerationOptions {
  unsigned maxOps = 4;
  /// Distinct variables per graph.
  unsigned maxInputs = 4;
  uint64_t seed = 1;
  /// Worker threads (0: as many as the hardware has).
  unsigned threads = 0;
  /// Asked between subtrees; true stops the enumeration (then incomplete).
  std::function<bool()> shouldStop;
  llvm::raw_ostream *progress = nullptr;
};

struct EnumerationStats {
  uint64_t statesVisited = 0;   // op sequences tried
  uint64_t graphsRecorded = 0;  // canonical, connected graphs fingerprinted
  uint64_t notExtended = 0;     // graphs recomputing a tensor they have
  uint64_t renamings = 0;       // graphs keyed again under another naming
  uint64_t distinctKeys = 0;
  uint64_t graphsInGroups = 0;  // graphs sharing their key with another
  uint64_t groups = 0;
  bool stopped = false;
};

/// The graphs whose fingerprint key another graph shares, sorted by key
/// (then by size and canonical form), and what it took to find them.
struct EnumerationResult {
  std::vector<EnumGraph> graphs;
  EnumerationStats stats;
};

EnumerationResult enumerateGraphs(const Menu &menu,
                                  const EnumerationOptions &options);

/// The name of a variable code ("x0", "w1") and a graph as text
/// ("x0 -> (matmul x0 x1)") for messages and tests.
std::string variableName(const Menu &menu, uint8_t code);
std::string describeGraph(const Menu &menu, const EnumGraph &graph);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_ENUMERATION_H
