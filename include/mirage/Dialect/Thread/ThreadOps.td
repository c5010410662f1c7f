//===- ThreadOps.td - thread dialect ---------------------------*- tablegen -*-===//

#ifndef MIRAGE_THREAD_OPS_TD
#define MIRAGE_THREAD_OPS_TD

include "mirage/Dialect/Block/BlockBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Thread_Dialect : Dialect {
  let name = "thread";
  let cppNamespace = "::mirage::thread";
  let summary = "Per-thread elementwise chains in registers";
  let description = [{
    A `thread.fused` op sits in a block graph and computes a chain of
    elementwise ops element by element in registers, reading its input tiles
    once and writing its result tiles once, instead of one shared-memory round
    trip per op. Its body describes one element: scalar ops on the elements of
    the (broadcast) input tiles.
  }];
  let dependentDialects = ["::mirage::block::BlockDialect"];
}

class Thread_Op<string mnemonic, list<Trait> traits = []>
    : Op<Thread_Dialect, mnemonic, !listconcat([Pure], traits)>;

def Thread_FusedOp : Thread_Op<"fused", [Block_InBlockGraph, IsolatedFromAbove,
                                         SingleBlock]> {
  let summary = "fused elementwise chain over tiles, computed in registers";
  let description = [{
    Input tiles broadcast like NumPy to the common result shape; the body
    receives one element of each input and yields one element of each result.

    ```mlir
    %r = thread.fused (%a, %b) : (!block.tile<16x64xf16>, !block.tile<16x1xf16>)
        -> !block.tile<16x64xf16> {
    ^bb0(%x: f16, %y: f16):
      %q = thread.binary div %x, %y : f16
      %s = thread.unary silu %q : f16
      thread.yield %s : f16
    }
    ```
  }];
  let arguments = (ins Variadic<Block_Tile>:$inputs);
  let results = (outs Variadic<Block_Tile>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`(` $inputs `)` attr-dict `:` "
                       "functional-type($inputs, $results) $body";
  let hasRegionVerifier = 1;
}

def Thread_UnaryOp : Thread_Op<"unary", [HasParent<"FusedOp">,
                                         SameOperandsAndResultType]> {
  let summary = "elementwise unary op on one element";
  let arguments = (ins UnaryKind:$kind, MirageFloat:$input,
                       OptionalAttr<DenseF64ArrayAttr>:$params);
  let results = (outs MirageFloat:$result);
  let assemblyFormat = "$kind $input (`params` `=` custom<UnaryParams>($params)^)? attr-dict `:` "
                       "qualified(type($input))";
  let hasVerifier = 1;
}

def Thread_BinaryOp : Thread_Op<"binary", [HasParent<"FusedOp">,
                                           SameOperandsAndResultType]> {
  let summary = "elementwise binary op on one element of each operand";
  let arguments = (ins BinaryKind:$kind, MirageFloat:$lhs, MirageFloat:$rhs);
  let results = (outs MirageFloat:$result);
  let assemblyFormat = "$kind $lhs `,` $rhs attr-dict `:` qualified(type($result))";
}

// --- select (selectop) ---
def Thread_SelectOp : Thread_Op<"select", [HasParent<"FusedOp">,
                                           SameOperandsAndResultType]> {
  let summary = "cond != 0 ? on_true : on_false on one element";
  let description = [{
    The one ternary thread op: a block graph computes `kernel.select`
    as a `thread.fused` chain holding it (comparisons are `thread.binary`
    kinds).
  }];
  let arguments = (ins MirageFloat:$cond, MirageFloat:$on_true,
                       MirageFloat:$on_false);
  let results = (outs MirageFloat:$result);
  let assemblyFormat = "$cond `,` $on_true `,` $on_false attr-dict `:` "
                       "qualified(type($result))";
}
// --- end select ---

def Thread_YieldOp : Thread_Op<"yield", [HasParent<"FusedOp">, Terminator,
                                         ReturnLike]> {
  let summary = "yields one element of each result tile";
  let arguments = (ins Variadic<MirageFloat>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` qualified(type($results)))?";
}

#endif // MIRAGE_THREAD_OPS_TD
