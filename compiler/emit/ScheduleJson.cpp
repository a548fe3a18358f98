#include "compiler/emit/ScheduleJson.h"

#include "compiler/emit/ComputeWork.h"
#include "compiler/emit/CriticalPath.h"
#include "compiler/emit/MemoryReport.h"

#include "compiler/conversion/TcpToRngd/ArgumentLayout.h"
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace mlir;

namespace rngd::emit {

namespace {
class Writer {
public:
  Writer(llvm::json::OStream &j, func::FuncOp func, const conversion::ArgumentLayout &args)
      : j_(j), func_(func), args_(args) {}

  void hbm(Value v) {
    auto root = tcp::hbmRoot(v);
    const auto &slot = args_.slots[root->arg.getArgNumber()];
    auto layout = tcp::resolveHbm(v.getParentBlock()->getParentOp(),
                                  cast<tcp::HbmType>(v.getType()));
    int64_t begin = slot.offset + root->byteOffset;
    j_.object([&] {
      j_.attribute("memory", "hbm");
      j_.attribute("arg", slot.name);
      j_.attributeArray("range", [&] {
        j_.value(begin);
        j_.value(begin + (layout ? layout->bytes() : 0));
      });
    });
  }

  void dm(Value v, const tcp::DmLayout &layout) {
    const TargetModel &t = tcp::getTarget(func_);
    auto slices = layout.spatial.activeSlices(t);
    // A scheduled module is allocated; a tensor it did not place shows at 0.
    int64_t offset = tcp::allocatedOffset(v, tcp::Memory::Dm).value_or(0);
    for (int64_t &s : slices) // a view on other slices: whole slice windows in its offset
      s += offset / t.dmSliceWindowBytes;
    offset %= t.dmSliceWindowBytes;
    j_.object([&] {
      j_.attribute("memory", "dm");
      j_.attribute("value", valueIds_.lookup(v));
      j_.attributeArray("slices", [&] {
        j_.value(slices.empty() ? 0 : slices.front());
        j_.value(slices.empty() ? 0 : slices.back());
      });
      j_.attributeArray("range", [&] {
        j_.value(offset);
        j_.value(offset + layout.bytesPerSlice());
      });
    });
  }

  /// One scheduled unit: `scheduled` carries tcp.schedule, `loc` is where it starts.
  /// A TRF or VRF tensor: per-slice byte range (per lane for the TRF).
  void registers(Value v, StringRef memory, const tcp::SpatialLayout &spatial, int64_t bytes) {
    auto slices = spatial.activeSlices(tcp::getTarget(func_));
    int64_t offset =
        tcp::allocatedOffset(v, memory == "trf" ? tcp::Memory::Trf : tcp::Memory::Vrf)
            .value_or(0);
    j_.object([&] {
      j_.attribute("memory", memory);
      j_.attributeArray("slices", [&] {
        j_.value(slices.empty() ? 0 : slices.front());
        j_.value(slices.empty() ? 0 : slices.back());
      });
      j_.attributeArray("range", [&] {
        j_.value(offset);
        j_.value(offset + bytes);
      });
    });
  }

