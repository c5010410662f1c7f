//===- RuleFile.cpp - rules as pairs of graph functions -------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/Rules/RuleFile.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Rules/Generalize.h"
#include "mirage/Superopt/Rules/GraphOps.h"
#include "mirage/Superopt/Rules/ShapeInference.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mirage::rules;

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static ArrayAttr dimNames(OpBuilder &b, llvm::ArrayRef<DimExpr> dims,
                          const Rule &rule) {
  SmallVector<Attribute> names;
  for (const DimExpr &d : dims)
    names.push_back(b.getStringAttr(d.str(rule.dimNames)));
  return b.getArrayAttr(names);
}

static DictionaryAttr evidenceAttr(OpBuilder &b, const Rule &rule,
                                   func::FuncOp rhs) {
  const RuleEvidence &e = rule.evidence;
  SmallVector<NamedAttribute> attrs;
  auto add = [&](StringRef name, Attribute a) {
    attrs.push_back(b.getNamedAttr(name, a));
  };
  add("name", b.getStringAttr(rule.name));
  add("family", b.getStringAttr(rule.family));
  add("rhs", FlatSymbolRefAttr::get(rhs.getSymNameAttr()));
  add("proof", b.getStringAttr(stringify(e.proof)));
  SmallVector<Attribute> axioms;
  for (const std::string &a : e.axioms)
    axioms.push_back(b.getStringAttr(a));
  add("axioms", b.getArrayAttr(axioms));
  if (!e.proofNote.empty())
    add("proof_note", b.getStringAttr(e.proofNote));
  add("positive_scalars", b.getBoolAttr(e.assumesPositiveScalars));
  if (e.checked) {
    add("check", b.getStringAttr(e.checkPassed ? e.checkMethod : "failed"));
    add("tests", b.getI64IntegerAttr(e.checkTests));
    if (e.checkLog2Bound != 0)
      add("log2_bound", b.getF64FloatAttr(
                            std::round(e.checkLog2Bound * 10) / 10));
    if (!e.checkNote.empty())
      add("check_note", b.getStringAttr(e.checkNote));
  }
  return b.getDictionaryAttr(attrs);
}

