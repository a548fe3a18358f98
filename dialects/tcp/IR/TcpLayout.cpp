#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/IR/TcpDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <set>

using namespace mlir;

namespace rngd::tcp {

int64_t elementBytes(Type type) {
  if (type.isBF16())
    return 2;
  if (type.isF32() || type.isSignlessInteger(32))
    return 4;
  if (type.isSignlessInteger(8))
    return 1;
  return 0;
}

std::optional<mapping::AxisEnv> axisEnv(Operation *op) {
  ModuleOp module = llvm::isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto axes = module ? module->getAttrOfType<DictionaryAttr>(kAxesAttrName) : DictionaryAttr();
  if (!axes) {
    op->emitOpError("needs the enclosing module to declare its axes, e.g. "
                    "`module attributes {tcp.axes = {H = 1024}}`");
    return std::nullopt;
  }
  mapping::AxisEnv env;
  for (NamedAttribute entry : axes) {
    auto size = dyn_cast<IntegerAttr>(entry.getValue());
    if (!size || size.getInt() <= 0) {
      op->emitOpError("axis `") << entry.getName().getValue()
                                << "` in tcp.axes must have a positive integer size";
      return std::nullopt;
    }
    if (size.getInt() > mapping::kMaxCells) {
      op->emitOpError("axis `") << entry.getName().getValue() << "` in tcp.axes has size "
                                << size.getInt() << ", over the limit of 2^32 ("
                                << mapping::kMaxCells << ")";
      return std::nullopt;
    }
    env.add(entry.getName().str(), size.getInt());
  }
  return env;
}

std::optional<mapping::Mapping> resolveMapping(Operation *op, StringRef what,
                                               MappingAttr mapping, const mapping::AxisEnv &env) {
  mapping::Error err;
  auto m = mapping::Mapping::resolve(mapping.getSyntax(), env, err);
  if (!m)
    op->emitOpError("invalid ") << what << " mapping \"" << mapping.getText()
                                << "\": " << err.str();
  return m;
}

std::vector<mapping::Level> HbmLayout::levels() const { return {{elem, elemBytes}}; }

std::vector<int64_t> SpatialLayout::activeSlices(const TargetModel &t) const {
  std::vector<int64_t> slices;
  for (int64_t c = 0; c < cluster.size(); ++c) {
    if (!cluster.digits(c))
      continue;
    for (int64_t s = 0; s < slice.size(); ++s)
      if (slice.digits(s))
        slices.push_back(c * t.slicesPerCluster + s);
  }
  return slices;
}

std::vector<mapping::Level> DmLayout::levels(const TargetModel &t) const {
  return {{spatial.cluster, t.slicesPerCluster * t.dmSliceWindowBytes},
          {spatial.slice, t.dmSliceWindowBytes},
          {elem, elemBytes}};
}

static std::optional<SpatialLayout> resolveSpatial(Operation *op, MappingAttr cluster,
                                                   MappingAttr slice,
                                                   const mapping::AxisEnv &env) {
  const TargetModel &t = getTarget(op);
  auto c = resolveMapping(op, "cluster", cluster, env);
  auto s = resolveMapping(op, "slice", slice, env);
  if (!c || !s)
    return std::nullopt;
  // Every spatial level spans the whole machine level (docs/hardware.md section 5.2).
  if (c->size() != t.clusters) {
    op->emitOpError("cluster mapping \"")
        << cluster.getText() << "\" has " << c->size() << " cells; target " << t.name << " has "
        << t.clusters << (t.clusters == 1 ? " cluster" : " clusters") << " (pad with `# "
        << t.clusters << "`)";
    return std::nullopt;
  }
  if (s->size() != t.slicesPerCluster) {
    op->emitOpError("slice mapping \"")
        << slice.getText() << "\" has " << s->size() << " cells; a cluster of target " << t.name
        << " has " << t.slicesPerCluster << " slices (pad with `# " << t.slicesPerCluster
        << "`)";
    return std::nullopt;
  }
  return SpatialLayout{*c, *s};
}

static std::vector<std::string> unionAxes(std::initializer_list<const mapping::Mapping *> ms,
                                          const mapping::AxisEnv &env) {
  std::set<std::string> seen;
  for (const mapping::Mapping *m : ms)
    for (const std::string &a : m->axes())
      seen.insert(a);
  std::vector<std::string> ordered; // declaration order, deterministic
  for (const auto &[name, size] : env.axes())
    if (seen.count(name))
      ordered.push_back(name);
  return ordered;
}

std::optional<HbmLayout> resolveHbm(Operation *op, HbmType type) {
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  auto elem = resolveMapping(op, "HBM element", type.getElem(), *env);
  if (!elem)
    return std::nullopt;
  HbmLayout layout{*elem, elementBytes(type.getElementType()), {}};
  layout.axes = unionAxes({&layout.elem}, *env);
  mapping::Error err;
  if (!mapping::checkCoverage(layout.levels(), {false}, layout.axes, *env, err)) {
    op->emitOpError("HBM tensor ") << type << ": " << err.str();
    return std::nullopt;
  }
  return layout;
}

std::optional<DmLayout> resolveDm(Operation *op, DmType type) {
  const TargetModel &t = getTarget(op);
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  auto spatial = resolveSpatial(op, type.getCluster(), type.getSlice(), *env);
  auto elem = resolveMapping(op, "DM element", type.getElem(), *env);
  if (!spatial || !elem)
    return std::nullopt;
  DmLayout layout{*spatial, *elem, elementBytes(type.getElementType()), {}};
  // Axes of the tensor are those of its element mapping plus spatial axes that are not pure
  // replication; an axis that only appears spatially is a broadcast.
  layout.axes = unionAxes({&layout.elem}, *env);
  for (const std::string &a : unionAxes({&layout.spatial.cluster, &layout.spatial.slice}, *env))
    if (std::find(layout.axes.begin(), layout.axes.end(), a) == layout.axes.end())
      layout.axes.push_back(a);
  if (layout.bytesPerSlice() > t.dmBytesPerSlice) {
    op->emitOpError("DM capacity: tensor ")
        << type << " needs " << layout.bytesPerSlice() << " bytes per slice; a slice has "
        << t.dmBytesPerSlice;
    return std::nullopt;
  }
  mapping::Error err;
  if (!mapping::checkCoverage(layout.levels(t), {true, true, false}, layout.axes, *env, err)) {
    op->emitOpError("DM tensor ") << type << ": " << err.str();
    return std::nullopt;
  }
  return layout;
}

std::optional<StreamLayout> resolveStream(Operation *op, StreamType type) {
  const TargetModel &t = getTarget(op);
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  auto spatial = resolveSpatial(op, type.getCluster(), type.getSlice(), *env);
  auto time = resolveMapping(op, "time", type.getTime(), *env);
  auto packet = resolveMapping(op, "packet", type.getPacket(), *env);
  if (!spatial || !time || !packet)
    return std::nullopt;
  StreamLayout layout{*spatial, *time, *packet, elementBytes(type.getElementType())};
  if (layout.packetBytes() % t.fetchPacketAlignment != 0) {
    op->emitOpError("packet size: a stream packet of ")
        << layout.packetBytes() << " bytes is not a multiple of " << t.fetchPacketAlignment
        << " bytes";
    return std::nullopt;
  }
  return layout;
}

std::optional<TrfLayout> resolveTrf(Operation *op, TrfType type) {
  const TargetModel &t = getTarget(op);
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  auto spatial = resolveSpatial(op, type.getCluster(), type.getSlice(), *env);
  auto lane = resolveMapping(op, "lane", type.getLane(), *env);
  auto elem = resolveMapping(op, "TRF element", type.getElem(), *env);
  if (!spatial || !lane || !elem)
    return std::nullopt;
  TrfLayout layout{*spatial, *lane, *elem, elementBytes(type.getElementType())};
  int64_t lanes = layout.lanes();
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != t.trfLanes) {
    op->emitOpError("TRF lanes: lane mapping \"")
        << type.getLane().getText() << "\" has " << lanes << " cells; a TRF tensor uses 1, 2, 4 or "
        << t.trfLanes << " lanes";
    return std::nullopt;
  }
  if (layout.laneBytes() * lanes > t.trfBytesPerSlice) {
    op->emitOpError("TRF capacity: ")
        << lanes << " lanes x " << layout.laneBytes() << " bytes need "
        << layout.laneBytes() * lanes << " bytes per slice; a slice's TRF holds "
        << t.trfBytesPerSlice << " (" << t.trfBytesPerSlice / lanes << " per lane)";
    return std::nullopt;
  }
  return layout;
}

