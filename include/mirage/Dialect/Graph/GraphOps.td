//===- GraphOps.td - graph dialect operations ------------------*- tablegen -*-===//

#ifndef MIRAGE_GRAPH_OPS_TD
#define MIRAGE_GRAPH_OPS_TD

include "mirage/Dialect/Graph/GraphBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, !listconcat([Pure], traits)>;

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

def Graph_MatmulOp : Graph_Op<"matmul", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "matrix product, batched over leading dimensions";
  let description = [{
    `lhs` is `[B..., M, K]`, `rhs` is `[B..., K, N]`, the result `[B..., M, N]`.
    Both operands have the same rank (at least 2) and the same batch
    dimensions; rank 3 and above is a batch matmul.

    ```mlir
    %c = graph.matmul %a, %b : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
    ```
  }];
  let arguments = (ins MirageTensor:$lhs, MirageTensor:$rhs);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

def Graph_UnaryOpInterface : OpInterface<"UnaryOpInterface"> {
  let cppNamespace = "::mirage::graph";
  let description = [{
    An elementwise unary op: one of the UnaryKinds shared by every level,
    with its scalar parameters. Passes and semantics that treat all unary
    ops alike (lowering to kernel.unary, interpretation, cost, field roles)
    dispatch on this interface rather than on a list of op classes.
  }];
  let methods = [
    InterfaceMethod<"The unary kind the op computes.", "::mirage::UnaryKind",
                    "getUnaryKind", (ins), [{}],
                    [{ return $_op.getKind(); }]>,
    InterfaceMethod<"The kind's scalar parameters (see UnaryKind).",
                    "::llvm::SmallVector<double>", "getUnaryParams", (ins),
                    [{}], [{ return $_op.getKindParams(); }]>,
    InterfaceMethod<"The operand.", "::mlir::Value", "getUnaryInput", (ins),
                    [{}], [{ return $_op.getInput(); }]>,
  ];
}

class Graph_UnaryOp<string mnemonic, string kind, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat([SameOperandsAndResultType,
                                      Graph_UnaryOpInterface],
                                     traits)> {
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    /// The shared unary kind this op computes, for lowering to lower levels.
    static constexpr ::mirage::UnaryKind getKind() {
      return ::mirage::UnaryKind::}] # kind # [{;
    }
    /// Scalar parameters of the kind (see UnaryKind).
    ::llvm::SmallVector<double> getKindParams() { return {}; }
  }];
}

def Graph_ExpOp : Graph_UnaryOp<"exp", "exp"> {
  let summary = "elementwise e^x";
}
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", "sqrt"> {
  let summary = "elementwise square root";
}
def Graph_SquareOp : Graph_UnaryOp<"square", "square"> {
  let summary = "elementwise x * x";
}
def Graph_SiluOp : Graph_UnaryOp<"silu", "silu"> {
  let summary = "elementwise x * sigmoid(x)";
}
def Graph_GeluOp : Graph_UnaryOp<"gelu", "gelu"> {
  let summary = "elementwise Gaussian error linear unit (erf form)";
}
def Graph_ReluOp : Graph_UnaryOp<"relu", "relu"> {
  let summary = "elementwise max(x, 0)";
}

def Graph_ClampOp : Graph_UnaryOp<"clamp", "clamp"> {
  let summary = "elementwise min(max(x, min), max)";
  let arguments = (ins MirageTensor:$input, F64Attr:$min, F64Attr:$max);
  let assemblyFormat =
      "$input `,` `min` `=` $min `,` `max` `=` $max attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    static constexpr ::mirage::UnaryKind getKind() {
      return ::mirage::UnaryKind::clamp;
    }
    ::llvm::SmallVector<double> getKindParams() {
      return {getMin().convertToDouble(), getMax().convertToDouble()};
    }
  }];
}