FailureOr<std::pair<func::FuncOp, func::FuncOp>>
mirage::rules::buildRuleFunctions(OpBuilder &b, Location loc,
                                  const Rule &rule) {
  llvm::ArrayRef<int64_t> sizes = rule.genericSizes;
  Type f32 = b.getF32Type();
  SmallVector<TypedShape<int64_t>, 8> vars;
  SmallVector<Type> argTypes;
  for (const RuleVariable &v : rule.variables) {
    TypedShape<int64_t> s;
    for (const DimExpr &d : v.shape) {
      std::optional<int64_t> x = d.evaluate(sizes);
      if (!x || *x < 1)
        return emitError(loc) << "rule " << rule.name
                              << ": a variable's shape is not positive at "
                                 "the generic sizes";
      s.dims.push_back(*x);
    }
    s.resetSplits();
    argTypes.push_back(RankedTensorType::get(s.dims, f32));
    vars.push_back(std::move(s));
  }

  func::FuncOp funcs[2];
  for (int side = 0; side < 2; ++side) {
    const PatternSide &p = rule.side(side);
    // Shapes first, for the function's result types.
    std::vector<SmallVector<TypedShape<int64_t>, 2>> shapes(p.ops.size());
    auto shapeOf = [&](PatternRef r) -> const TypedShape<int64_t> & {
      return r.isVariable() ? vars[r.index] : shapes[r.op][r.index];
    };
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const PatternOp &op = p.ops[i];
      SmallVector<const TypedShape<int64_t> *, 2> operands;
      for (PatternRef r : op.operands)
        operands.push_back(&shapeOf(r));
      SmallVector<int64_t, 4> explicitShape;
      for (const DimExpr &d : op.shape)
        explicitShape.push_back(d.evaluate(sizes).value_or(-1));
      if (!inferShapes<int64_t>(op.kind, op.ints, operands,
                                op.shape.empty() ? nullptr : &explicitShape,
                                shapes[i]))
        return emitError(loc) << "rule " << rule.name << ": "
                              << (side ? "rhs" : "lhs") << " op " << i
                              << " (" << getMnemonic(op.kind)
                              << ") does not type-check at the generic sizes";
    }
    SmallVector<Type> resultTypes;
    for (PatternRef r : p.outputs)
      resultTypes.push_back(RankedTensorType::get(shapeOf(r).dims, f32));
    auto fn = b.create<func::FuncOp>(
        loc, rule.name + (side ? "_rhs" : "_lhs"),
        b.getFunctionType(argTypes, resultTypes));
    for (size_t i = 0; i < rule.variables.size(); ++i)
      fn.setArgAttr(i, "mirage.shape",
                    dimNames(b, rule.variables[i].shape, rule));
    Block *block = fn.addEntryBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(block);
    std::vector<SmallVector<Value, 2>> values(p.ops.size());
    auto valueOf = [&](PatternRef r) -> Value {
      return r.isVariable() ? block->getArgument(r.index)
                            : values[r.op][r.index];
    };
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const PatternOp &op = p.ops[i];
      SmallVector<Value, 2> operands;
      for (PatternRef r : op.operands)
        operands.push_back(valueOf(r));
      SmallVector<Type, 2> types;
      for (const auto &s : shapes[i])
        types.push_back(RankedTensorType::get(s.dims, f32));
      SmallVector<int64_t, 4> splitSizes;
      if (op.kind == OpKind::Split)
        for (const auto &s : shapes[i])
          splitSizes.push_back(s.dims[op.ints[0]]);
      double scalar = op.scalar.evaluate(rule.genericScalars);
      Operation *built = buildGraphOp(b, loc, op.kind, op.ints, scalar,
                                      splitSizes, operands, types);
      if (op.scalar.kind != ScalarExpr::Kind::None)
        built->setAttr("mirage.scalar", b.getStringAttr(op.scalar.str()));
      if (op.kind == OpKind::Split)
        built->setAttr("mirage.sizes", dimNames(b, op.shape, rule));
      if (op.kind == OpKind::Reshape)
        built->setAttr("mirage.shape", dimNames(b, op.shape, rule));
      values[i].assign(built->result_begin(), built->result_end());
    }
    SmallVector<Value> outs;
    for (PatternRef r : p.outputs)
      outs.push_back(valueOf(r));
    b.create<func::ReturnOp>(loc, outs);
    funcs[side] = fn;
  }
  funcs[0]->setAttr(kRuleAttrName, evidenceAttr(b, rule, funcs[1]));
  funcs[1]->setAttr(kEquivalentToAttrName,
                    FlatSymbolRefAttr::get(funcs[0].getSymNameAttr()));
  for (func::FuncOp f : funcs)
    if (failed(mlir::verify(f)))
      return failure();
  return std::make_pair(funcs[0], funcs[1]);
}

/// One line of evidence for a rule's comment.
static std::string evidenceLine(const Rule &rule) {
  const RuleEvidence &e = rule.evidence;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << stringify(e.proof);
  if (e.proof == ProofStatus::Proved) {
    os << " from ";
    llvm::interleaveComma(e.axioms, os);
    if (e.assumesPositiveScalars)
      os << " (scalars positive)";
  } else if (!e.proofNote.empty()) {
    os << " (" << e.proofNote << ")";
  }
  if (e.checked) {
    if (!e.checkPassed)
      os << "; check failed";
    else if (e.checkLog2Bound != 0)
      os << llvm::formatv("; {0}: {1} tests, bound 2^{2:f1}", e.checkMethod,
                          e.checkTests, e.checkLog2Bound);
    else
      os << "; " << e.checkMethod << ": " << e.checkTests << " input sets";
  }
  return s;
}