std::optional<VrfLayout> resolveVrf(Operation *op, VrfType type) {
  const TargetModel &t = getTarget(op);
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  auto spatial = resolveSpatial(op, type.getCluster(), type.getSlice(), *env);
  auto elem = resolveMapping(op, "VRF element", type.getElem(), *env);
  if (!spatial || !elem)
    return std::nullopt;
  VrfLayout layout{*spatial, *elem, elementBytes(type.getElementType())};
  if (layout.bytes() > t.vrfBytesPerSlice) {
    op->emitOpError("VRF capacity: tensor ")
        << type << " needs " << layout.bytes() << " bytes per slice; a slice's VRF holds "
        << t.vrfBytesPerSlice;
    return std::nullopt;
  }
  return layout;
}

mapping::Mapping concat(const mapping::Mapping &a, const mapping::Mapping &b) {
  std::vector<mapping::Factor> factors = a.factors();
  factors.insert(factors.end(), b.factors().begin(), b.factors().end());
  return mapping::Mapping::fromFactors(factors);
}

bool sameSpatial(const SpatialLayout &a, const SpatialLayout &b) {
  return mapping::sameOrder(a.cluster, b.cluster) && mapping::sameOrder(a.slice, b.slice);
}

bool sameSlices(const TargetModel &t, const SpatialLayout &a, const SpatialLayout &b) {
  return a.activeSlices(t) == b.activeSlices(t);
}