def Graph_ScalarMulOp : Graph_UnaryOp<"scalar_mul", "scale"> {
  let summary = "elementwise x * scalar";
  let arguments = (ins MirageTensor:$input, F64Attr:$scalar);
  let assemblyFormat = "$input `,` $scalar attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::UnaryKind getKind() {
      return ::mirage::UnaryKind::scale;
    }
    ::llvm::SmallVector<double> getKindParams() {
      return {getScalar().convertToDouble()};
    }
  }];
}

def Graph_TanhOp : Graph_UnaryOp<"tanh", "tanh"> {
  let summary = "elementwise hyperbolic tangent";
}
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", "sigmoid"> {
  let summary = "elementwise logistic sigmoid 1 / (1 + e^-x)";
}

def Graph_ScalarAddOp : Graph_UnaryOp<"scalar_add", "offset"> {
  let summary = "elementwise x + scalar";
  let description = [{
    Adds a constant, such as the epsilon of a normalization
    (`var + eps`) or a bias that is the same for every element.

    ```mlir
    %y = graph.scalar_add %x, 1.0e-05 : tensor<8x4096xf32>
    ```
  }];
  let arguments = (ins MirageTensor:$input, F64Attr:$scalar);
  let assemblyFormat = "$input `,` $scalar attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::UnaryKind getKind() {
      return ::mirage::UnaryKind::offset;
    }
    ::llvm::SmallVector<double> getKindParams() {
      return {getScalar().convertToDouble()};
    }
  }];
}

def Graph_PowOp : Graph_UnaryOp<"pow", "pow"> {
  let summary = "elementwise x ** exponent";
  let arguments = (ins MirageTensor:$input, F64Attr:$exponent);
  let assemblyFormat = "$input `,` $exponent attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::UnaryKind getKind() {
      return ::mirage::UnaryKind::pow;
    }
    ::llvm::SmallVector<double> getKindParams() {
      return {getExponent().convertToDouble()};
    }
  }];
}

//===----------------------------------------------------------------------===//
// Casts and erf (issue 24)
//===----------------------------------------------------------------------===//

def Graph_ErfOp : Graph_UnaryOp<"erf", "erf"> {
  let summary = "elementwise Gauss error function";
}

def Graph_CastOp : Graph_Op<"cast"> {
  let summary = "elementwise conversion between f32, f16 and bf16";
  let description = [{
    Each element rounded to nearest-even in the result's element type (exact
    when that type is wider). Every other op takes operands of one dtype, so
    mixed-precision programs state each conversion with a cast:

    ```mlir
    %x32 = graph.cast %x : tensor<8x512xf16> -> tensor<8x512xf32>
    %w32 = graph.cast %w : tensor<512x512xbf16> -> tensor<512x512xf32>
    %y = graph.matmul %x32, %w32 : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    ```

    It lowers to `kernel.unary cast` (UnaryKind `cast`). It is not a
    graph::UnaryOpInterface op: the passes that treat all unary ops alike
    assume a result of the input's type.
  }];
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_BinaryOpInterface : OpInterface<"BinaryOpInterface"> {
  let cppNamespace = "::mirage::graph";
  let description = [{
    An elementwise binary op (arithmetic or comparison): one of the
    BinaryKinds shared by every level. Passes and semantics that treat all
    binary ops alike dispatch on this interface.
  }];
  let methods = [
    InterfaceMethod<"The binary kind the op computes.", "::mirage::BinaryKind",
                    "getBinaryKind", (ins), [{}],
                    [{ return $_op.getKind(); }]>,
  ];
}

class Graph_BinaryOp<string mnemonic, string kind>
    : Graph_Op<mnemonic, [SameOperandsAndResultElementType,
                          InferTypeOpAdaptor, Graph_BinaryOpInterface]> {
  let description = [{
    Operands broadcast like NumPy: shapes are aligned at the trailing
    dimension and each pair of sizes is equal or one of them is 1.
  }];
  let arguments = (ins MirageTensor:$lhs, MirageTensor:$rhs);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::BinaryKind getKind() {
      return ::mirage::BinaryKind::}] # kind # [{;
    }
  }];
}

