//===- KernelOps.td - kernel dialect ---------------------------*- tablegen -*-===//

#ifndef MIRAGE_KERNEL_OPS_TD
#define MIRAGE_KERNEL_OPS_TD

include "mirage/Dialect/Graph/GraphBase.td"
include "mirage/Dialect/Block/BlockInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/RegionKindInterface.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::mirage::kernel";
  let summary = "A sequence of GPU kernel launches on device tensors";
  let description = [{
    Each op is one kernel launch reading and writing tensors in device memory,
    in program order. Predefined kernels are library-style kernels with fixed
    implementations (matmul, elementwise, reductions, ...); a graph-defined
    kernel (`kernel.graph_def`) is a custom kernel whose body is a block
    graph. Values are device tensors: statically shaped tensors of f16, bf16
    or f32.
  }];
  let dependentDialects = ["::mirage::block::BlockDialect"];
}

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, !listconcat([Pure], traits)>;

//===----------------------------------------------------------------------===//
// Predefined kernels
//===----------------------------------------------------------------------===//

def Kernel_MatmulOp : Kernel_Op<"matmul", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined (batched) matmul kernel";
  let arguments = (ins MirageTensor:$lhs, MirageTensor:$rhs);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Kernel_UnaryOp : Kernel_Op<"unary", [SameOperandsAndResultShape]> {
  let summary = "predefined elementwise unary kernel";
  let description = [{
    The result has the input's type, except for kind `cast` (graph.cast),
    whose result element type is any of f32, f16 and bf16 and prints after
    an arrow:
    `kernel.unary cast %x : tensor<8x512xf16> -> tensor<8x512xf32>`.
  }];
  let arguments = (ins UnaryKind:$kind, MirageTensor:$input,
                       OptionalAttr<DenseF64ArrayAttr>:$params);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$kind $input (`params` `=` custom<UnaryParams>($params)^)? attr-dict `:` "
                       "custom<UnaryTypes>(type($input), type($result))";
  let hasVerifier = 1;
}

def Kernel_BinaryOp : Kernel_Op<"binary", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined elementwise binary kernel, NumPy broadcasting";
  let arguments = (ins BinaryKind:$kind, MirageTensor:$lhs, MirageTensor:$rhs);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

// --- select (selectop) ---
def Kernel_SelectOp : Kernel_Op<"select", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined elementwise select kernel, NumPy broadcasting";
  let description = [{
    `cond != 0 ? on_true : on_false`, as `graph.select`. (Comparisons are
    `kernel.binary` kinds.)
  }];
  let arguments = (ins MirageTensor:$cond, MirageTensor:$on_true,
                       MirageTensor:$on_false);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$cond `,` $on_true `,` $on_false attr-dict `:` "
                       "functional-type(operands, results)";
}
// --- end select ---

def Kernel_ReduceOp : Kernel_Op<"reduce", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined reduction kernel (keeps the dimension, size 1)";
  let arguments = (ins ReduceKind:$kind, MirageTensor:$input, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$kind $input `,` `dim` `=` $dim attr-dict `:` "
                       "type($input) `->` type($result)";
}

