// tcp.dma_scatter and tcp.dma_gather: DMA with an HBM-side row loop driven by byte offsets.
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

using namespace mlir;

namespace rngd::tcp {

namespace {

/// `levels` without the outermost factor of the first level (the rows the offsets replace).
std::optional<std::vector<mapping::Level>> dropRows(const std::vector<mapping::Level> &levels,
                                                    mapping::Factor &rows) {
  if (levels.empty() || levels[0].mapping.factors().empty())
    return std::nullopt;
  std::vector<mapping::Factor> rest = levels[0].mapping.factors();
  rows = rest.front();
  rest.erase(rest.begin());
  std::vector<mapping::Level> out = levels;
  out[0].mapping = mapping::Mapping::fromFactors(rest);
  return out;
}

/// Address step of one increment of `axis` over placed levels; 0 where no level holds it.
int64_t axisStride(const std::vector<mapping::Level> &levels, const std::string &axis,
                   int64_t size) {
  mapping::Factor f;
  f.axis = axis;
  f.axisSize = size;
  f.count = f.cells = size;
  for (const mapping::Level &l : levels)
    if (auto place = mapping::placeFactor(l.mapping, f); place && !place->absent)
      return place->stride * l.cellStride;
  return 0;
}

} // namespace

std::optional<IndirectDmaPlan> planIndirectDma(Operation *op) {
  const TargetModel &t = getTarget(op);
  IndirectDmaPlan plan;
  plan.scatter = llvm::isa<DmaScatterOp>(op);
  Value offsets = plan.scatter ? cast<DmaScatterOp>(op).getOffsets()
                               : cast<DmaGatherOp>(op).getOffsets();
  plan.offsetsValue = offsets;
  plan.dmValue = plan.scatter ? cast<DmaScatterOp>(op).getSource()
                              : Value(cast<DmaGatherOp>(op).getResult());
  plan.hbmValue = plan.scatter ? cast<DmaScatterOp>(op).getDest()
                               : Value(cast<DmaGatherOp>(op).getSource());
  auto offsetsType = cast<HbmType>(offsets.getType());
  auto index = resolveHbm(op, offsetsType);
  if (!index)
    return std::nullopt;
  plan.offsets = *index;
  if (!offsetsType.getElementType().isSignlessInteger(32) || index->axes.size() != 1) {
    op->emitOpError("offsets must be an i32 HBM tensor over one axis (the rows), got ")
        << offsetsType;
    return std::nullopt;
  }
  std::string rowAxis = index->axes[0];
  plan.rows = index->elem.size();

  DmType dmType = plan.scatter ? cast<DmaScatterOp>(op).getSource().getType()
                               : cast<DmaGatherOp>(op).getResult().getType();
  HbmType hbmType = plan.scatter ? cast<DmaScatterOp>(op).getDest().getType()
                                 : cast<DmaGatherOp>(op).getSource().getType();
  auto dm = resolveDm(op, dmType);
  auto hbm = resolveHbm(op, hbmType);
  if (!dm || !hbm)
    return std::nullopt;
  if (dmType.getElementType() != hbmType.getElementType()) {
    op->emitOpError("DMA moves bytes unchanged: element types differ (")
        << dmType.getElementType() << " and " << hbmType.getElementType() << ")";
    return std::nullopt;
  }
  mapping::Factor replaced;
  auto hbmRows = dropRows(hbm->levels(), replaced);
  if (!hbmRows || replaced.axis == rowAxis ||
      llvm::is_contained(dm->axes, replaced.axis)) {
    op->emitOpError("the offsets replace the HBM tensor's outermost factor, which must be an "
                    "axis the DM tensor does not have, got ")
        << hbm->elem.str();
    return std::nullopt;
  }
  std::vector<std::string> rowAxes;
  for (const std::string &a : hbm->axes)
    if (a != replaced.axis)
      rowAxes.push_back(a);
  std::vector<mapping::Level> dmLevels = dm->levels(t);
  // The row loop places row k (dmRowStride below): inside a row the DM side's row axis is no
  // axis to broadcast over (a gather's destination-only axis would be), so the row's loops
  // are derived with its factors held as constants of the same cells.
  std::vector<mapping::Level> rowLevels = dmLevels;
  for (mapping::Level &l : rowLevels) {
    std::vector<mapping::Factor> factors = l.mapping.factors();
    for (mapping::Factor &f : factors)
      if (f.axis == rowAxis) {
        mapping::Factor constant;
        constant.cells = f.cells;
        constant.text = "1 # " + std::to_string(f.cells);
        f = constant;
      }
    l.mapping = mapping::Mapping::fromFactors(factors);
  }
  auto loops = plan.scatter ? deriveTensorDma(op, rowLevels, *hbmRows, rowAxes, dm->elemBytes)
                            : deriveTensorDma(op, *hbmRows, rowLevels, rowAxes, dm->elemBytes);
  if (!loops)
    return std::nullopt;
  if (loops->packetBytes % t.dmaAlignment != 0) {
    op->emitOpError("DMA alignment: packets of ")
        << loops->packetBytes << " bytes; transfers between HBM and DM move packets that are a "
        << "multiple of " << t.dmaAlignment << " bytes";
    return std::nullopt;
  }
  if (static_cast<int64_t>(loops->loops.size()) + 1 > t.dmaMaxLoops) {
    op->emitOpError("DMA loops: the row loop and ")
        << loops->loops.size() << " loops exceed " << t.dmaMaxLoops;
    return std::nullopt;
  }
  plan.dmRowStride = axisStride(dmLevels, rowAxis, plan.rows);
  plan.dma.target = &t;
  plan.dma.plan = *loops;
  plan.dma.route = plan.scatter ? DmaRoute::DmToHbm : DmaRoute::HbmToDm;
  (plan.scatter ? plan.dma.dmSource : plan.dma.dmDest) = *dm;
  (plan.scatter ? plan.dma.hbmDest : plan.dma.hbmSource) = *hbm;
  plan.dma.cycles =
      dmaCycles(t, plan.dma.route, loops->packetBytes, loops->packets() * plan.rows);
  return plan;
}

} // namespace rngd::tcp

using namespace rngd::tcp;

LogicalResult DmaScatterOp::verify() {
  if (failed(verifyWritesArgument(*this, getDest(), "the destination")) ||
      failed(verifyReadsArgument(*this, getOffsets(), "the offsets")))
    return failure();
  return success(planIndirectDma(*this).has_value());
}

LogicalResult DmaGatherOp::verify() {
  if (failed(verifyReadsArgument(*this, getSource(), "the source")) ||
      failed(verifyReadsArgument(*this, getOffsets(), "the offsets")))
    return failure();
  return success(planIndirectDma(*this).has_value());
}
