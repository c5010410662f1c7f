//===- BlockInterfaces.td - block-graph interface --------------*- tablegen -*-===//

#ifndef MIRAGE_BLOCK_INTERFACES_TD
#define MIRAGE_BLOCK_INTERFACES_TD

include "mlir/IR/OpBase.td"


def Block_BlockGraphOpInterface : OpInterface<"BlockGraphOpInterface"> {
  let cppNamespace = "::mirage::block";
  let description = [{
    An op whose single-block region is a block graph: it fixes the grid and
    the for-loop range, and its region's arguments are the device tensors the
    input iterators read. Verifying it checks the block graph's structure
    (the four parts in order, values crossing the loop only through
    accumulators, savers feeding the terminator).
  }];
  let methods = [
    InterfaceMethod<"Grid dimensions (1 to 3 entries: x, y, z).",
                    "::llvm::ArrayRef<int64_t>", "getGridDims">,
    InterfaceMethod<"Number of for-loop iterations.", "int64_t",
                    "getForloopRange">,
    InterfaceMethod<"The block graph.", "::mlir::Block &", "getBlockGraph">,
  ];
  let verify = [{ return ::mirage::block::verifyBlockGraph($_op); }];
  let verifyWithRegions = 1;
}

#endif // MIRAGE_BLOCK_INTERFACES_TD
