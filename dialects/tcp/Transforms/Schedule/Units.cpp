// Building the scheduler's units from tcp ops: each DMA's parts and footprint, each pass's
// cycles, configuration blocks and footprint.
#include "Units.h"

#include "dialects/tcp/Analysis/PassBlocks.h"
#include "dialects/tcp/Analysis/DmaParts.h"
#include "dialects/tcp/IR/TcpVerify.h"

using namespace mlir;

namespace rngd::tcp::sched {

bool Region::overlaps(const Region &o) const {
  if (space != o.space || lo >= o.hi || o.lo >= hi)
    return false;
  if (space != Hbm)
    return (slices & o.slices).any();
  if (arg != o.arg)
    return false;
  if (period == 0 || period != o.period)
    return true;
  int64_t a = lo % period, b = o.lo % period;
  return (b - a + period) % period < run || (a - b + period) % period < o.run;
}

Region Region::onSlices(Space space, int64_t first, int64_t last, int64_t lo, int64_t hi) {
  Region r{space, -1, {}, lo, hi};
  for (int64_t s = first; s <= last && s < static_cast<int64_t>(kMaxSlices); ++s)
    r.slices.set(static_cast<size_t>(s));
  return r;
}

bool overlaps(const Footprint &a, const Footprint &b) {
  for (const Region &x : a)
    for (const Region &y : b)
      if (x.overlaps(y))
        return true;
  return false;
}

SmallVector<int64_t> Unit::engines() const {
  SmallVector<int64_t> out;
  for (const DmaPart &part : parts)
    out.push_back(part.engine);
  return out;
}

bool passHoldsDma(const TargetModel &t, int64_t longestSameBankRun) {
  return longestSameBankRun >= t.sameBankAccessLimit;
}

namespace {

SliceSet sliceSet(const TargetModel &t, const SpatialLayout &spatial) {
  SliceSet set;
  for (int64_t s : spatial.activeSlices(t))
    if (s >= 0 && s < static_cast<int64_t>(kMaxSlices))
      set.set(static_cast<size_t>(s));
  return set;
}

/// Where tcp-allocate-memory put `v`; 0 for a tensor it has not placed (a scheduler test's
/// kernel, scheduled without allocation: its tensors then overlap, which only orders more).
int64_t offsetOf(Value v, Memory memory) { return allocatedOffset(v, memory).value_or(0); }

std::optional<Region> hbmRegion(Operation *op, Value v) {
  auto root = hbmRoot(v);
  auto layout = resolveHbm(op, cast<HbmType>(v.getType()));
  if (!root || !layout)
    return std::nullopt;
  Region r = Region::hbm(root->arg.getArgNumber(), root->byteOffset,
                         root->byteOffset + layout->bytes());
  // Periodic: a padded innermost factor (`[B, H # 256]`) under factors that hold every cell.
  const auto &factors = layout->elem.factors();
  if (!factors.empty() && factors.back().cells > factors.back().visible() &&
      std::all_of(factors.begin(), factors.end() - 1,
                  [](const mapping::Factor &f) { return f.cells == f.visible(); })) {
    r.period = factors.back().cells * layout->elemBytes;
    r.run = factors.back().visible() * layout->elemBytes;
  }
  return r;
}

/// A DM tensor's bytes: its offset in every slice it occupies. A view on other slices than its
/// source's (`tcp.dm_view ... slices S`) has S whole slice windows in its offset.
Region dmRegion(const TargetModel &t, Value v, const DmLayout &layout) {
  int64_t offset = offsetOf(v, Memory::Dm);
  int64_t shift = offset / t.dmSliceWindowBytes;
  offset %= t.dmSliceWindowBytes;
  SliceSet slices = sliceSet(t, layout.spatial);
  if (shift > 0)
    slices <<= static_cast<size_t>(shift);
  return {Region::Dm, -1, slices, offset, offset + layout.bytesPerSlice()};
}

/// A pass's DM range: the tensor, widened to every byte its sequencer touches (a padded packet
/// may read past the tensor's last element).
Region sequencedRegion(const TargetModel &t, Value v, const DmLayout &layout,
                       const mapping::Sequencer &seq) {
  Region r = dmRegion(t, v, layout);
  int64_t lo = 0, hi = seq.accessBytes;
  for (const mapping::Loop &l : seq.loops)
    (l.stride < 0 ? lo : hi) += (l.size - 1) * l.stride;
  r.hi = std::max(r.hi, r.lo + hi);
  r.lo = std::min(r.lo, r.lo + lo);
  return r;
}

Region vrfRegion(const TargetModel &t, Value v, const VrfLayout &layout) {
  int64_t offset = offsetOf(v, Memory::Vrf);
  return {Region::Vrf, -1, sliceSet(t, layout.spatial), offset, offset + layout.bytes()};
}

/// A TRF tensor's bytes in each slice: one range per lane (lane l of L starts at l * 64 KB / L
/// plus the tensor's offset), so tensors with different lane counts compare correctly.
void addTrfRegions(const TargetModel &t, Footprint &f, Value v, const TrfLayout &layout) {
  int64_t offset = offsetOf(v, Memory::Trf);
  int64_t segment = t.trfBytesPerSlice / layout.lanes();
  SliceSet slices = sliceSet(t, layout.spatial);
  for (int64_t l = 0; l < layout.lanes(); ++l) {
    int64_t lo = l * segment + offset;
    f.push_back({Region::Trf, -1, slices, lo, lo + layout.laneBytes()});
  }
}

/// The longest same-bank run of a pass's DM sequencers (fetch and commit).
int64_t passSameBankRun(const TargetModel &t, const TensorPassPlan &plan) {
  auto run = [&](const mapping::Sequencer &seq) {
    std::vector<std::pair<int64_t, int64_t>> loops;
    for (const mapping::Loop &l : seq.loops)
      loops.push_back({l.size, l.stride});
    return sameBankRun(t, loops);
  };
  int64_t longest = run(plan.fetch.sequencer);
  if (plan.commit)
    longest = std::max(longest, run(plan.commit->sequencer));
  return longest;
}

LogicalResult dmaUnit(const TargetModel &t, Operation *op, Unit &u) {
  u.op = op;
  u.isDma = true;
  if (auto dma = dyn_cast<DmaOp>(op)) {
    auto plan = planDma(dma);
    if (!plan)
      return failure();
    u.parts = dmaParts(*plan);
    u.plan = *plan;
    if (u.parts.empty())
      return dma.emitOpError("DMA engines: the DM side spans both clusters and no loop of its ")
             << "nest separates them; an engine reaches only its own cluster's DM";
    Value dst = dma.getDest() ? dma.getDest() : dma.getResult();
    auto side = [&](Value v, const std::optional<DmLayout> &dm, Footprint &f) -> LogicalResult {
      if (dm) {
        f.push_back(dmRegion(t, v, *dm));
        return success();
      }
      auto r = hbmRegion(op, v);
      if (!r)
        return failure();
      f.push_back(*r);
      return success();
    };
    return failure(failed(side(dma.getSource(), plan->dmSource, u.reads)) ||
                   failed(side(dst, plan->dmDest, u.writes)));
  }
  auto plan = planIndirectDma(op);
  if (!plan)
    return failure();
  bool scatter = plan->scatter;
  Value dmValue = plan->dmValue, hbmValue = plan->hbmValue, offsets = plan->offsetsValue;
  auto index = hbmRegion(op, offsets);
  auto hbm = hbmRegion(op, hbmValue);
  if (!index || !hbm)
    return failure();
  u.parts = indirectDmaParts(*plan); // each part reads the index tensor when it starts
  u.indirect = *plan;
  if (u.parts.empty())
    return op->emitOpError("DMA engines: the DM side spans both clusters and no loop inside ")
           << "the row loop separates them; an engine reaches only its own cluster's DM";
  Region dm = dmRegion(t, dmValue, scatter ? *plan->dma.dmSource : *plan->dma.dmDest);
  u.reads = {*index, scatter ? dm : *hbm};
  u.writes = {scatter ? *hbm : dm};
  return success();
}

LogicalResult passUnit(const TargetModel &t, Operation *end, Unit &u) {
  auto plan = planTensorPass(end);
  if (!plan)
    return failure();
  TensorPassOps ops = plan->ops;
  u.op = end;
  u.context = static_cast<int64_t>(ops.fetch.getContext());
  u.cycles = tensorPassCycles(t, plan->shape);
  u.usesVector = ops.vector || ops.cast;
  u.holdsDma = passHoldsDma(t, passSameBankRun(t, *plan));
  auto blocks = passBlocks(end);
  if (!blocks)
    return failure();
  for (const PassBlock &b : blocks->blocks) {
    Unit::Block block{b.unit, {}};
    std::string why;
    if (!isa::packBlock(*isa::findUnit(b.unit), b.values, block.words, why))
      return emitError(b.loc) << why;
    u.blocks.push_back(std::move(block));
  }
  u.execUnits = blocks->execUnits;
  u.reads.push_back(
      sequencedRegion(t, ops.fetch.getSource(), plan->fetch.source, plan->fetch.sequencer));
  if (plan->contract)
    addTrfRegions(t, u.reads, ops.contract.getWeights(), plan->contract->weights);
  if (ops.vector)
    for (Value v : ops.vector.getVrfOperands()) {
      auto layout = resolveVrf(end, cast<VrfType>(v.getType()));
      if (!layout)
        return failure();
      u.reads.push_back(vrfRegion(t, v, *layout));
    }
  Value result = end->getResult(0);
  if (plan->commit)
    u.writes.push_back(
        sequencedRegion(t, result, plan->commit->result, plan->commit->sequencer));
  else if (plan->trf)
    addTrfRegions(t, u.writes, result, *plan->trf);
  else
    u.writes.push_back(vrfRegion(t, result, *plan->vrf));
  return success();
}

} // namespace

LogicalResult buildUnits(func::FuncOp func, const TargetModel &t, std::vector<Unit> &units) {
  for (Operation &op : func.getBody().front()) {
    if (isDmaUnit(&op)) {
      units.emplace_back();
      if (failed(dmaUnit(t, &op, units.back())))
        return failure();
    } else if (isPassEnd(&op)) {
      units.emplace_back();
      if (failed(passUnit(t, &op, units.back())))
        return failure();
    }
  }
  return success();
}

} // namespace rngd::tcp::sched