  void op(Operation *scheduled, Location loc, int64_t id, StringRef name,
          ArrayRef<StringRef> parts,
          llvm::function_ref<void()> reads, llvm::function_ref<void()> writes,
          ArrayRef<Value> inputs) {
    tcp::ScheduleAttr sched = tcp::getSchedule(scheduled);
    j_.object([&] {
      j_.attribute("id", id);
      j_.attribute("name", name);
      if (!parts.empty())
        j_.attributeArray("ops", [&] {
          for (StringRef p : parts)
            j_.value(p);
        });
      j_.attribute("loc", location(loc));
      StringRef ctx = sched ? tcp::stringifyQueue(sched.getQueue()) : "";
      j_.attribute("context", ctx);
      if (ctx == "main") // the register bank its blocks load into and it runs on
        j_.attribute("bank", sched.getBank());
      j_.attributeArray("engines", [&] {
        if (ctx == "tdma")
          for (int64_t e : sched.getEngines())
            j_.value("dma" + std::to_string(e));
        else
          for (StringRef p : parts)
            j_.value(p.drop_front(4)); // "tcp.fetch" -> "fetch"
      });
      j_.attribute("start", sched ? sched.getStart() : 0);
      j_.attribute("end", sched ? sched.getEnd() : 0);
      // What let the queue issue it (tcp-schedule's why/after, `after` as an op id).
      j_.attribute("why", sched ? tcp::stringifyIssueReason(sched.getWhy()) : "start");
      if (sched && sched.getAfter() >= 0)
        j_.attribute("after", idOfOrder_.lookup(sched.getAfter()));
      int64_t order = sched ? sched.getOrder() : -1;
      auto onPath = criticalParts_.find(order);
      if (onPath != criticalParts_.end()) // on the chain rngdc --critical-path prints
        j_.attribute("critical", true);
      if (ctx == "tdma") // each descriptor on its engine
        j_.attributeArray("parts", [&] {
          ArrayRef<int64_t> engines = sched.getEngines(), starts = sched.getPartStarts(),
                            ends = sched.getPartEnds(), behind = sched.getPartAfter();
          for (size_t p = 0; p < engines.size(); ++p)
            j_.object([&] {
              j_.attribute("engine", "dma" + std::to_string(engines[p]));
              j_.attribute("start", starts[p]);
              j_.attribute("end", ends[p]);
              // The DMA whose part on this engine it started behind.
              if (behind[p] >= 0)
                j_.attribute("after", idOfOrder_.lookup(behind[p]));
              if (onPath != criticalParts_.end() && onPath->second == static_cast<int64_t>(p))
                j_.attribute("critical", true);
            });
        });
      j_.attributeArray("reads", reads);
      j_.attributeArray("writes", writes);
      j_.attributeArray("deps", [&] {
        std::vector<int64_t> deps;
        for (Value in : inputs)
          if (producer_.count(in))
            deps.push_back(producer_.lookup(in));
        llvm::sort(deps);
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        for (int64_t d : deps)
          j_.value(d);
      });
    });
  }

  llvm::json::OStream &j_;
  func::FuncOp func_;
  const conversion::ArgumentLayout &args_;
  llvm::DenseMap<Value, int64_t> producer_;  // DM value -> op id
  llvm::DenseMap<Value, int64_t> valueIds_;  // DM value -> memory-plan id
  llvm::DenseMap<int64_t, int64_t> idOfOrder_; // tcp.schedule order -> op id
  std::map<int64_t, int64_t> criticalParts_;   // order -> part on the critical path (-1: pass)
};
} // namespace

namespace {
/// Bytes the kernel's DMAs move through HBM and the most any one cluster's DM receives, for
/// the roofline of docs/design.md section 2.
struct Traffic {
  int64_t hbmBytes = 0;
  std::vector<int64_t> dmBytesPerCluster; // one per cluster of the target
};

void addDma(Traffic &traffic, const tcp::DmaOpPlan &plan, int64_t bytes) {
  DmaTraffic moved = tcp::dmaTraffic(plan, bytes);
  traffic.hbmBytes += moved.hbmBytes;
  for (size_t c = 0; c < traffic.dmBytesPerCluster.size() && c < std::size(moved.dmWriteBytes);
       ++c)
    traffic.dmBytesPerCluster[c] += moved.dmWriteBytes[c];
}

Traffic traffic(func::FuncOp func) {
  Traffic traffic;
  traffic.dmBytesPerCluster.assign(static_cast<size_t>(tcp::getTarget(func).clusters), 0);
  for (Operation &op : func.getBody().front()) {
    if (auto dma = dyn_cast<tcp::DmaOp>(op)) {
      if (auto plan = tcp::planDma(dma))
        addDma(traffic, *plan, plan->plan.packetBytes * plan->plan.packets());
    } else if (llvm::isa<tcp::DmaScatterOp, tcp::DmaGatherOp>(op)) {
      if (auto plan = tcp::planIndirectDma(&op))
        addDma(traffic, plan->dma,
               plan->dma.plan.packetBytes * plan->dma.plan.packets() * plan->rows);
    }
  }
  return traffic;
}

/// The larger of the HBM, DM-intake and compute times, plus one DMA start-up.
int64_t rooflineCycles(const TargetModel &t, const Traffic &traffic, int64_t macs) {
  int64_t hbm = (traffic.hbmBytes + t.hbmBytesPerCycle - 1) / t.hbmBytesPerCycle;
  int64_t dm = 0;
  for (int64_t bytes : traffic.dmBytesPerCluster)
    dm = std::max(dm, (bytes + t.dmBytesPerCyclePerCluster - 1) / t.dmBytesPerCyclePerCluster);
  return std::max({hbm, dm, computeCycles(t, macs)}) + t.dmaStartupCycles;
}
} // namespace

std::string scheduleJson(ModuleOp module) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  if (funcs.size() != 1)
    return "";
  func::FuncOp func = funcs[0];
  auto args = conversion::layoutArguments(func);
  if (!args)
    return "";
  const TargetModel &t = tcp::getTarget(func);
  llvm::json::OStream j(os, 2);
  Writer w(j, func, *args);

