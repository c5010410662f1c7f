//===- Passes.td - mirage-opt lowering and import passes -------*- tablegen -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_TD
#define MIRAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphToKernel : Pass<"graph-to-kernel"> {
  let summary = "Default schedule: each graph op becomes one predefined kernel";
  let description = [{
    Rewrites every `graph` op into the matching predefined `kernel` op, one
    kernel launch per op. This is the baseline schedule that the µGraph search
    improves on; it changes no values, only the level.

    ```mlir
    %y = graph.exp %x : tensor<8x64xf16>
    // becomes
    %y = kernel.unary exp %x : tensor<8x64xf16>
    ```
  }];
  let dependentDialects = ["::mirage::kernel::KernelDialect"];
}

#endif // MIRAGE_TRANSFORMS_PASSES_TD
