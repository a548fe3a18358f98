// tcp-allocate-memory: per-slice DM/TRF/VRF offsets for every tensor: fresh memory first, else
// first fit over the live ranges. Loads from HBM live from the kernel's start when all fits,
// else from the previous load's definition (double buffering).
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/IR/TcpPass.h"
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

/// One per-slice memory (DM, a TRF lane segment, the VRF). A tensor takes memory no earlier
/// tensor used while there is some (reusing a range would make its writer wait for the last
/// reader of the range: a false dependency for tcp-schedule), else first fit among the live
/// ranges.
struct Space {
  StringRef name;       // for diagnostics
  StringRef attr;       // offset attribute on the defining op
  int64_t capacity = 0; // bytes per slice (per lane for the TRF)
  int64_t alignment = 1;
  std::vector<Allocation> live;                      // sorted by offset
  std::vector<std::pair<int64_t, int64_t>> used;     // every range ever placed
  bool quiet = false; // fail without a diagnostic (a first attempt that may be retried)

  /// Places `bytes` inside [lo, hi) (the whole space by default).
  LogicalResult place(Operation *op, int64_t bytes, int64_t now, int64_t lastUse, int64_t lo = 0,
                      int64_t hi = -1) {
    llvm::erase_if(live, [&](const Allocation &a) { return a.lastUse < now; });
    bytes = alignUp(bytes, alignment);
    if (hi < 0)
      hi = capacity;
    int64_t fresh = lo;
    for (auto [begin, end] : used)
      if (end > lo && begin < hi)
        fresh = std::max(fresh, end);
    int64_t offset = fresh;
    if (offset + bytes > hi) {
      offset = lo;
      for (const Allocation &a : live) {
        if (a.offset + a.bytes <= offset)
          continue;
        if (offset + bytes <= a.offset)
          break;
        offset = std::max(offset, a.offset + a.bytes);
      }
    }
    if (offset + bytes > hi && quiet)
      return failure();
    if (offset + bytes > hi) {
      auto diag = op->emitOpError(name) << " capacity: no room for " << bytes
                                        << " bytes per slice; " << name << " has " << capacity
                                        << " bytes and these tensors are live here:";
      for (const Allocation &a : live)
        diag.attachNote(a.def->getLoc()) << a.bytes << " bytes at offset " << a.offset;
      return diag;
    }
    live.push_back({op, offset, bytes, lastUse});
    used.push_back({offset, offset + bytes});
    llvm::sort(live, [](const Allocation &a, const Allocation &b) { return a.offset < b.offset; });
    op->setAttr(attr, Builder(op).getI64IntegerAttr(offset));
    return success();
  }
};

/// The TRF of a slice: lane l of a tensor with L lanes holds bytes [l * 64 KB / L + offset,
/// + laneBytes), so tensors with different lane counts interleave differently; a tensor is
/// placed at one offset inside its lane segment where none of its lanes' ranges meets another
/// tensor's. Fresh memory first (above every range ever used in its lanes' segments), else the
/// lowest offset clear of the live tensors.
struct TrfSpace {
  struct Tensor {
    Operation *def;
    int64_t lanes, offset, bytes, lastUse;
  };
  int64_t capacity = 0; // bytes per slice, all lanes
  int64_t alignment = 1;
  bool quiet = false;
  std::vector<Tensor> live, used;

  int64_t segment(int64_t lanes) const { return capacity / lanes; }

  static bool meets(const Tensor &a, const Tensor &b, int64_t segA, int64_t segB) {
    for (int64_t i = 0; i < a.lanes; ++i)
      for (int64_t j = 0; j < b.lanes; ++j) {
        int64_t lo = i * segA + a.offset, hi = lo + a.bytes;
        int64_t blo = j * segB + b.offset, bhi = blo + b.bytes;
        if (lo < bhi && blo < hi)
          return true;
      }
    return false;
  }

  bool clear(const Tensor &t, const std::vector<Tensor> &others) const {
    return llvm::none_of(others, [&](const Tensor &o) {
      return meets(t, o, segment(t.lanes), segment(o.lanes));
    });
  }

