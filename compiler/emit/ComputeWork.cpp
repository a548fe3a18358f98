#include "compiler/emit/ComputeWork.h"

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"
#include "rngd/machine/TargetModel.h"

#include <algorithm>
#include <map>
#include <set>

namespace rngd {
namespace {
/// a x b, or INT64_MAX when it overflows (a count no real kernel reaches).
int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/// The digit ranges [div, div x visible) each axis's factors cover, per axis.
using Coverage = std::map<std::string, std::vector<std::pair<int64_t, int64_t>>>;

void cover(Coverage &c, const mapping::Mapping &m) {
  for (const mapping::Factor &f : m.factors())
    if (!f.axis.empty())
      c[f.axis].push_back({f.div, saturatingMul(f.div, f.visible())});
}

/// The number of an axis's values the ranges reach: the product of the merged ranges' ratios.
int64_t covered(std::vector<std::pair<int64_t, int64_t>> ranges) {
  std::sort(ranges.begin(), ranges.end());
  int64_t values = 1, lo = 0, hi = 0;
  for (auto [a, b] : ranges) {
    if (a > hi || hi == 0) {
      if (hi > 0)
        values = saturatingMul(values, hi / lo);
      lo = a;
      hi = b;
    } else {
      hi = std::max(hi, b);
    }
  }
  return hi > 0 ? saturatingMul(values, hi / lo) : 1;
}
} // namespace

int64_t contractionMacs(mlir::func::FuncOp func) {
  std::set<std::string> held; // the axes the kernel's HBM tensors (arguments, views) hold
  auto hold = [&](mlir::Value v) {
    if (auto hbm = llvm::dyn_cast<tcp::HbmType>(v.getType()))
      if (auto layout = tcp::resolveHbm(func, hbm))
        held.insert(layout->axes.begin(), layout->axes.end());
  };
  for (mlir::BlockArgument arg : func.getArguments())
    hold(arg);
  func.walk([&](mlir::Operation *op) {
    for (mlir::Value v : op->getResults())
      hold(v);
  });
  // A join of HBM loads (gate's and up's rows read as one tensor) holds the axis it adds: its
  // parts are HBM tensors side by side.
  func.walk([&](tcp::DmJoinOp join) {
    for (mlir::Value part : join.getParts()) {
      auto dma = part.getDefiningOp<tcp::DmaOp>();
      if (!dma || !llvm::isa<tcp::HbmType>(dma.getSource().getType()))
        return;
    }
    auto whole = tcp::resolveDm(join, join.getResult().getType());
    auto part = tcp::resolveDm(join, llvm::cast<tcp::DmType>(join.getParts()[0].getType()));
    if (!whole || !part)
      return;
    std::set<std::string> partAxes;
    for (const mapping::Factor &f : part->elem.factors())
      partAxes.insert(f.axis);
    for (const mapping::Factor &f : whole->elem.factors())
      if (!f.axis.empty() && !partAxes.count(f.axis))
        held.insert(f.axis);
  });
  int64_t macs = 0;
  func.walk([&](tcp::ContractOp op) {
    auto stream = tcp::resolveStream(op, op.getInput().getType());
    auto trf = tcp::resolveTrf(op, op.getWeights().getType());
    if (!stream || !trf)
      return;
    Coverage c;
    for (const mapping::Mapping *m :
         {&trf->spatial.cluster, &trf->spatial.slice, &trf->lane, &trf->elem,
          &stream->spatial.cluster, &stream->spatial.slice, &stream->time, &stream->packet})
      cover(c, *m);
    int64_t product = 1;
    for (auto &[axis, ranges] : c)
      if (held.count(axis))
        product = saturatingMul(product, covered(ranges));
    int64_t sum;
    macs = __builtin_add_overflow(macs, product, &sum) ? INT64_MAX : sum;
  });
  return macs;
}

int64_t computeCycles(const TargetModel &t, int64_t macs) {
  int64_t perCycle = t.bf16MacsPerCycle();
  return macs / perCycle + (macs % perCycle != 0);
}

} // namespace rngd
