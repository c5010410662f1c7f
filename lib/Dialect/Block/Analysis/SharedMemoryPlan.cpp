//===- SharedMemoryPlan.cpp - where a block graph's tiles live ------------===//

#include "mirage/Dialect/Block/Analysis/SharedMemoryPlan.h"
#include "mirage/Dialect/Block/BlockDialect.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstdint>

using namespace mlir;
using namespace mirage;
using namespace mirage::block;

Type block::tileStorageType(Value tile) {
  if (auto acc = tile.getDefiningOp<AccumOp>();
      acc && acc.getKind() != AccumKind::concat)
    return Float32Type::get(tile.getContext());
  return cast<ShapedType>(tile.getType()).getElementType();
}

bool block::runsOnTensorCores(Type lhs, Type rhs, int64_t rank,
                              bool chipHasF16Mma) {
  return chipHasF16Mma && lhs.isF16() && rhs.isF16() && rank <= 3;
}

bool block::runsOnTensorCores(MatmulOp matmul, bool chipHasF16Mma) {
  return runsOnTensorCores(tileStorageType(matmul.getLhs()),
                           tileStorageType(matmul.getRhs()),
                           cast<ShapedType>(matmul.getType()).getRank(),
                           chipHasF16Mma);
}

// Sizes saturate at INT64_MAX instead of wrapping: the cost model and
// kernel-to-block plan tiles whose size nothing has bounded yet, and an
// impossible plan must stay impossible.
static int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t aligned16(int64_t n) {
  return n > INT64_MAX - 15 ? INT64_MAX : int64_t(llvm::alignTo(n, 16));
}

static int64_t elementCount(Type type) {
  int64_t n = 1;
  for (int64_t d : cast<ShapedType>(type).getShape())
    n = saturatingMul(n, d);
  return n;
}

static int64_t storageBytes(Type element) {
  return llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

SharedMemoryPlan block::planSharedMemory(Block &graph, bool chipHasF16Mma) {
  SharedMemoryPlan plan;
  bool afterLoop = false;
  for (Operation &inner : graph.without_terminator()) {
    if (auto saver = dyn_cast<OutputOp>(inner)) {
      plan.savers.push_back(saver);
    } else if (isLoopAccumulator(&inner)) {
      afterLoop = true;
      if (auto acc = dyn_cast<AccumOp>(inner))
        plan.accums.push_back(acc);
      else
        plan.softmaxAccums.push_back(cast<SoftmaxAccumOp>(inner));
    } else if (!afterLoop) {
      plan.loopBody.push_back(&inner);
    } else {
      plan.postLoop.push_back(&inner);
    }
  }
  for (Operation *inner : plan.loopBody) {
    auto mm = dyn_cast<MatmulOp>(inner);
    if (!mm || !runsOnTensorCores(mm, chipHasF16Mma) || !mm->hasOneUse())
      continue;
    auto acc = dyn_cast<AccumOp>(*mm->user_begin());
    if (acc && acc.getKind() == AccumKind::sum)
      plan.registerMatmuls.insert({mm, acc});
  }

  // Operand tiles of tensor-core matmuls: rows of 2k 16-byte units put
  // rows r and r + 8 / gcd in the same banks; 16 bytes more per row make
  // the pitch an odd number of units, and any eight consecutive rows then
  // take distinct 16-byte bank groups.
  graph.walk([&](MatmulOp mm) {
    if (!runsOnTensorCores(mm, chipHasF16Mma))
      return;
    for (Value operand : {mm.getLhs(), mm.getRhs()}) {
      int64_t cols = cast<ShapedType>(operand.getType()).getShape().back();
      int64_t rowBytes = saturatingMul(cols, 2);
      if (rowBytes % 16 == 0 && (rowBytes / 16) % 2 == 0)
        plan.rowPitch[operand] = cols + 8;
    }
  });
  // Accumulators live throughout; loop-body tiles die with the loop, so the
  // post-loop tiles reuse their space.
  auto bytesOf = [&](Value tile) {
    int64_t elements = elementCount(tile.getType());
    if (auto it = plan.rowPitch.find(tile); it != plan.rowPitch.end()) {
      int64_t cols = cast<ShapedType>(tile.getType()).getShape().back();
      elements = saturatingMul(elements / std::max<int64_t>(cols, 1),
                               it->second);
    }
    return aligned16(
        saturatingMul(elements, storageBytes(tileStorageType(tile))));
  };
  int64_t persistent = 0;
  for (AccumOp acc : plan.accums) {
    plan.offsets[acc.getResult()] = persistent;
    persistent = saturatingAdd(persistent, bytesOf(acc.getResult()));
  }
  for (SoftmaxAccumOp sm : plan.softmaxAccums)
    for (Value result : sm->getResults()) {
      plan.offsets[result] = persistent;
      persistent = saturatingAdd(persistent, bytesOf(result));
    }
  auto place = [&](ArrayRef<Operation *> ops) {
    int64_t end = persistent;
    for (Operation *inner : ops) {
      if (plan.registerMatmuls.count(inner))
        continue;
      for (Value result : inner->getResults()) {
        plan.offsets[result] = end;
        end = saturatingAdd(end, bytesOf(result));
      }
    }
    return end;
  };
  int64_t loopEnd = place(plan.loopBody);
  for (SoftmaxAccumOp sm : plan.softmaxAccums) {
    auto scores = cast<ShapedType>(sm.getScores().getType());
    int64_t p = loopEnd;
    loopEnd = saturatingAdd(
        loopEnd, aligned16(saturatingMul(
                     elementCount(scores),
                     storageBytes(tileStorageType(sm.getValues())))));
    int64_t alpha = loopEnd;
    int64_t rows = elementCount(scores) / std::max<int64_t>(
                                              scores.getShape().back(), 1);
    loopEnd = saturatingAdd(loopEnd, aligned16(saturatingMul(rows, 4)));
    plan.softmaxScratch[sm] = {p, alpha};
  }
  plan.persistentBytes = persistent;
  plan.bytes = std::max(loopEnd, place(plan.postLoop));
  return plan;
}