def Graph_AddOp : Graph_BinaryOp<"add", "add"> { let summary = "elementwise sum"; }
def Graph_SubOp : Graph_BinaryOp<"sub", "sub"> { let summary = "elementwise difference"; }
def Graph_MulOp : Graph_BinaryOp<"mul", "mul"> { let summary = "elementwise product"; }
def Graph_DivOp : Graph_BinaryOp<"div", "div"> { let summary = "elementwise quotient"; }

//===----------------------------------------------------------------------===//
// Comparisons and select (selectop)
//===----------------------------------------------------------------------===//

class Graph_CompareOp<string mnemonic, string relation>
    : Graph_BinaryOp<mnemonic, mnemonic> {
  let summary = "elementwise comparison lhs " # relation # " rhs as a 0/1 mask";
  let description = [{
    The result has the operands' dtype: 1.0 where the relation holds, 0.0
    elsewhere. NaN compares unequal to everything (`ne` gives 1.0, the
    others 0.0). Operands broadcast like NumPy.

    ```mlir
    %m = graph.lt %a, %b : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
    ```
  }];
}

def Graph_EqOp : Graph_CompareOp<"eq", "=="> {}
def Graph_NeOp : Graph_CompareOp<"ne", "!="> {}
def Graph_LtOp : Graph_CompareOp<"lt", "<"> {}
def Graph_LeOp : Graph_CompareOp<"le", "<="> {}
def Graph_GtOp : Graph_CompareOp<"gt", ">"> {}
def Graph_GeOp : Graph_CompareOp<"ge", ">="> {}

def Graph_SelectOp : Graph_Op<"select", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "elementwise cond != 0 ? on_true : on_false";
  let description = [{
    Takes `on_true` where `cond` is not 0.0 (a NaN condition counts as true)
    and `on_false` elsewhere; the value not taken does not reach the
    result, even when it is an infinity or a NaN. The three operands
    broadcast like NumPy and share one dtype; a condition is usually a
    comparison's 0/1 mask.

    ```mlir
    %y = graph.select %m, %x, %ninf : (tensor<1x1x8x8xf32>, tensor<2x4x8x8xf32>,
        tensor<f32>) -> tensor<2x4x8x8xf32>
    ```
  }];
  let arguments = (ins MirageTensor:$cond, MirageTensor:$on_true,
                       MirageTensor:$on_false);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$cond `,` $on_true `,` $on_false attr-dict `:` "
                       "functional-type(operands, results)";
}
// --- end comparisons and select ---

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

class Graph_ReduceOp<string mnemonic, string kind>
    : Graph_Op<mnemonic, [SameOperandsAndResultElementType,
                          InferTypeOpAdaptor]> {
  let description = [{
    Reduces dimension `dim`; the result keeps it with size 1.
  }];
  let arguments = (ins MirageTensor:$input, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$input `,` `dim` `=` $dim attr-dict `:` type($input) `->` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::ReduceKind getKind() {
      return ::mirage::ReduceKind::}] # kind # [{;
    }
  }];
}

def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", "sum"> {
  let summary = "sum over one dimension";
}
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max", "max"> {
  let summary = "maximum over one dimension";
}

