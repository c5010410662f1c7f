//===- BlockOps.td - block dialect operations ------------------*- tablegen -*-===//

#ifndef MIRAGE_BLOCK_OPS_TD
#define MIRAGE_BLOCK_OPS_TD

include "mirage/Dialect/Block/BlockBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Block_Op<string mnemonic, list<Trait> traits = []>
    : Op<Block_Dialect, mnemonic, !listconcat([Pure, Block_InBlockGraph], traits)>;

//===----------------------------------------------------------------------===//
// Input iterators, accumulators and output savers
//===----------------------------------------------------------------------===//

def Block_InputOp : Block_Op<"input"> {
  let summary = "input iterator: loads this block's tile of a device tensor";
  let description = [{
    Reads a device tensor that the enclosing graph-defined kernel takes. For
    each tensor dimension `d` the tile has size
    `shape[d] / grid[g] (if imap[g] = d) / forloop (if fmap = d)`; a dimension
    partitioned by both is split across blocks first, then across iterations.

    ```mlir
    %x = block.input %X imap = <x: replicate> fmap = <i: 1>
        : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    ```
  }];
  let arguments = (ins MirageTensor:$source, Block_GridMapAttr:$imap,
                       Block_LoopMapAttr:$fmap);
  let results = (outs Block_Tile:$tile);
  let assemblyFormat = "$source `imap` `=` $imap `fmap` `=` $fmap attr-dict "
                       "`:` qualified(type($source)) `->` qualified(type($tile))";
  let hasVerifier = 1;
}

def Block_AccumOp : Block_Op<"accum", [Block_LoopAccumulator]> {
  let summary = "for-loop accumulator";
  let description = [{
    Combines a tile computed in the for-loop body over all iterations: `sum`
    and `max` elementwise, `concat` along `dim` (in iteration order, so that
    dimension grows by the for-loop range). Its result is available after the
    loop. A `sum` or `max` accumulator of an f16 or bf16 tile may have an f32
    result: it accumulates in f32.

    Two composites reduce the tile along `dim` (to size 1) before they
    accumulate, so a row sum taken over the for-loop is one op:
    `red_sum` sums the tile's `dim` and the iterations; `red_rms` sums the
    squares likewise and, after the loop, gives their root mean square
    sqrt(sum / N), N the elements summed per row (the tile's `dim` times
    the for-loop range): an RMS norm's denominator.

    ```mlir
    %rms = block.accum red_rms %x, dim = 1 : !block.tile<8x256xf16> -> !block.tile<8x1xf32>
    ```
  }];
  let arguments = (ins Block_Tile:$input, Block_AccumKind:$kind,
                       OptionalAttr<I64Attr>:$dim);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$kind $input (`,` `dim` `=` $dim^)? attr-dict `:` "
                       "qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Block_SoftmaxAccumOp : Block_Op<"softmax_accum", [Block_LoopAccumulator]> {
  let summary = "online-softmax accumulator: softmax(S) V over the for-loop";
  let description = [{
    Attention's `softmax(S) V` with the softmax along the last dimension of
    `scores` (S, `[..., r, c]`) taken over all for-loop iterations together,
    the rows of `values` (V, `[..., c, d]`) weighted accordingly. It keeps,
    per row, a running maximum m, a rescaled sum l and a rescaled weighted
    sum a; each iteration i, with m_0 = -inf and l_0 = a_0 = 0:

    ```
    m_i = max(m_{i-1}, rowmax(S_i))
    P_i = exp(S_i - m_i)             (rounded to V's element type)
    l_i = exp(m_{i-1} - m_i) l_{i-1} + rowsum(P_i)
    a_i = exp(m_{i-1} - m_i) a_{i-1} + P_i V_i
    ```

    After the loop, `output` is a / l (`[..., r, d]`) and `stats` holds m
    and l (`[..., r, 2]`: element 0 the maximum, element 1 the sum), which
    is what a later kernel needs to combine partial results over a split of
    the keys (`block.softmax_merge`). No exp ever sees an argument above 0,
    so nothing overflows where the original softmax does not. Both results
    are f32.

    ```mlir
    %o, %ml = block.softmax_accum %s, %v
        : (!block.tile<1x64x128xf32>, !block.tile<1x128x64xf16>)
        -> (!block.tile<1x64x64xf32>, !block.tile<1x64x2xf32>)
    ```
  }];
  let arguments = (ins Block_Tile:$scores, Block_Tile:$values);
  let results = (outs Block_Tile:$output, Block_Tile:$stats);
  let assemblyFormat =
      "$scores `,` $values attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Block_OutputOp : Block_Op<"output"> {
  let summary = "output saver: writes each block's tile into a device tensor";
  let description = [{
    The device tensor is the concatenation of all blocks' tiles: grid
    dimension g with `omap[g] = d` multiplies output dimension d by grid[g].
    An f32 tile may be saved into an f16 or bf16 tensor: each element is
    rounded to the tensor's type as it is stored.

    ```mlir
    %o = block.output %y omap = <x: 1>
        : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    ```
  }];
  let arguments = (ins Block_Tile:$tile, Block_GridMapAttr:$omap);
  let results = (outs MirageTensor:$result);
  let assemblyFormat = "$tile `omap` `=` $omap attr-dict `:` qualified(type($tile)) `->` "
                       "qualified(type($result))";
  let hasVerifier = 1;
}