  /// Places `bytes` per lane at an offset inside [lo, hi) of each lane segment.
  LogicalResult place(Operation *op, int64_t lanes, int64_t bytes, int64_t now, int64_t lastUse,
                      int64_t lo, int64_t hi) {
    llvm::erase_if(live, [&](const Tensor &t) { return t.lastUse < now; });
    bytes = alignUp(bytes, alignment);
    int64_t seg = segment(lanes);
    Tensor t{op, lanes, lo, bytes, lastUse};
    // Where another tensor's range ends, in this tensor's lane coordinates.
    auto endsIn = [&](const std::vector<Tensor> &others, bool onlyAbove) {
      SmallVector<int64_t> out{lo};
      for (const Tensor &o : others)
        for (int64_t j = 0; j < o.lanes; ++j)
          for (int64_t l = 0; l < lanes; ++l) {
            int64_t begin = j * segment(o.lanes) + o.offset - l * seg;
            int64_t end = begin + o.bytes;
            if (onlyAbove ? (end > lo && begin < hi) : (end > lo && end < hi))
              out.push_back(alignUp(end, alignment));
          }
      return out;
    };
    SmallVector<int64_t> fresh = endsIn(used, true);
    t.offset = *llvm::max_element(fresh);
    if (t.offset + bytes > hi) {
      SmallVector<int64_t> candidates = endsIn(live, false);
      llvm::sort(candidates);
      t.offset = hi;
      for (int64_t c : candidates) {
        Tensor at = t;
        at.offset = c;
        if (c + bytes <= hi && clear(at, live)) {
          t.offset = c;
          break;
        }
      }
    }
    if (t.offset + bytes > hi && quiet)
      return failure();
    if (t.offset + bytes > hi) {
      auto diag = op->emitOpError("TRF capacity: no room for ")
                  << bytes << " bytes in each of " << lanes << " lane segments of " << seg
                  << " bytes (TRF " << capacity << " bytes per slice); these tensors are live here:";
      for (const Tensor &o : live)
        diag.attachNote(o.def->getLoc()) << o.lanes << " lanes x " << o.bytes
                                         << " bytes at offset " << o.offset;
      return diag;
    }
    live.push_back(t);
    used.push_back(t);
    op->setAttr("tcp.trf_offset", Builder(op).getI64IntegerAttr(t.offset));
    return success();
  }
};

LogicalResult allocate(func::FuncOp func, Prefetch prefetch, bool quiet) {
  const TargetModel &t = defaultTarget();
  Block &block = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> order = tcp::programOrder(block);
  llvm::DenseMap<Operation *, int64_t> starts = tcp::liveStarts(block, order, prefetch);

  // Tensors in order of where their live ranges start (program order on ties): a range that
  // starts early (a prefetched tile) is placed before the tensors defined in between.
  SmallVector<Operation *> defs;
  for (Operation &op : block)
    if (!isa<ReinterpretOp, VrfViewOp>(op) && op.getNumResults() > 0)
      defs.push_back(&op);
  llvm::stable_sort(defs, [&](Operation *a, Operation *b) {
    return starts.lookup(a) < starts.lookup(b);
  });

  Space dm{"DM", "tcp.dm_offset", t.dmBytesPerSlice, t.dmAllocationAlignment, {}, {}, false};
  Space vrf{"VRF", "tcp.vrf_offset", t.vrfBytesPerSlice, t.vrfAllocationAlignment, {}, {}, false};
  TrfSpace trf{t.trfBytesPerSlice, t.trfAllocationAlignment, quiet, {}, {}};
  dm.quiet = vrf.quiet = quiet;
  for (Operation *def : defs) {
    Operation &op = *def;
    int64_t now = starts.lookup(&op);
    for (Value result : op.getResults()) {
      int64_t lastUse = lastUseOf(result, block, order);
      if (auto type = dyn_cast<DmType>(result.getType())) {
        auto layout = resolveDm(&op, type);
        if (!layout || failed(dm.place(&op, layout->bytesPerSlice(), now, lastUse)))
          return failure();
      } else if (auto type = dyn_cast<VrfType>(result.getType())) {
        auto layout = resolveVrf(&op, type);
        if (!layout || failed(vrf.place(&op, layout->bytes(), now, lastUse)))
          return failure();
      } else if (auto type = dyn_cast<TrfType>(result.getType())) {
        auto layout = resolveTrf(&op, type);
        if (!layout)
          return failure();
        // A half region keeps the tensor in one half of every lane segment.
        int64_t seg = trf.segment(layout->lanes());
        auto region = cast<ToTrfOp>(op).getRegion();
        int64_t lo = region && *region == "second" ? seg / 2 : 0;
        int64_t hi = region && *region == "first" ? seg / 2 : seg;
        if (failed(trf.place(&op, layout->lanes(), layout->laneBytes(), now, lastUse, lo, hi)))
          return failure();
      }
    }
  }

  // Aliases take their source's bytes.
  for (Operation &op : block) {
    if (auto alias = dyn_cast<ReinterpretOp>(op)) {
      if (Operation *def = alias.getSource().getDefiningOp())
        if (Attribute offset = def->getAttr("tcp.dm_offset"))
          op.setAttr("tcp.dm_offset", offset);
    } else if (auto window = dyn_cast<VrfViewOp>(op)) {
      Operation *def = window.getSource().getDefiningOp();
      auto base = def ? def->getAttrOfType<IntegerAttr>("tcp.vrf_offset") : IntegerAttr();
      if (base)
        op.setAttr("tcp.vrf_offset",
                   Builder(&op).getI64IntegerAttr(
                       base.getInt() + window.getOffset() *
                                           elementBytes(window.getSource().getType().getElementType())));
    }
  }
  return success();
}

/// Every load from HBM from the kernel's start when everything fits, else double buffering.
LogicalResult allocateFunction(func::FuncOp func) {
  Prefetch prefetch = Prefetch::All;
  if (failed(allocate(func, prefetch, /*quiet=*/true))) {
    prefetch = Prefetch::Double;
    if (failed(allocate(func, prefetch, /*quiet=*/false)))
      return failure();
  }
  func->setAttr("tcp.prefetch",
                Builder(func).getStringAttr(prefetch == Prefetch::All ? "all" : "double"));
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
