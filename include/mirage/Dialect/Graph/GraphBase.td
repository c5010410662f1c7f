//===- GraphBase.td - graph dialect, shared enums and types ---*- tablegen -*-===//
//
// The graph level is the tensor program as users write it. The operation
// kinds defined here (unary, binary, reduction, pooling) are shared by every
// lower level: kernel, block and thread ops name their computation with them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GRAPH_BASE_TD
#define MIRAGE_GRAPH_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::mirage::graph";
  let summary = "Tensor programs as users write them";
  let description = [{
    The top level of a µGraph: value-semantics operations on statically
    shaped tensors of f16, bf16 or f32 (and index tensors of i32 or i64,
    which only the indexing ops read and write). Every operation's result type follows
    from its operands and attributes, except where a shape is the user's choice
    (reshape, broadcast), and every verifier enforces the shape and dtype
    rules of the operation. Elementwise binary operations broadcast like NumPy.
    Reductions keep the reduced dimension with size 1.
  }];
}

//===----------------------------------------------------------------------===//
// Operation kinds shared by the graph, kernel, block and thread levels.
//===----------------------------------------------------------------------===//

def UnaryKind : I32EnumAttr<"UnaryKind", "elementwise unary computation", [
    I32EnumAttrCase<"exp", 0>, I32EnumAttrCase<"sqrt", 1>,
    I32EnumAttrCase<"square", 2>, I32EnumAttrCase<"silu", 3>,
    I32EnumAttrCase<"gelu", 4>, I32EnumAttrCase<"relu", 5>,
    // clamp(x) = min(max(x, params[0]), params[1])
    I32EnumAttrCase<"clamp", 6>,
    // scale(x) = x * params[0]
    I32EnumAttrCase<"scale", 7>,
    // pow(x) = x ** params[0]
    I32EnumAttrCase<"pow", 8>,
    // offset(x) = x + params[0]
    I32EnumAttrCase<"offset", 9>,
    I32EnumAttrCase<"tanh", 10>,
    // sigmoid(x) = 1 / (1 + e^-x)
    I32EnumAttrCase<"sigmoid", 11>,
    // --- casts and erf (issue 24) ---
    // erf(x) = 2/sqrt(pi) integral_0^x e^(-t^2) dt
    I32EnumAttrCase<"erf", 12>,
    // cast(x) = x rounded to the result's element type: the one kind whose
    // result element type may differ from its input's (f32, f16, bf16 in
    // any direction); graph.cast at the graph level.
    I32EnumAttrCase<"cast", 13>]> {
  let cppNamespace = "::mirage";
}

def BinaryKind : I32EnumAttr<"BinaryKind", "elementwise binary computation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
    I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"div", 3>,
    // --- Comparisons (selectop) ---
    // A comparison's result has its operands' float dtype and holds 1.0
    // where the relation holds and 0.0 elsewhere (NaN compares unequal to
    // everything: ne gives 1, the others 0), a mask that graph.select and
    // arithmetic read. isComparison() below tells them apart.
    I32EnumAttrCase<"eq", 4>, I32EnumAttrCase<"ne", 5>,
    I32EnumAttrCase<"lt", 6>, I32EnumAttrCase<"le", 7>,
    I32EnumAttrCase<"gt", 8>, I32EnumAttrCase<"ge", 9>
    // --- end comparisons ---
    ]> {
  let cppNamespace = "::mirage";
}

def ReduceKind : I32EnumAttr<"ReduceKind", "reduction over one dimension", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>]> {
  let cppNamespace = "::mirage";
}

def PoolKind : I32EnumAttr<"PoolKind", "2-d pooling window reduction", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>]> {
  let cppNamespace = "::mirage";
}

// How scatter_elements combines an update with the element it lands on.
def ScatterReduction : I32EnumAttr<"ScatterReduction",
    "how a scatter combines updates with the data", [
    // The update replaces the element; two updates to one element are an
    // error (ONNX leaves the result undefined, PyTorch nondeterministic).
    I32EnumAttrCase<"none", 0>,
    // The updates are added to the element (scatter_add, index_add).
    I32EnumAttrCase<"add", 1>]> {
  let cppNamespace = "::mirage";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// Dtypes a µGraph computes in.
def MirageFloat : AnyTypeOf<[F16, BF16, F32]>;

// Tensors in a user program or in device memory: static shapes only, since
// the search partitions every dimension.
def MirageTensor : StaticShapeTensorOf<[F16, BF16, F32]>;

// Index tensors (issue 24): token ids, gather/scatter positions, topk's
// indices. Only the indexing ops (gather, gather_elements,
// scatter_elements, one_hot, topk) read or produce them; no arithmetic
// computes on them.
def MirageIndexTensor : StaticShapeTensorOf<[I32, I64]>;

#endif // MIRAGE_GRAPH_BASE_TD
