// tcp-allocate-memory: per-slice DM/TRF/VRF offsets for every tensor: fresh memory first, else
// the free range whose tensors were last read earliest (the lowest free range when that leaves a
// later tensor no room). Loads from HBM live from the kernel's start when all fits, else from
// the previous load's definition (double buffering).
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>
#include <map>

namespace rngd::tcp {
#define GEN_PASS_DEF_TCPALLOCATEMEMORY
#include "dialects/tcp/Transforms/Passes.h.inc"
} // namespace rngd::tcp

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

namespace {

int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/// Where a tensor goes once no fresh memory is left, of the free ranges that start at 0 or where
/// a live tensor's range ends: the one whose earlier tensors were last read earliest in program
/// order (its writer waits least for those reads; the lowest on ties), or simply the lowest (the
/// fallback when the first choice leaves a later tensor no room).
enum class Reuse { Stalest, Lowest };

/// One per-slice memory: the DM, the VRF, or the TRF, where lane l of a tensor with L lanes
/// holds bytes [l * capacity / L + offset, + bytes) (DM and VRF tensors have one lane), so
/// tensors with different lane counts interleave. A tensor takes memory no earlier tensor used
/// while there is some (above every range ever used in its lanes' segments: reusing a range
/// would make its writer wait for the last reader of the range, a false dependency for
/// tcp-schedule), else, by `reuse`, an offset where none of its lanes' ranges meets a live
/// tensor's.
struct Space {
  struct Tensor {
    Operation *def;
    int64_t lanes, offset, bytes, lastUse;
  };
  StringRef name;       // for diagnostics
  Memory memory;        // whose offset attribute the defining op gets
  int64_t capacity = 0; // bytes per slice, all lanes
  int64_t alignment = 1;
  bool quiet = false; // fail without a diagnostic (a first attempt that may be retried)
  Reuse reuse = Reuse::Stalest;
  std::vector<Tensor> live, used;

  int64_t segment(int64_t lanes) const { return capacity / lanes; }

  bool meets(const Tensor &a, const Tensor &b) const {
    for (int64_t i = 0; i < a.lanes; ++i)
      for (int64_t j = 0; j < b.lanes; ++j) {
        int64_t lo = i * segment(a.lanes) + a.offset, blo = j * segment(b.lanes) + b.offset;
        if (lo < blo + b.bytes && blo < lo + a.bytes)
          return true;
      }
    return false;
  }