LogicalResult mirage::rules::writeRuleFile(llvm::raw_ostream &os,
                                           llvm::ArrayRef<Rule> rules,
                                           llvm::StringRef header,
                                           MLIRContext &ctx) {
  ctx.loadDialect<func::FuncDialect, mirage::graph::GraphDialect>();
  OpBuilder b(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  os << header;
  OpPrintingFlags flags;
  flags.useLocalScope();
  for (const Rule &rule : rules) {
    auto funcs = buildRuleFunctions(b, loc, rule);
    if (failed(funcs))
      return failure();
    os << "\n// " << rule.name << " [" << rule.family << "] "
       << evidenceLine(rule) << "\n";
    os << "//   " << describeSide(rule, rule.lhs) << "\n";
    os << "//   = " << describeSide(rule, rule.rhs) << "\n";
    funcs->first.print(os, flags);
    os << "\n";
    funcs->second.print(os, flags);
    os << "\n";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads one side's body into a pattern side.
/// A dimension expression of an op with the size the op has there.
using SizeFact = std::pair<DimExpr, int64_t>;

LogicalResult readSide(func::FuncOp fn, Rule &rule, PatternSide &side,
                       llvm::DenseMap<unsigned, double> &scalarValues,
                       std::vector<SizeFact> &facts) {
  if (!llvm::hasSingleElement(fn.getBody()))
    return fn.emitError("a rule side has one block");
  llvm::DenseMap<Operation *, unsigned> index;
  auto refOf = [&](Value v) -> std::optional<PatternRef> {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return PatternRef::variable(arg.getArgNumber());
    auto it = index.find(v.getDefiningOp());
    if (it == index.end())
      return std::nullopt;
    return PatternRef::result(it->second,
                              cast<OpResult>(v).getResultNumber());
  };
  auto readDims = [&](Operation *op, StringRef name,
                      SmallVectorImpl<DimExpr> &out) -> LogicalResult {
    auto array = op->getAttrOfType<ArrayAttr>(name);
    if (!array)
      return op->emitError("a rule's ") << op->getName() << " needs '" << name
                                        << "' (its sizes in the rule's "
                                           "dimension symbols)";
    for (Attribute a : array) {
      auto str = dyn_cast<StringAttr>(a);
      std::string error;
      std::optional<DimExpr> e =
          str ? parseDimExpr(str.getValue(), rule.dimNames, false, error)
              : std::nullopt;
      if (!e)
        return op->emitError("bad '")
               << name << "' entry: " << (str ? error : "not a string");
      out.push_back(*e);
    }
    return success();
  };
  for (Operation &op : fn.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands()) {
        std::optional<PatternRef> r = refOf(v);
        if (!r)
          return ret.emitError("returns a value the rule does not define");
        side.outputs.push_back(*r);
      }
      continue;
    }
    std::string why;
    std::optional<GraphOpInfo> info = readGraphOp(&op, why);
    if (!info)
      return op.emitError("not a rule op: ") << why;
    PatternOp p;
    p.kind = info->kind;
    p.ints = info->ints;
    for (Value v : op.getOperands()) {
      std::optional<PatternRef> r = refOf(v);
      if (!r)
        return op.emitError("reads a value defined outside the rule");
      p.operands.push_back(*r);
    }
    if (p.kind == OpKind::ScalarMul || p.kind == OpKind::ScalarAdd) {
      auto sym = op.getAttrOfType<StringAttr>("mirage.scalar");
      std::optional<ScalarExpr> e =
          sym ? parseScalarExpr(sym.getValue()) : std::nullopt;
      if (!e)
        return op.emitError("a rule's ")
               << op.getName()
               << " needs 'mirage.scalar' (c0, c1, c0*c1 or c0+c1)";
      p.scalar = *e;
      rule.numScalars = std::max<unsigned>(
          rule.numScalars,
          1 + (e->kind == ScalarExpr::Kind::Symbol ? e->a
                                                   : std::max(e->a, e->b)));
      if (e->kind == ScalarExpr::Kind::Symbol) {
        auto [it, fresh] = scalarValues.insert({e->a, info->scalar});
        if (!fresh && it->second != info->scalar)
          return op.emitError("scalar symbol ")
                 << e->str() << " has two values in the rule";
      }
    }
    if (p.kind == OpKind::Split && failed(readDims(&op, "mirage.sizes", p.shape)))
      return failure();
    if (p.kind == OpKind::Reshape &&
        failed(readDims(&op, "mirage.shape", p.shape)))
      return failure();
    if (!p.shape.empty()) {
      if (p.shape.size() != info->shape.size())
        return op.emitError("its size annotation has ")
               << p.shape.size() << " entries for " << info->shape.size()
               << " sizes";
      for (size_t k = 0; k < p.shape.size(); ++k)
        facts.push_back({p.shape[k], info->shape[k]});
    }
    index[&op] = side.ops.size();
    side.ops.push_back(std::move(p));
  }
  return success();
}

/// Binds the dimension symbols from the argument types and the sizes of
/// the sides' splits and reshapes.
LogicalResult bindSizes(func::FuncOp fn, Rule &rule,
                        llvm::ArrayRef<SizeFact> opFacts) {
  auto types = fn.getArgumentTypes();
  std::vector<std::pair<const DimExpr *, int64_t>> facts;
  for (auto [i, v] : llvm::enumerate(rule.variables)) {
    auto shape = cast<ShapedType>(types[i]).getShape();
    if (shape.size() != v.shape.size())
      return fn.emitError("argument ") << i << "'s shape annotation has "
                                       << v.shape.size() << " dims, its type "
                                       << shape.size();
    for (auto [d, e] : llvm::enumerate(v.shape))
      facts.push_back({&e, shape[d]});
  }
  for (const SizeFact &f : opFacts)
    facts.push_back({&f.first, f.second});
  SmallVector<std::optional<int64_t>, 8> sizes(rule.dimNames.size());
  if (!solveSizes(facts, sizes))
    return fn.emitError("the rule's shape annotations do not match its types");
  for (auto [s, v] : llvm::enumerate(sizes)) {
    if (!v)
      return fn.emitError("dimension symbol '")
             << rule.dimNames[s] << "' is not determined by the rule's shapes";
    rule.genericSizes.push_back(*v);
  }
  for (auto [i, v] : llvm::enumerate(rule.variables)) {
    auto shape = cast<ShapedType>(types[i]).getShape();
    for (auto [d, e] : llvm::enumerate(v.shape))
      if (e.evaluate(rule.genericSizes) != shape[d])
        return fn.emitError("argument ")
               << i << "'s type " << types[i] << " does not match its shape "
               << "annotation (dim " << d << " is " << e.str(rule.dimNames)
               << ")";
  }
  return success();
}

} // namespace