def Block_YieldOp : Block_Op<"yield", [Terminator, ReturnLike]> {
  let summary = "terminates a block graph with the saved device tensors";
  let arguments = (ins Variadic<MirageTensor>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` qualified(type($results)))?";
}

//===----------------------------------------------------------------------===//
// Shared-memory ops
//===----------------------------------------------------------------------===//

def Block_MatmulOp : Block_Op<"matmul", [AllElementTypesMatch<["lhs", "rhs"]>,
                                         InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "tile matrix product";
  let description = [{
    The result has the operands' element type, or f32 for f16 and bf16
    operands: the product accumulated in f32 (the tensor cores' own form)
    and kept at that precision, so that a partial or intermediate sum does
    not overflow or lose the digits the operands' type would.
  }];
  let arguments = (ins Block_Tile:$lhs, Block_Tile:$rhs);
  let results = (outs Block_Tile:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Block_UnaryOp : Block_Op<"unary", [SameOperandsAndResultShape]> {
  let summary = "elementwise unary op on a tile";
  let description = [{
    The result has the input's type, or f32 elements for an f16 or bf16
    input: the narrow input is widened and the op computed and stored in
    f32, so a value the original program never rounds to f16 (the squares
    of an RMS norm, an exp before its sum) is not held in a type that
    overflows. The widened form prints its result type:
    `block.unary square %x : !block.tile<8x4096xf16> -> !block.tile<8x4096xf32>`.
  }];
  let arguments = (ins UnaryKind:$kind, Block_Tile:$input,
                       OptionalAttr<DenseF64ArrayAttr>:$params);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$kind $input (`params` `=` custom<UnaryParams>($params)^)? attr-dict `:` "
                       "custom<UnaryTypes>(type($input), type($result))";
  let builders = [
    OpBuilder<(ins "UnaryKind":$kind, "::mlir::Value":$input,
                   "::mlir::DenseF64ArrayAttr":$params), [{
      build($_builder, $_state, input.getType(), kind, input, params);
    }]>
  ];
  let hasVerifier = 1;
}

def Block_BinaryOp : Block_Op<"binary", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "elementwise binary op on tiles, NumPy broadcasting";
  let description = [{
    Operands have one element type, or one is f16 or bf16 and the other f32
    (an accumulated sum, see `block.matmul`): the narrow operand is widened
    and the result is f32. Two f16 or bf16 operands may also give an f32
    result, computed and stored in f32 (a value the original program never
    rounds to the narrow type).
  }];
  let arguments = (ins BinaryKind:$kind, Block_Tile:$lhs, Block_Tile:$rhs);
  let results = (outs Block_Tile:$result);
  let assemblyFormat =
      "$kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Block_ReduceOp : Block_Op<"reduce", [InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "reduces one tile dimension to size 1";
  let description = [{
    The result has the input's element type, or f32 for an f16 or bf16
    input (the reduction kept in f32, as for `block.matmul`).
  }];
  let arguments = (ins ReduceKind:$kind, Block_Tile:$input, I64Attr:$dim);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$kind $input `,` `dim` `=` $dim attr-dict `:` "
                       "qualified(type($input)) `->` qualified(type($result))";
}

def Block_SoftmaxMergeOp : Block_Op<"softmax_merge"> {
  let summary = "combines partial softmax(S) V results along a dimension";
  let description = [{
    `partials` holds, along dimension `dim`, n results of
    `block.softmax_accum` over disjoint parts of the keys (`[..., n, ...,
    r, d]`), and `stats` their maxima and sums (`[..., n, ..., r, 2]`).
    With M the largest of the n maxima and w_j = exp(m_j - M) l_j, the
    result (dimension `dim` of size 1, f32) is

    ```
    sum_j w_j partial_j / sum_j w_j
    ```

    the softmax over all the keys: FlashDecoding's combination.

    ```mlir
    %o = block.softmax_merge %p, %ml, dim = 0
        : (!block.tile<4x1x16x64xf32>, !block.tile<4x1x16x2xf32>)
        -> !block.tile<1x1x16x64xf32>
    ```
  }];
  let arguments = (ins Block_Tile:$partials, Block_Tile:$stats, I64Attr:$dim);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$partials `,` $stats `,` `dim` `=` $dim attr-dict `:` "
                       "functional-type(operands, results)";
  let hasVerifier = 1;
}

def Block_RMSNormOp : Block_Op<"rms_norm", [SameOperandsAndResultShape]> {
  let summary = "RMS normalization of a tile along one dimension";
  let description = [{
    x / sqrt(mean(x^2 along `dim`) + eps), the mean over the tile's whole
    `dim` (the tile holds whole rows; `eps` is 0 unless given). The sum of
    squares is kept in f32 without its overflow or underflow: the kernel
    sums the squares of the row scaled by the power of two at its largest
    magnitude (exact), so a row whose squares leave f32's range (an RMS
    above 1.8e19 or below 1e-19) is normalized as in exact arithmetic. The
    result has the input's type, or f32 for an f16 or bf16 input (as for
    `block.unary`).

    ```mlir
    %n = block.rms_norm %x, dim = 1 : !block.tile<1x4096xf16> -> !block.tile<1x4096xf32>
    ```
  }];
  let arguments = (ins Block_Tile:$input, I64Attr:$dim,
                       DefaultValuedAttr<F64Attr, "0.0">:$eps);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$input `,` `dim` `=` $dim attr-dict `:` "
                       "qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Block_ReshapeOp : Block_Op<"reshape", [SameOperandsAndResultElementType]> {
  let summary = "row-major reshape of a tile";
  let description = [{
    The same elements in row-major order, with another shape (a copy in
    shared memory). The µGraph search uses it to give a partial result a
    leading dimension for the part it covers, so that a grid dimension
    can place the parts side by side in device memory, and to drop that
    dimension again once the parts are combined.

    ```mlir
    %p = block.reshape %o : !block.tile<1x32x64xf32> -> !block.tile<1x1x32x64xf32>
    ```
  }];
  let arguments = (ins Block_Tile:$input);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` "
                       "qualified(type($result))";
  let hasVerifier = 1;
}

def Block_ConcatOp : Block_Op<"concat", [SameOperandsAndResultElementType,
                                         InferTypeOpAdaptor]> {
  let summary = "concatenates tiles along one dimension";
  let arguments = (ins Variadic<Block_Tile>:$inputs, I64Attr:$dim);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "`(` $inputs `)` `dim` `=` $dim attr-dict `:` "
                       "functional-type($inputs, results)";
}

def Block_SliceOp : Block_Op<"slice", [SameOperandsAndResultElementType]> {
  let summary = "the box of a tile at static offsets (a piece of a split)";
  let description = [{
    `result[i] = input[i + offsets]` for every index `i` of a result of
    shape `sizes`; the box lies within the input. The default block graph of
    `kernel.split` reads whole rows along the split dimension and slices out
    one piece per kernel.

    ```mlir
    %p = block.slice %t, offsets = [0, 64], sizes = [8, 32]
        : !block.tile<8x128xf16> -> !block.tile<8x32xf16>
    ```
  }];
  let arguments = (ins Block_Tile:$input, DenseI64ArrayAttr:$offsets,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Block_Tile:$result);
  let assemblyFormat = "$input `,` `offsets` `=` $offsets `,` `sizes` `=` $sizes "
                       "attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

#endif // MIRAGE_BLOCK_OPS_TD
