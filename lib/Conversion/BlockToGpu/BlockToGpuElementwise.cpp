//===- BlockToGpuElementwise.cpp - block-to-gpu: elementwise ops, concat, slice, reshape ===//
//
// Part of the block-to-gpu code generator (BlockToGpuEmitter.h); the pass,
// the memory plan and the kernel's skeleton are in BlockToGpu.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockToGpuEmitter.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;

void KernelEmitter::emitElementwise(Operation *inner) {
  SmallVector<Value> reads(inner->getOperands());
  SmallVector<Value> writes(inner->getResults());
  access(reads, writes);
  ArrayRef<int64_t> shape =
      cast<ShapedType>(inner->getResult(0).getType()).getShape();
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> coords = delinearize(linear, shape);
    SmallVector<Value> in;
    for (Value operand : inner->getOperands())
      in.push_back(loadBroadcast(operand, coords));
    SmallVector<Value> results;
    if (auto u = dyn_cast<block::UnaryOp>(inner)) {
      results.push_back(buildScalarUnary(
          b, loc, u.getKind(), u.getParams().value_or(ArrayRef<double>()),
          in[0]));
    } else if (auto bin = dyn_cast<block::BinaryOp>(inner)) {
      results.push_back(buildScalarBinary(b, loc, bin.getKind(), in[0], in[1]));
    } else {
      // thread.fused, lowered by --thread-to-arith: its scalar body, once
      // per element; arguments and results in the tiles' element types.
      auto fused = cast<thread::FusedOp>(inner);
      Block &chain = fused.getBody().front();
      IRMapping map;
      for (auto [arg, v] : llvm::zip(chain.getArguments(), in))
        map.map(arg, fromF32(v, arg.getType()));
      for (Operation &op : chain.without_terminator())
        b.clone(op, map);
      for (Value v : chain.getTerminator()->getOperands())
        results.push_back(toF32(map.lookup(v)));
    }
    for (auto [result, v] : llvm::zip(inner->getResults(), results))
      memref::StoreOp::create(b, loc, fromF32(v, storageType(result)),
                              views.lookup(result), coords);
  });
}


void KernelEmitter::emitConcat(block::ConcatOp cat) {
  SmallVector<Value> reads(cat.getInputs());
  access(reads, {cat.getResult()});
  int64_t dim = cat.getDim(), start = 0;
  for (Value part : cat.getInputs()) {
    ArrayRef<int64_t> shape = cast<ShapedType>(part.getType()).getShape();
    forEachElement(product(shape), [&](Value linear) {
      SmallVector<Value> coords = delinearize(linear, shape);
      Value v = memref::LoadOp::create(b, loc, views.lookup(part), coords);
      coords[dim] = arith::AddIOp::create(b, loc, coords[dim], idx(start));
      memref::StoreOp::create(b, loc, v, views.lookup(cat.getResult()), coords);
    });
    start += shape[dim];
  }
}

void KernelEmitter::emitSlice(block::SliceOp slice) {
  access({slice.getInput()}, {slice.getResult()});
  ArrayRef<int64_t> shape = slice.getSizes(), offsets = slice.getOffsets();
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> coords = delinearize(linear, shape);
    SmallVector<Value> from(coords);
    for (auto [d, o] : llvm::enumerate(offsets))
      if (o)
        from[d] = arith::AddIOp::create(b, loc, coords[d], idx(o));
    Value v = memref::LoadOp::create(b, loc, views.lookup(slice.getInput()), from);
    memref::StoreOp::create(b, loc, v, views.lookup(slice.getResult()), coords);
  });
}

void KernelEmitter::emitReshape(block::ReshapeOp reshape) {
  access({reshape.getInput()}, {reshape.getResult()});
  ArrayRef<int64_t> from = reshape.getInput().getType().getShape();
  ArrayRef<int64_t> to = reshape.getType().getShape();
  forEachElement(product(to), [&](Value linear) {
    Value v = memref::LoadOp::create(b, loc, views.lookup(reshape.getInput()),
                                     delinearize(linear, from));
    memref::StoreOp::create(b, loc, v, views.lookup(reshape.getResult()),
                            delinearize(linear, to));
  });
}