  // The memory plan; DM values get ids in program order for the ops' read/write entries.
  MemoryReport memory = memoryReport(func);
  for (const PlacedTensor &p : memory.tensors)
    if (p.space == "dm")
      w.valueIds_[p.value] = static_cast<int64_t>(w.valueIds_.size());
  func.walk([&](tcp::DmJoinOp join) { // a part is written where the whole's cells are
    for (Value part : join.getParts())
      w.valueIds_[part] = w.valueIds_.lookup(join.getResult());
  });

  for (const PathStep &step : criticalPath(func))
    w.criticalParts_[step.order] = step.part;
  // Op ids number the scheduled units in program order.
  int64_t unit = 0;
  for (Operation &op : func.getBody().front())
    if (tcp::isDmaUnit(&op) || tcp::isPassEnd(&op)) {
      if (tcp::ScheduleAttr sched = tcp::getSchedule(&op))
        w.idOfOrder_[sched.getOrder()] = unit;
      ++unit;
    }

  j.object([&] {
    j.attribute("format", "rngd-schedule");
    j.attribute("version", kScheduleFormatVersion);
    j.attribute("kernel", func.getSymName());
    j.attributeObject("target", [&] {
      j.attribute("name", t.name);
      j.attribute("hash", "0x" + llvm::utohexstr(t.hash(), true));
    });
    auto makespan = module->getAttrOfType<IntegerAttr>(tcp::kMakespanAttrName);
    j.attribute("makespan", makespan ? makespan.getInt() : 0);
    Traffic moved = traffic(func);
    j.attribute("hbm_bytes", moved.hbmBytes);
    int64_t macs = contractionMacs(func);
    j.attribute("macs", macs);
    j.attribute("compute_cycles", computeCycles(t, macs));
    j.attribute("roofline", rooflineCycles(t, moved, macs));
    j.attributeArray("args", [&] {
      for (const auto &slot : args->slots)
        j.object([&] {
          j.attribute("name", slot.name);
          j.attribute("kind", slot.kind);
          j.attribute("mapping", slot.mapping);
          j.attribute("offset", slot.offset);
          j.attribute("bytes", slot.bytes);
        });
    });
    j.attributeArray("ops", [&] {
      int64_t id = 0;
      for (Operation &op : func.getBody().front()) {
        if (auto dma = dyn_cast<tcp::DmaOp>(op)) {
          auto plan = tcp::planDma(dma);
          Value dst = dma.getDest() ? dma.getDest() : dma.getResult();
          w.op(dma, dma.getLoc(), id, "tcp.dma", {},
               [&] { plan->dmSource ? w.dm(dma.getSource(), *plan->dmSource) : w.hbm(dma.getSource()); },
               [&] { plan->dmDest ? w.dm(dst, *plan->dmDest) : w.hbm(dst); },
               {dma.getSource()});
          if (dma.getResult())
            w.producer_[dma.getResult()] = id;
          ++id;
        } else if (llvm::isa<tcp::DmaScatterOp, tcp::DmaGatherOp>(op)) {
          auto plan = tcp::planIndirectDma(&op);
          bool scatter = plan->scatter;
          Value dmValue = plan->dmValue, hbmValue = plan->hbmValue, offsets = plan->offsetsValue;
          const tcp::DmLayout &dm = scatter ? *plan->dma.dmSource : *plan->dma.dmDest;
          w.op(&op, op.getLoc(), id, op.getName().getStringRef(), {},
               [&] {
                 w.hbm(offsets);
                 scatter ? w.dm(dmValue, dm) : w.hbm(hbmValue);
               },
               [&] { scatter ? w.hbm(hbmValue) : w.dm(dmValue, dm); }, {dmValue});
          if (!scatter)
            w.producer_[dmValue] = id;
          ++id;
        } else if (tcp::isPassEnd(&op)) {
          auto plan = tcp::planTensorPass(&op);
          tcp::TensorPassOps ops = plan->ops;
          SmallVector<StringRef> parts = {"tcp.fetch"};
          if (ops.sw)
            parts.push_back("tcp.switch");
          parts.push_back("tcp.collect");
          SmallVector<Value> inputs = {ops.fetch.getSource()};
          if (ops.contract) {
            parts.push_back("tcp.contract");
            inputs.push_back(ops.contract.getWeights());
          }
          if (ops.vector) {
            parts.push_back("tcp.vector");
            for (Value v : ops.vector.getVrfOperands())
              inputs.push_back(v);
          }
          if (ops.cast)
            parts.push_back("tcp.cast");
          if (ops.transpose)
            parts.push_back("tcp.transpose");
          parts.push_back(op.getName().getStringRef());
          w.op(&op, ops.fetch.getLoc(), id, "tcp.pass", parts,
               [&] {
                 w.dm(ops.fetch.getSource(), plan->fetch.source);
                 if (plan->contract)
                   w.registers(ops.contract.getWeights(), "trf", plan->contract->weights.spatial,
                               plan->contract->weights.laneBytes());
                 if (plan->vector && plan->vector->hasVrf) {
                   Value vrf = ops.vector.getVrfOperands()[0];
                   auto layout = tcp::resolveVrf(&op, cast<tcp::VrfType>(vrf.getType()));
                   w.registers(vrf, "vrf", layout->spatial, layout->bytes());
                 }
               },
               [&] {
                 if (plan->commit)
                   w.dm(op.getResult(0), plan->commit->result);
                 else if (plan->trf)
                   w.registers(op.getResult(0), "trf", plan->trf->spatial, plan->trf->laneBytes());
                 else
                   w.registers(op.getResult(0), "vrf", plan->vrf->spatial, plan->vrf->bytes());
               },
               inputs);
          w.producer_[op.getResult(0)] = id;
          ++id;
        }
      }
    });
    j.attributeObject("memory", [&] {
      for (const SpaceUsage &space : memory.spaces)
        j.attributeObject(space.space, [&] {
          j.attribute("capacity", space.capacity);
          j.attribute("peak_bytes", space.peakBytes);
          j.attribute("peak_at", space.peakAt);
          j.attributeArray("tensors", [&] {
            for (size_t i = 0; i < memory.tensors.size(); ++i) {
              const PlacedTensor &p = memory.tensors[i];
              if (p.space != space.space)
                continue;
              j.object([&] {
                if (p.space == "dm")
                  j.attribute("value", w.valueIds_.lookup(p.value));
                j.attribute("loc", p.loc);
                j.attribute("offset", p.offset);
                j.attribute("bytes", p.bytes);
                j.attributeArray("live", [&] {
                  j.value(p.def);
                  j.value(p.lastUse);
                });
                j.attribute("at_peak", llvm::is_contained(space.atPeak, i));
              });
            }
          });
        });
    });
  });
  os << "\n";
  return out;
}

} // namespace rngd::emit