def Graph_RMSNormOp : Graph_Op<"rms_norm", [SameOperandsAndResultType]> {
  let summary = "root-mean-square normalization over the last dimension";
  let description = [{
    `y[..., j] = x[..., j] / sqrt(mean_k(x[..., k]^2) + eps)` with the mean over
    the last dimension. Scale by a weight with `graph.mul` afterwards.
  }];
  let arguments = (ins MirageTensor:$input,
                       DefaultValuedAttr<F64Attr, "0.0">:$eps);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Graph_SoftmaxOp : Graph_Op<"softmax", [SameOperandsAndResultType]> {
  let summary = "softmax over one dimension";
  let description = [{
    `y = exp(x - max_dim(x)) / sum_dim(exp(x - max_dim(x)))`. The search may
    decompose it (dropping the max subtraction is exact in real arithmetic).
  }];
  let arguments = (ins MirageTensor:$input, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input `,` `dim` `=` $dim attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Graph_TransposeOp : Graph_Op<"transpose", [SameOperandsAndResultElementType,
                                               InferTypeOpAdaptor]> {
  let summary = "permutes dimensions";
  let description = [{ `result.shape[i] = input.shape[perm[i]]`. }];
  let arguments = (ins MirageTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$input `,` `perm` `=` $perm attr-dict `:` type($input) `->` type($result)";
}

def Graph_ReshapeOp : Graph_Op<"reshape", [SameOperandsAndResultElementType]> {
  let summary = "reinterprets the row-major elements with a new shape";
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Graph_BroadcastOp : Graph_Op<"broadcast", [SameOperandsAndResultElementType]> {
  let summary = "NumPy-style broadcast to the result shape";
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Graph_RepeatOp : Graph_Op<"repeat", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "tiles the input `repeats[i]` times along dimension i";
  let arguments = (ins MirageTensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input `,` `repeats` `=` $repeats attr-dict `:` "
                       "type($input) `->` type($result)";
}

def Graph_ConcatOp : Graph_Op<"concat", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "concatenates tensors along one dimension";
  let arguments = (ins Variadic<MirageTensor>:$inputs, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "`(` $inputs `)` `dim` `=` $dim attr-dict `:` "
                       "functional-type($inputs, results)";
}

def Graph_SplitOp : Graph_Op<"split", [InferTypeOpAdaptor]> {
  let summary = "splits a tensor along one dimension into pieces of given sizes";
  let arguments = (ins MirageTensor:$input, I64Attr:$dim,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<MirageTensor>:$results);
  let assemblyFormat = "$input `,` `dim` `=` $dim `,` `sizes` `=` $sizes "
                       "attr-dict `:` type($input) `->` type($results)";
}

//===----------------------------------------------------------------------===//
// Convolution and pooling (NCHW)
//===----------------------------------------------------------------------===//

def Graph_Conv2DOp : Graph_Op<"conv2d", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "2-d convolution, input NCHW, weight [O, C/groups, KH, KW]";
  let description = [{
    Padding is symmetric (`[pad_h, pad_w]`).
    `OH = (H + 2 pad_h - dil_h (KH - 1) - 1) / stride_h + 1`, likewise OW.
  }];
  let arguments = (ins MirageTensor:$input, MirageTensor:$weight,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$input `,` $weight attr-dict `:` functional-type(operands, results)";
}

class Graph_Pool2DOp<string mnemonic, string kind>
    : Graph_Op<mnemonic, [SameOperandsAndResultElementType,
                          InferTypeOpAdaptor]> {
  let description = [{
    NCHW input; window `kernel`, symmetric `padding`. Padded positions are
    ignored by max and counted as zeros by avg.
  }];
  let arguments = (ins MirageTensor:$input, DenseI64ArrayAttr:$kernel,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input `,` `kernel` `=` $kernel attr-dict `:` "
                       "type($input) `->` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::mirage::PoolKind getKind() {
      return ::mirage::PoolKind::}] # kind # [{;
    }
  }];
}

def Graph_MaxPool2DOp : Graph_Pool2DOp<"max_pool2d", "max"> {
  let summary = "2-d max pooling";
}
def Graph_AvgPool2DOp : Graph_Pool2DOp<"avg_pool2d", "avg"> {
  let summary = "2-d average pooling";
}

//===----------------------------------------------------------------------===//
// Indexing (issue 24): gather, scatter, one_hot, topk
//===----------------------------------------------------------------------===//

def Graph_GatherOp : Graph_Op<"gather"> {
  let summary = "takes slices of `data` at the positions `indices` name";
  let description = [{
    ONNX's Gather, PyTorch's `index_select` and `embedding`: the result is
    `data` with dimension `axis` replaced by the dimensions of `indices`,
    `result[a..., i..., b...] = data[a..., indices[i...], b...]`. Every
    index must lie in [0, data.shape[axis]); the interpreter reports one
    outside it (the importers turn a constant negative index into its
    positive form).

    ```mlir
    %e = graph.gather %wte, %ids, axis = 0 : (tensor<50257x768xf32>,
        tensor<2x16xi64>) -> tensor<2x16x768xf32>
    ```
  }];
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` `axis` `=` $axis attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements"> {
  let summary = "elementwise gather along one axis (torch.gather)";
  let description = [{
    ONNX's GatherElements and PyTorch's `gather`: `indices` has the rank of
    `data`, the result has the shape of `indices`, and
    `result[i][j][k] = data[indices[i][j][k]][j][k]` for `axis = 0` (the
    index replaces the position along `axis` only). Along every other axis
    `indices` is at most as long as `data`.
  }];
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` `axis` `=` $axis attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_ScatterElementsOp : Graph_Op<"scatter_elements"> {
  let summary = "writes `updates` into a copy of `data` at `indices` along one axis";
  let description = [{
    ONNX's ScatterElements and PyTorch's `scatter` / `scatter_add`, the
    inverse placement of gather_elements: `indices` and `updates` have one
    shape, of the rank of `data`, and update `i` goes to `data`'s position
    `i` with its `axis` coordinate replaced by `indices[i]`. With
    `reduction = none` it replaces the element there, and two updates of
    one element are an error of the program (the interpreter reports it);
    with `reduction = add` every update is added.

    ```mlir
    %w = graph.scatter_elements %zeros, %experts, %gates, axis = 1, reduction = add :
        (tensor<16x8xf32>, tensor<16x2xi64>, tensor<16x2xf32>) -> tensor<16x8xf32>
    ```
  }];
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       MirageTensor:$updates, I64Attr:$axis,
                       ScatterReduction:$reduction);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates `,` `axis` `=` $axis "
                       "`,` `reduction` `=` $reduction attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_OneHotOp : Graph_Op<"one_hot"> {
  let summary = "1.0 at each index's position of a new last dimension, 0.0 elsewhere";
  let description = [{
    PyTorch's `one_hot` followed by a cast to a float dtype, ONNX's OneHot
    with values [0, 1] and the last axis: the result has the shape of
    `indices` and one more dimension, its depth, and
    `result[i..., d] = (indices[i...] == d)`. Every index must lie in
    [0, depth), as PyTorch requires.
  }];
  let arguments = (ins MirageIndexTensor:$indices);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$indices attr-dict `:` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

def Graph_TopKOp : Graph_Op<"topk"> {
  let summary = "the k largest (or smallest) elements along one dimension and their indices";
  let description = [{
    ONNX's TopK and PyTorch's `topk`: along `dim`, the `k` largest elements
    (smallest with `largest = false`) in order, largest first, and their
    positions in `input` as i64. Equal elements come in the order of their
    positions (ONNX's rule), and NaN counts as larger than every number
    (PyTorch's). The values are elements of `input`: nothing is rounded.

    ```mlir
    %w, %e = graph.topk %probs, k = 2, dim = 1 :
        tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
    ```
  }];
  let arguments = (ins MirageTensor:$input, I64Attr:$k, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs MirageTensor:$values, MirageIndexTensor:$indices);
  let assemblyFormat = "$input `,` `k` `=` $k `,` `dim` `=` $dim attr-dict `:` "
                       "type($input) `->` `(` type($values) `,` type($indices) `)`";
  let hasVerifier = 1;
}

#endif // MIRAGE_GRAPH_OPS_TD