def Kernel_RMSNormOp : Kernel_Op<"rms_norm", [SameOperandsAndResultType]> {
  let summary = "predefined RMS normalization kernel over the last dimension";
  let arguments = (ins MirageTensor:$input,
                       DefaultValuedAttr<F64Attr, "0.0">:$eps);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Kernel_SoftmaxOp : Kernel_Op<"softmax", [SameOperandsAndResultType]> {
  let summary = "predefined softmax kernel";
  let arguments = (ins MirageTensor:$input, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input `,` `dim` `=` $dim attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Kernel_TransposeOp : Kernel_Op<"transpose", [SameOperandsAndResultElementType,
                                                 InferTypeOpAdaptor]> {
  let summary = "predefined transpose kernel";
  let arguments = (ins MirageTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$input `,` `perm` `=` $perm attr-dict `:` type($input) `->` type($result)";
}

def Kernel_ReshapeOp : Kernel_Op<"reshape", [SameOperandsAndResultElementType]> {
  let summary = "reshape (a copy-free view of device memory)";
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kernel_BroadcastOp : Kernel_Op<"broadcast", [SameOperandsAndResultElementType]> {
  let summary = "predefined broadcast kernel";
  let arguments = (ins MirageTensor:$input);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kernel_RepeatOp : Kernel_Op<"repeat", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined repeat (tile) kernel";
  let arguments = (ins MirageTensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$input `,` `repeats` `=` $repeats attr-dict `:` "
                       "type($input) `->` type($result)";
}

def Kernel_ConcatOp : Kernel_Op<"concat", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined concatenation kernel";
  let arguments = (ins Variadic<MirageTensor>:$inputs, I64Attr:$dim);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "`(` $inputs `)` `dim` `=` $dim attr-dict `:` "
                       "functional-type($inputs, results)";
}

def Kernel_SplitOp : Kernel_Op<"split", [InferTypeOpAdaptor]> {
  let summary = "predefined split kernel";
  let arguments = (ins MirageTensor:$input, I64Attr:$dim,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<MirageTensor>:$results);
  let assemblyFormat = "$input `,` `dim` `=` $dim `,` `sizes` `=` $sizes "
                       "attr-dict `:` type($input) `->` type($results)";
}

def Kernel_Conv2DOp : Kernel_Op<"conv2d", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined 2-d convolution kernel (NCHW, OIHW)";
  let arguments = (ins MirageTensor:$input, MirageTensor:$weight,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs MirageTensor:$result);
  let assemblyFormat =
      "$input `,` $weight attr-dict `:` functional-type(operands, results)";
}

def Kernel_Pool2DOp : Kernel_Op<"pool2d", [SameOperandsAndResultElementType,
                                           InferTypeOpAdaptor]> {
  let summary = "predefined 2-d pooling kernel (NCHW)";
  let arguments = (ins PoolKind:$kind, MirageTensor:$input,
      DenseI64ArrayAttr:$kernel,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$kind $input `,` `kernel` `=` $kernel attr-dict `:` "
                       "type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Indexing kernels (issue 24): the graph ops of the same name
//===----------------------------------------------------------------------===//

def Kernel_GatherOp : Kernel_Op<"gather"> {
  let summary = "predefined gather kernel (graph.gather)";
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` `axis` `=` $axis attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_GatherElementsOp : Kernel_Op<"gather_elements"> {
  let summary = "predefined gather_elements kernel (graph.gather_elements)";
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` `axis` `=` $axis attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_ScatterElementsOp : Kernel_Op<"scatter_elements"> {
  let summary = "predefined scatter_elements kernel (graph.scatter_elements)";
  let arguments = (ins MirageTensor:$data, MirageIndexTensor:$indices,
                       MirageTensor:$updates, I64Attr:$axis,
                       ScatterReduction:$reduction);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates `,` `axis` `=` $axis "
                       "`,` `reduction` `=` $reduction attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Kernel_OneHotOp : Kernel_Op<"one_hot"> {
  let summary = "predefined one_hot kernel (graph.one_hot)";
  let arguments = (ins MirageIndexTensor:$indices);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$indices attr-dict `:` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

def Kernel_TopKOp : Kernel_Op<"topk"> {
  let summary = "predefined topk kernel (graph.topk)";
  let arguments = (ins MirageTensor:$input, I64Attr:$k, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs MirageTensor:$values, MirageIndexTensor:$indices);
  let assemblyFormat = "$input `,` `k` `=` $k `,` `dim` `=` $dim attr-dict `:` "
                       "type($input) `->` `(` type($values) `,` type($indices) `)`";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Graph-defined kernels
//===----------------------------------------------------------------------===//

def Kernel_GraphDefOp : Kernel_Op<"graph_def", [
    IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<Block_BlockGraphOpInterface>]> {
  let summary = "custom kernel whose body is a block graph";
  let description = [{
    One launch of a `grid` of thread blocks (1 to 3 dimensions: x, y, z),
    each running the block graph in its region with a for-loop of `forloop`
    iterations. The region's arguments stand for the kernel's operands; see
    the block dialect for the block graph's parts.

    ```mlir
    %y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
        : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
    ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
      ...
      block.yield %o : tensor<16x6144xf16>
    }
    ```
  }];
  let arguments = (ins Variadic<MirageTensor>:$inputs,
                       DenseI64ArrayAttr:$grid, I64Attr:$forloop);
  let results = (outs Variadic<MirageTensor>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`(` $inputs `)` `grid` `=` $grid `forloop` `=` "
                       "$forloop attr-dict `:` functional-type($inputs, "
                       "$outputs) $body";
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// Compiled kernels
//===----------------------------------------------------------------------===//

def Kernel_LaunchOp : Kernel_Op<"launch"> {
  let summary = "launch of a compiled GPU kernel";
  let description = [{
    One launch of the `gpu.func` named by `kernel` (made by
    `--block-to-gpu` from a graph-defined kernel) on a `grid` of blocks of
    `block` threads with `dynamic_shared_memory` bytes of shared memory.
    The kernel takes one buffer per operand and then one per result.

    ```mlir
    %y = kernel.launch @mirage_kernels::@f_0 (%X, %W) grid = [96, 1, 1]
        block = [128, 1, 1] dynamic_shared_memory = 33792
        : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
    ```
  }];
  let arguments = (ins Variadic<MirageTensor>:$inputs, SymbolRefAttr:$kernel,
                       DenseI64ArrayAttr:$grid, DenseI64ArrayAttr:$block,
                       I64Attr:$dynamic_shared_memory);
  let results = (outs Variadic<MirageTensor>:$outputs);
  let assemblyFormat = "$kernel `(` $inputs `)` `grid` `=` $grid `block` `=` "
                       "$block `dynamic_shared_memory` `=` "
                       "$dynamic_shared_memory attr-dict `:` "
                       "functional-type($inputs, $outputs)";
  let hasVerifier = 1;
}

#endif // MIRAGE_KERNEL_OPS_TD
