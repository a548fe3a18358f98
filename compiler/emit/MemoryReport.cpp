#include "compiler/emit/MemoryReport.h"

#include "dialects/tcp/IR/TcpPlan.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace rngd::emit {

std::string location(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto s = location(inner); !s.empty())
        return s;
  if (auto name = dyn_cast<NameLoc>(loc))
    return location(name.getChildLoc());
  return "";
}

MemoryReport memoryReport(func::FuncOp func) {
  const TargetModel &t = tcp::getTarget(func);
  Block &block = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> order = tcp::programOrder(block);
  llvm::DenseMap<Operation *, int64_t> starts =
      tcp::liveStarts(block, order, tcp::prefetchOf(func));
  auto index = static_cast<int64_t>(order.size());

  MemoryReport report;
  int64_t trfLanes = 0;
  for (Operation &op : block) {
    if (llvm::isa<tcp::ReinterpretOp, tcp::DmViewOp, tcp::VrfViewOp>(op))
      continue; // aliases of their source's bytes
    for (Value r : op.getResults()) {
      if (tcp::joinOf(r) || tcp::dmJoinOf(r))
        continue; // part of a joined TRF or DM tensor: counted with the whole
      PlacedTensor p;
      p.value = r;
      if (auto type = dyn_cast<tcp::DmType>(r.getType())) {
        auto layout = tcp::resolveDm(&op, type);
        p.space = "dm";
        p.bytes = layout ? layout->bytesPerSlice() : 0;
      } else if (auto type = dyn_cast<tcp::TrfType>(r.getType())) {
        auto layout = tcp::resolveTrf(&op, type);
        p.space = "trf";
        p.bytes = layout ? layout->laneBytes() : 0;
        trfLanes = layout ? layout->lanes() : trfLanes;
      } else if (auto type = dyn_cast<tcp::VrfType>(r.getType())) {
        auto layout = tcp::resolveVrf(&op, type);
        p.space = "vrf";
        p.bytes = layout ? layout->bytes() : 0;
      } else {
        continue;
      }
      auto offset = op.getAttrOfType<IntegerAttr>("tcp." + p.space + "_offset");
      p.offset = offset ? offset.getInt() : 0;
      p.loc = location(op.getLoc());
      p.def = starts.lookup(&op); // a tensor loaded from HBM lives from where it may be loaded
      if (auto join = dyn_cast<tcp::TrfJoinOp>(op)) // from where its first half loads
        p.def = std::min(starts.lookup(join.getEven().getDefiningOp()),
                         starts.lookup(join.getOdd().getDefiningOp()));
      if (auto join = dyn_cast<tcp::DmJoinOp>(op)) // from where its first part is written
        for (Value part : join.getParts())
          p.def = std::min(p.def, starts.lookup(part.getDefiningOp()));
      p.lastUse = tcp::lastUseOf(r, block, order);
      report.tensors.push_back(p);
    }
  }
  for (auto [space, capacity] :
       {std::pair<std::string, int64_t>{"dm", t.dmBytesPerSlice},
        {"trf", trfLanes ? t.trfBytesPerSlice / trfLanes : t.trfBytesPerSlice},
        {"vrf", t.vrfBytesPerSlice}}) {
    SpaceUsage usage;
    usage.space = space;
    usage.capacity = capacity;
    for (int64_t at = 0; at < index; ++at) {
      int64_t live = 0;
      std::vector<size_t> tensors;
      for (size_t i = 0; i < report.tensors.size(); ++i) {
        const PlacedTensor &p = report.tensors[i];
        if (p.space == space && p.def <= at && at <= p.lastUse) {
          live += p.bytes;
          tensors.push_back(i);
        }
      }
      if (live > usage.peakBytes) {
        usage.peakBytes = live;
        usage.peakAt = at;
        usage.atPeak = tensors;
      }
    }
    report.spaces.push_back(usage);
  }
  return report;
}

std::string formatMemoryReport(const MemoryReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const SpaceUsage &space : report.spaces) {
    os << space.space << ": peak " << space.peakBytes << " of " << space.capacity
       << " bytes per " << (space.space == "trf" ? "lane" : "slice") << " at op "
       << space.peakAt << "\n";
    for (size_t i = 0; i < report.tensors.size(); ++i) {
      const PlacedTensor &p = report.tensors[i];
      if (p.space != space.space)
        continue;
      bool peak = llvm::is_contained(space.atPeak, i);
      os << llvm::format("  %c %-28s offset %7lld  bytes %7lld  live %4lld..%-4lld\n",
                         peak ? '*' : ' ', p.loc.c_str(), static_cast<long long>(p.offset),
                         static_cast<long long>(p.bytes), static_cast<long long>(p.def),
                         static_cast<long long>(p.lastUse));
    }
  }
  os << "(* = live at the peak)\n";
  return text;
}

} // namespace rngd::emit