bool slicesWithin(const TargetModel &t, const SpatialLayout &a, const SpatialLayout &b) {
  std::vector<int64_t> inner = a.activeSlices(t), outer = b.activeSlices(t);
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

std::optional<mapping::Sequencer> deriveTensorSequencer(Operation *op, StringRef what,
                                                        const DmLayout &buffer,
                                                        const StreamLayout &stream,
                                                        int64_t maxAccessBytes) {
  const TargetModel &t = getTarget(op);
  mapping::Error err;
  auto seq = mapping::deriveSequencer(buffer.elem, stream.time, stream.packet, buffer.elemBytes,
                                      maxAccessBytes, t.maxSequencerEntries,
                                      t.maxSequencerEntrySize, err);
  if (!seq)
    op->emitOpError(what) << " sequencer: " << err.str();
  return seq;
}

std::optional<mapping::DmaPlan> deriveTensorDma(Operation *op,
                                                const std::vector<mapping::Level> &src,
                                                const std::vector<mapping::Level> &dst,
                                                const std::vector<std::string> &axes,
                                                int64_t elemBytes) {
  const TargetModel &t = getTarget(op);
  auto env = axisEnv(op);
  if (!env)
    return std::nullopt;
  mapping::Error err;
  auto plan = mapping::deriveDma(src, dst, axes, elemBytes, t.dmaMaxPacketBytes, t.dmaMaxLoops,
                                 *env, err);
  if (!plan) {
    op->emitOpError("DMA loops: ") << err.str();
    return std::nullopt;
  }
  for (size_t i = 0; i < plan->loops.size(); ++i)
    if (plan->loops[i].size > t.dmaMaxLoopIterations) {
      op->emitOpError("DMA loops: loop ")
          << i << " runs " << plan->loops[i].size << " iterations, more than a descriptor's "
          << t.dmaMaxLoopIterations << ": " << plan->str();
      return std::nullopt;
    }
  return plan;
}

} // namespace rngd::tcp
