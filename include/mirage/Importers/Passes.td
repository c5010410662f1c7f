//===- Passes.td - importers from upstream MLIR dialects -------*- tablegen -*-===//
//
// The front doors: passes that bring tensor programs written in upstream
// dialects (TOSA, linalg on tensors, as torch-mlir and IREE emit them) to the
// graph dialect. docs/Importers.md describes what each accepts.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORTERS_PASSES_TD
#define MIRAGE_IMPORTERS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TosaToGraph : Pass<"tosa-to-graph", "::mlir::ModuleOp"> {
  let summary = "Imports TOSA programs into the graph dialect";
  let description = [{
    Rewrites every TOSA op of every function into graph ops, with the
    dialect conversion framework (graph legal, TOSA illegal). Before
    anything is rewritten, every TOSA op is checked; each one that has no
    exact graph form gets an error at its location naming the op and why
    (`tosa.conv2d: asymmetric padding [1, 2, 1, 1] has no graph.conv2d
    form`), and the pass fails. Ops of other dialects are left alone.

    - `tosa.matmul` (zero points 0) becomes `graph.matmul` (batched).
    - `tosa.conv2d` and `tosa.depthwise_conv2d` (NHWC input, OHWI and HWCM
      weights) become `graph.transpose` to NCHW and OIHW (depthwise: a
      reshape to `groups` = C), `graph.conv2d`, a transpose back to NHWC
      and the bias as a broadcast `graph.add` (a splat bias as
      `graph.scalar_add`, a zero bias not at all). Padding must be
      symmetric; a `tosa.pad` with zeros on H and W in front is folded in.
    - `tosa.max_pool2d` likewise (symmetric padding); `tosa.avg_pool2d`
      only without padding of its own, since TOSA leaves padding out of the
      average and `graph.avg_pool2d` counts it as zeros; a zero `tosa.pad`
      in front (torch-mlir's `count_include_pad`) is folded in.
    - `add`, `sub`, `mul` (shift 0) broadcast like `graph.add`; a splat
      constant operand becomes `graph.scalar_add` / `graph.scalar_mul`.
      `maximum` / `minimum` with a splat constant become `relu` or
      `clamp`, `clamp` becomes `clamp` or `relu`, `pow` with a splat
      exponent `graph.pow`; `reciprocal` is `pow -1`, `rsqrt` `pow -0.5`,
      `negate` `scalar_mul -1`; `exp`, `tanh`, `sigmoid` map one to one;
      `erf` only inside `0.5 * x * (1 + erf(x * 0.7071...))`, which
      becomes `graph.gelu`.
    - `reduce_sum`, `reduce_max`, `transpose`, `reshape`, `concat`, `tile`
      (`graph.repeat`), and `slice`s that together cut one dimension of a
      tensor into pieces (`graph.split`); `identity` and a `cast` to the
      same type vanish.

    Constants: splat operands are folded into the scalar forms above; every
    other `tosa.const` a graph op uses as a tensor becomes a new trailing
    argument of its function, with the attribute `mirage.lifted_constant`
    holding the original value (`lift-constants=true`, the default; with
    `false` it is an error). Calls inside the module pass the new
    arguments along. Tensors must be statically shaped f16, bf16 or f32.

    ```mlir
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %y = tosa.matmul %a, %b, %z, %z : (tensor<1x8x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
    // becomes
    %y = graph.matmul %a, %b : (tensor<1x8x64xf32>, tensor<1x64x32xf32>) -> tensor<1x8x32xf32>
    ```
  }];
  let options = [
    Option<"liftConstants", "lift-constants", "bool", "true",
           "Turn constant tensors into function arguments carrying "
           "`mirage.lifted_constant` (false: report them as errors)">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect",
                           "::mlir::func::FuncDialect"];
}

def LinalgToGraph : Pass<"linalg-to-graph", "::mlir::ModuleOp"> {
  let summary = "Imports linalg-on-tensors programs into the graph dialect";
  let description = [{
    Rewrites linalg, tensor, arith and math ops on tensors, as torch-mlir
    and IREE emit them, into graph ops, with the dialect conversion
    framework. As in `tosa-to-graph`, every op is checked first and each
    one without an exact graph form gets an error at its location that
    names it and says why (for a `linalg.generic`, what in its body or
    indexing maps was not recognized), and the pass fails.

    - `linalg.matmul`, `linalg.batch_matmul` (default or transposing
      indexing maps): `graph.matmul`; an init that is not a fill of 0 is
      added.
    - `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nchw_fchw`: `graph.conv2d`
      (with transposes for NHWC/HWCF); a `tensor.pad` of zeros that is
      symmetric on H and W in front is folded into the padding; an init
      that is not a fill of 0 (torch-mlir's broadcast bias) is added.
    - `linalg.pooling_{nchw,nhwc}_{max,sum}`: `graph.max_pool2d`, and
      `graph.avg_pool2d` times the window size for sums; a symmetric
      `tensor.pad` (-inf for max, 0 for sum) in front is folded in.
    - `linalg.generic` and the named elementwise ops, recognized by body
      and indexing maps: elementwise bodies of `arith.addf/subf/mulf/divf/
      negf/maximumf/minimumf` with constants (`x / c` as `x * (1 / c)`),
      `math.exp/tanh/sqrt/rsqrt/powf`, relu as `select(x > 0, x, 0)`,
      sigmoid `1 / (1 + exp(-x))`, SiLU, and `math.erf` in the exact GELU
      form, on inputs with projected permutation maps (broadcasts and
      transposes) become chains of graph ops; bodies that only yield an
      input are `graph.transpose` or `graph.broadcast`; reductions (any
      number of reduction loops) yielding `arith.addf` or `arith.maximumf`
      of an elementwise value and the running value, initialized by a fill
      of 0 or -inf, become `graph.reduce_sum` / `reduce_max` (and
      `graph.reshape` when the output drops the reduced dimension).
    - `linalg.transpose`, `linalg.broadcast`, `linalg.softmax`,
      `tensor.expand_shape` / `collapse_shape` (`graph.reshape`),
      `tensor.concat`; `tensor.empty` and `linalg.fill` as inits.

    Constants (`arith.constant` tensors and fills used as data) follow the
    same lifting policy as `tosa-to-graph` (`lift-constants`). Tensors must
    be statically shaped f16, bf16 or f32.

    ```mlir
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %y = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    // becomes
    %y = graph.matmul %a, %b : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    ```
  }];
  let options = [
    Option<"liftConstants", "lift-constants", "bool", "true",
           "Turn constant tensors into function arguments carrying "
           "`mirage.lifted_constant` (false: report them as errors)">,
  ];
  let dependentDialects = ["::mirage::graph::GraphDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // MIRAGE_IMPORTERS_PASSES_TD
