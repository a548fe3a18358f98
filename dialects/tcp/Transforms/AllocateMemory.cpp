// tcp-allocate-memory: per-slice DM offsets for every DM tensor, first-fit over live ranges.
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <map>

namespace rngd::tcp {
#define GEN_PASS_DEF_TCPALLOCATEMEMORY
#include "dialects/tcp/Transforms/Passes.h.inc"
} // namespace rngd::tcp

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

namespace {

struct Allocation {
  Operation *def;
  int64_t offset;
  int64_t bytes;
  int64_t lastUse;
};

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

LogicalResult allocateFunction(func::FuncOp func) {
  const TargetModel &t = defaultTarget();
  Block &block = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> order;
  int64_t index = 0;
  for (Operation &op : block)
    order[&op] = index++;

  std::vector<Allocation> live; // sorted by offset
  for (Operation &op : block) {
    int64_t now = order[&op];
    // Tensors whose last use came before this op are dead.
    llvm::erase_if(live, [&](const Allocation &a) { return a.lastUse < now; });
    for (Value result : op.getResults()) {
      auto type = dyn_cast<DmType>(result.getType());
      if (!type)
        continue;
      auto layout = resolveDm(&op, type);
      if (!layout)
        return failure();
      int64_t bytes = alignUp(layout->bytesPerSlice(), t.dmAllocationAlignment);
      int64_t lastUse = now;
      for (Operation *user : result.getUsers())
        lastUse = std::max(lastUse, order.lookup(block.findAncestorOpInBlock(*user)));
      int64_t offset = 0;
      for (const Allocation &a : live) {
        if (offset + bytes <= a.offset)
          break;
        offset = std::max(offset, a.offset + a.bytes);
      }
      if (offset + bytes > t.dmBytesPerSlice) {
        auto diag = op.emitOpError("DM capacity: no room for ")
                    << bytes << " bytes per slice; a slice has " << t.dmBytesPerSlice
                    << " bytes and these tensors are live here:";
        for (const Allocation &a : live)
          diag.attachNote(a.def->getLoc())
              << a.bytes << " bytes at offset " << a.offset;
        return diag;
      }
      live.push_back({&op, offset, bytes, lastUse});
      llvm::sort(live, [](const Allocation &a, const Allocation &b) { return a.offset < b.offset; });
      op.setAttr("tcp.dm_offset", Builder(&op).getI64IntegerAttr(offset));
    }
  }
  return success();
}

struct AllocateMemoryPass : public rngd::tcp::impl::TcpAllocateMemoryBase<AllocateMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(allocateFunction(func)))
        return signalPassFailure();
  }
};

} // namespace