  /// Places `bytes` per lane at an offset inside [lo, hi) of each lane segment (the whole
  /// segment by default).
  LogicalResult place(Operation *op, int64_t lanes, int64_t bytes, int64_t now, int64_t lastUse,
                      int64_t lo = 0, int64_t hi = -1) {
    llvm::erase_if(live, [&](const Tensor &t) { return t.lastUse < now; });
    bytes = alignUp(bytes, alignment);
    int64_t seg = segment(lanes);
    if (hi < 0)
      hi = seg;
    // Where other tensors' ranges end, in this tensor's lane coordinates.
    auto ends = [&](const std::vector<Tensor> &others, bool inside) {
      SmallVector<int64_t> out{lo};
      for (const Tensor &o : others)
        for (int64_t j = 0; j < o.lanes; ++j)
          for (int64_t l = 0; l < lanes; ++l) {
            int64_t begin = j * segment(o.lanes) + o.offset - l * seg, end = begin + o.bytes;
            if (inside ? (end > lo && end < hi) : (end > lo && begin < hi))
              out.push_back(alignUp(end, alignment));
          }
      return out;
    };
    Tensor t{op, lanes, *llvm::max_element(ends(used, false)), bytes, lastUse};
    if (t.offset + bytes > hi) {
      SmallVector<int64_t> candidates = ends(live, true);
      llvm::sort(candidates);
      t.offset = hi;
      int64_t stalest = std::numeric_limits<int64_t>::max();
      for (int64_t c : candidates) {
        Tensor at = t;
        at.offset = c;
        if (c + bytes > hi || llvm::any_of(live, [&](const Tensor &o) { return meets(at, o); }))
          continue;
        int64_t lastRead = -1;
        if (reuse == Reuse::Stalest)
          for (const Tensor &o : used)
            if (meets(at, o))
              lastRead = std::max(lastRead, o.lastUse);
        if (lastRead < stalest)
          stalest = lastRead, t.offset = c;
      }
    }
    if (t.offset + bytes > hi && quiet)
      return failure();
    if (t.offset + bytes > hi) {
      auto diag = op->emitOpError(name) << " capacity: no room for " << bytes;
      if (lanes == 1)
        diag << " bytes per slice; " << name << " has " << capacity
             << " bytes and these tensors are live here:";
      else
        diag << " bytes in each of " << lanes << " lane segments of " << seg << " bytes ("
             << name << " " << capacity << " bytes per slice); these tensors are live here:";
      for (const Tensor &o : live)
        if (o.lanes == 1)
          diag.attachNote(o.def->getLoc()) << o.bytes << " bytes at offset " << o.offset;
        else
          diag.attachNote(o.def->getLoc())
              << o.lanes << " lanes x " << o.bytes << " bytes at offset " << o.offset;
      return diag;
    }
    live.push_back(t);
    used.push_back(t);
    setAllocatedOffset(op, memory, t.offset);
    return success();
  }
};

LogicalResult allocate(func::FuncOp func, Prefetch prefetch, Reuse reuse, bool quiet) {
  const TargetModel &t = getTarget(func);
  Block &block = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> order = tcp::programOrder(block);
  llvm::DenseMap<Operation *, int64_t> starts = tcp::liveStarts(block, order, prefetch);

  // Tensors in order of where their live ranges start (program order on ties): a range that
  // starts early (a prefetched tile) is placed before the tensors defined in between.
  SmallVector<Operation *> defs;
  for (Operation &op : block)
    if (!llvm::isa<ReinterpretOp, DmViewOp, VrfViewOp, TrfJoinOp, DmJoinOp>(op) &&
        op.getNumResults() > 0)
      defs.push_back(&op);
  llvm::stable_sort(defs, [&](Operation *a, Operation *b) {
    return starts.lookup(a) < starts.lookup(b);
  });

  Space dm{"DM", Memory::Dm, t.dmBytesPerSlice, t.dmAllocationAlignment, quiet, reuse, {}, {}};
  Space vrf{"VRF", Memory::Vrf, t.vrfBytesPerSlice, t.vrfAllocationAlignment, quiet, reuse, {}, {}};
  Space trf{"TRF", Memory::Trf, t.trfBytesPerSlice, t.trfAllocationAlignment, quiet, reuse, {}, {}};
  // Joins placed in this attempt (an earlier, quiet attempt leaves its attributes behind).
  llvm::DenseSet<Operation *> placedJoins;
  for (Operation *def : defs) {
    Operation &op = *def;
    int64_t now = starts.lookup(&op);
    for (Value result : op.getResults()) {
      int64_t lastUse = lastUseOf(result, block, order);
      if (auto join = dmJoinOf(result)) {
        // A part of a joined DM tensor: the first part written places the whole, live until
        // its last use; part k takes the k-th n cells of every slice's part of it.
        auto whole = resolveDm(join, join.getType());
        auto part = resolveDm(&op, cast<DmType>(result.getType()));
        if (!whole || !part)
          return failure();
        if (placedJoins.insert(join).second &&
            failed(dm.place(join, 1, whole->bytesPerSlice(), now,
                            lastUseOf(join.getResult(), block, order))))
          return failure();
        int64_t k = 0;
        while (join.getParts()[k] != result)
          ++k;
        int64_t base = *allocatedOffset(join.getResult(), Memory::Dm); // placed above
        setAllocatedOffset(&op, Memory::Dm, base + k * part->bytesPerSlice());
      } else if (auto type = dyn_cast<DmType>(result.getType())) {
        auto layout = resolveDm(&op, type);
        if (!layout || failed(dm.place(&op, 1, layout->bytesPerSlice(), now, lastUse)))
          return failure();
      } else if (auto type = dyn_cast<VrfType>(result.getType())) {
        auto layout = resolveVrf(&op, type);
        if (!layout || failed(vrf.place(&op, 1, layout->bytes(), now, lastUse)))
          return failure();
      } else if (auto join = joinOf(result)) {
        // Half of a joined tensor: the first half to load places the whole, live until its
        // last use; the halves take its even and odd lanes.
        if (!placedJoins.insert(join).second)
          continue;
        auto layout = resolveTrf(join, join.getType());
        if (!layout || failed(trf.place(join, layout->lanes(), layout->laneBytes(), now,
                                        lastUseOf(join.getResult(), block, order))))
          return failure();
        int64_t base = *allocatedOffset(join.getResult(), Memory::Trf); // placed above
        setAllocatedOffset(join.getEven().getDefiningOp(), Memory::Trf, base);
        setAllocatedOffset(join.getOdd().getDefiningOp(), Memory::Trf,
                           base + trf.segment(layout->lanes()));
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

  // Aliases take their source's bytes: a reinterpretation at its offset, a window `bytes` in.
  auto alias = [](Operation &op, Value source, Memory memory, int64_t bytes) {
    if (source.getDefiningOp())
      if (std::optional<int64_t> base = allocatedOffset(source, memory))
        setAllocatedOffset(&op, memory, *base + bytes);
  };
  for (Operation &op : block) {
    if (auto same = dyn_cast<ReinterpretOp>(op))
      alias(op, same.getSource(), Memory::Dm, 0);
    else if (auto window = dyn_cast<DmViewOp>(op)) // a slice shift is whole slice windows on
      alias(op, window.getSource(), Memory::Dm,
            window.getSlices().value_or(0) * t.dmSliceWindowBytes +
                window.getOffset() * elementBytes(window.getSource().getType().getElementType()));
    else if (auto window = dyn_cast<VrfViewOp>(op))
      alias(op, window.getSource(), Memory::Vrf,
            window.getOffset() * elementBytes(window.getSource().getType().getElementType()));
  }
  return success();
}

/// Every load from HBM from the kernel's start when everything fits, else double buffering;
/// each reusing the stalest free ranges, else (when that leaves no room) the lowest.
LogicalResult allocateFunction(func::FuncOp func) {
  const std::pair<Prefetch, Reuse> attempts[] = {{Prefetch::All, Reuse::Stalest},
                                                  {Prefetch::All, Reuse::Lowest},
                                                  {Prefetch::Double, Reuse::Stalest},
                                                  {Prefetch::Double, Reuse::Lowest}};
  for (size_t i = 0; i < std::size(attempts); ++i) {
    const auto [prefetch, reuse] = attempts[i];
    // Only the last attempt reports why nothing fits.
    if (succeeded(allocate(func, prefetch, reuse, /*quiet=*/i + 1 < std::size(attempts)))) {
      func->setAttr(kPrefetchAttrName, PrefetchAttr::get(func.getContext(), prefetch));
      return success();
    }
  }
  return failure();
}

struct AllocateMemoryPass : public rngd::tcp::impl::TcpAllocateMemoryBase<AllocateMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(allocateFunction(func)))
        return signalPassFailure();
  }
};

} // namespace