FailureOr<std::vector<Rule>> mirage::rules::readRules(ModuleOp module) {
  std::vector<Rule> rules;
  bool ok = true;
  for (auto lhs : module.getOps<func::FuncOp>()) {
    auto dict = lhs->getAttrOfType<DictionaryAttr>(kRuleAttrName);
    if (!dict)
      continue;
    auto fail = [&](const Twine &message) {
      lhs.emitError() << message;
      ok = false;
    };
    Rule rule;
    auto name = dict.getAs<StringAttr>("name");
    auto rhsRef = dict.getAs<FlatSymbolRefAttr>("rhs");
    if (!name || !rhsRef) {
      fail("'mirage.rule' needs a name and the rhs function");
      continue;
    }
    rule.name = name.getValue().str();
    if (auto family = dict.getAs<StringAttr>("family"))
      rule.family = family.getValue().str();
    auto rhs = module.lookupSymbol<func::FuncOp>(rhsRef.getAttr());
    if (!rhs) {
      fail("rule " + rule.name + ": its rhs @" + rhsRef.getValue() +
           " is not in the file");
      continue;
    }
    if (lhs.getFunctionType() != rhs.getFunctionType()) {
      std::string a, b;
      llvm::raw_string_ostream as(a), bs(b);
      as << lhs.getFunctionType();
      bs << rhs.getFunctionType();
      fail("the two sides of rule " + rule.name + " differ in types: " + a +
           " and " + b);
      continue;
    }
    // Variables and their shape constraints.
    bool argsOk = true;
    for (unsigned i = 0; i < lhs.getNumArguments() && argsOk; ++i) {
      auto array = lhs.getArgAttrOfType<ArrayAttr>(i, "mirage.shape");
      auto type = dyn_cast<RankedTensorType>(lhs.getArgumentTypes()[i]);
      if (!array || !type) {
        fail("rule " + rule.name + ": argument " + Twine(i) +
             " needs a ranked tensor type and 'mirage.shape'");
        argsOk = false;
        break;
      }
      RuleVariable v;
      for (Attribute a : array) {
        auto str = dyn_cast<StringAttr>(a);
        std::string error = "not a string";
        std::optional<DimExpr> e =
            str ? parseDimExpr(str.getValue(), rule.dimNames, true, error)
                : std::nullopt;
        if (!e) {
          fail("rule " + rule.name + ": argument " + Twine(i) +
               ": bad shape entry: " + error);
          argsOk = false;
          break;
        }
        v.shape.push_back(*e);
      }
      rule.variables.push_back(std::move(v));
    }
    if (!argsOk)
      continue;
    llvm::DenseMap<unsigned, double> scalarValues;
    std::vector<SizeFact> facts;
    if (failed(readSide(lhs, rule, rule.lhs, scalarValues, facts)) ||
        failed(readSide(rhs, rule, rule.rhs, scalarValues, facts)) ||
        failed(bindSizes(lhs, rule, facts))) {
      ok = false;
      continue;
    }
    rule.genericScalars.assign(rule.numScalars, 0);
    for (auto [s, v] : scalarValues)
      rule.genericScalars[s] = v;
    if (std::optional<std::string> bad = validateRule(rule)) {
      fail("rule " + rule.name + ": " + *bad);
      continue;
    }
    if (failed(checkRuleShapes(rule, rule.genericSizes))) {
      fail("rule " + rule.name +
           ": its sides do not type-check at the sizes of its arguments");
      continue;
    }
    // Evidence, if the file has it.
    RuleEvidence &e = rule.evidence;
    if (auto proof = dict.getAs<StringAttr>("proof"))
      e.proof = parseProofStatus(proof.getValue()).value_or(ProofStatus::Error);
    if (auto axioms = dict.getAs<ArrayAttr>("axioms"))
      for (Attribute a : axioms)
        if (auto s = dyn_cast<StringAttr>(a))
          e.axioms.push_back(s.getValue().str());
    if (auto note = dict.getAs<StringAttr>("proof_note"))
      e.proofNote = note.getValue().str();
    if (auto pos = dict.getAs<BoolAttr>("positive_scalars"))
      e.assumesPositiveScalars = pos.getValue();
    if (auto check = dict.getAs<StringAttr>("check")) {
      e.checked = true;
      e.checkPassed = check.getValue() != "failed";
      e.checkMethod = check.getValue().str();
    }
    if (auto tests = dict.getAs<IntegerAttr>("tests"))
      e.checkTests = tests.getInt();
    if (auto bound = dict.getAs<FloatAttr>("log2_bound"))
      e.checkLog2Bound = bound.getValueAsDouble();
    rules.push_back(std::move(rule));
  }
  if (!ok)
    return failure();
  return rules;
}
