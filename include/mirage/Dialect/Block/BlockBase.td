//===- BlockBase.td - block dialect, types, attributes ---------*- tablegen -*-===//

#ifndef MIRAGE_BLOCK_BASE_TD
#define MIRAGE_BLOCK_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mirage/Dialect/Graph/GraphBase.td"
include "mirage/Dialect/Block/BlockEnums.td"
include "mirage/Dialect/Block/BlockInterfaces.td"

def Block_Dialect : Dialect {
  let name = "block";
  let cppNamespace = "::mirage::block";
  let summary = "What one thread block computes, on tiles in shared memory";
  let description = [{
    A block graph is the body of a graph-defined kernel (`kernel.graph_def`).
    Every block of the kernel's grid runs it; its for-loop runs
    `forloop` iterations. The graph is written in four consecutive parts:

    1. the for-loop body: input iterators (`block.input`), which load a new
       tile of a device tensor each iteration, and shared-memory ops on them;
    2. for-loop accumulators (`block.accum`), which combine a body tile over
       all iterations;
    3. post-loop ops, which run once per block on accumulated tiles;
    4. output savers (`block.output`), which write tiles into device tensors,
       followed by `block.yield`.

    `imap` maps each grid dimension (x, y, z) to the tensor dimension it
    partitions, or to `replicate`; `fmap` maps the loop index `i` likewise;
    `omap` maps each grid dimension to the output dimension along which the
    blocks' tiles are concatenated.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

def Block_TileType : TypeDef<Block_Dialect, "Tile", [ShapedTypeInterface]> {
  let mnemonic = "tile";
  let summary = "a statically shaped tile in shared memory";
  let description = [{
    `!block.tile<16x64xf16>`: a tile of f16, bf16 or f32 elements held in
    shared memory by one thread block.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    TileType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                       ::mlir::Type elementType) const {
      return TileType::get(shape.value_or(getShape()), elementType);
    }
    int64_t getNumElements() const {
      int64_t n = 1;
      for (int64_t d : getShape())
        n *= d;
      return n;
    }
  }];
}

// Ops that may only appear directly in a block graph.
def Block_InBlockGraph : NativeOpTrait<"InBlockGraph"> {
  let cppNamespace = "::mirage::block::OpTrait";
}

// For-loop accumulators: their operands are tiles of the loop body, their
// results tiles after the loop (block.accum, block.softmax_accum).
def Block_LoopAccumulator : NativeOpTrait<"LoopAccumulator"> {
  let cppNamespace = "::mirage::block::OpTrait";
}

def Block_Tile : Type<CPred<"::llvm::isa<::mirage::block::TileType>($_self)">,
                      "shared-memory tile", "::mirage::block::TileType">;

//===----------------------------------------------------------------------===//
// Maps
//===----------------------------------------------------------------------===//

def Block_GridMapAttr : AttrDef<Block_Dialect, "GridMap"> {
  let mnemonic = "grid_map";
  let summary = "maps each grid dimension to a tensor dimension or replicate";
  let description = [{
    `<x: 1, y: replicate>` has one entry per grid dimension, in the order
    x, y, z. As an `imap`, grid dimension x partitions tensor dimension 1
    into equal parts, one per block index, and every block along y sees the
    whole tensor along its dimensions. As an `omap`, it names the output
    dimension along which the tiles of blocks along that grid dimension are
    concatenated; `replicate` is only legal there for grid dimensions of size 1.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$dims);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Entry value meaning "replicate".
    static constexpr int64_t kReplicate = -1;
    bool isReplicate(unsigned gridDim) const {
      return getDims()[gridDim] == kReplicate;
    }
  }];
}

def Block_LoopMapAttr : AttrDef<Block_Dialect, "LoopMap"> {
  let mnemonic = "loop_map";
  let summary = "maps the for-loop index to a tensor dimension or replicate";
  let description = [{
    `<i: 0>`: iteration i loads part i of dimension 0 of the block's share of
    the tensor; `<i: replicate>`: every iteration loads the same tile.
  }];
  let parameters = (ins "int64_t":$dim);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static constexpr int64_t kReplicate = -1;
    bool isReplicate() const { return getDim() == kReplicate; }
  }];
}

#endif // MIRAGE_BLOCK_BASE_TD
