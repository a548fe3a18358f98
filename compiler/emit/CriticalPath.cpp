#include "compiler/emit/CriticalPath.h"

#include "compiler/emit/MemoryReport.h"

#include "dialects/tcp/IR/TcpPlan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace rngd::emit {

namespace {
/// One scheduled unit as tcp.schedule records it.
struct Scheduled {
  std::string context, name, loc, why;
  int64_t start = 0, end = 0, after = -1;
  llvm::ArrayRef<int64_t> engines, partStarts, partEnds, partAfter; // DMAs
};

/// The part of `u` that ends last, among those on `engine` when it is not negative; -1 for a
/// pass.
int64_t lastPart(const Scheduled &u, int64_t engine = -1) {
  int64_t best = -1;
  for (size_t p = 0; p < u.partEnds.size() && p < u.engines.size(); ++p)
    if ((engine < 0 || u.engines[p] == engine) &&
        (best < 0 || u.partEnds[p] > u.partEnds[best]))
      best = static_cast<int64_t>(p);
  return best;
}
} // namespace

std::vector<PathStep> criticalPath(func::FuncOp func) {
  llvm::DenseMap<int64_t, Scheduled> units; // by issue order
  for (Operation &op : func.getBody().front()) {
    bool dma = tcp::isDmaUnit(&op);
    if (!dma && !tcp::isPassEnd(&op))
      continue;
    tcp::ScheduleAttr sched = tcp::getSchedule(&op);
    if (!sched)
      return {};
    Scheduled u;
    u.context = tcp::stringifyQueue(sched.getQueue()).str();
    u.start = sched.getStart();
    u.end = sched.getEnd();
    u.why = tcp::stringifyIssueReason(sched.getWhy()).str();
    u.after = sched.getAfter();
    if (dma) {
      u.name = op.getName().getStringRef().str();
      u.loc = location(op.getLoc());
      u.engines = sched.getEngines();
      u.partStarts = sched.getPartStarts();
      u.partEnds = sched.getPartEnds();
      u.partAfter = sched.getPartAfter();
    } else {
      u.name = "pass " + op.getName().getStringRef().drop_front(4).str(); // "tcp."
      auto plan = tcp::planTensorPass(&op);
      u.loc = location(plan ? plan->ops.fetch.getLoc() : op.getLoc());
    }
    units[sched.getOrder()] = u;
  }
  if (units.empty())
    return {};
  // From the unit ending last (the latest issued on ties) back along what set each start: a
  // DMA part's engine, else the unit's issue.
  int64_t at = -1;
  for (const auto &[order, u] : units)
    if (at < 0 || u.end > units[at].end || (u.end == units[at].end && order > at))
      at = order;
  int64_t part = lastPart(units[at]);
  std::vector<PathStep> path;
  while (at >= 0 && path.size() <= units.size()) {
    const Scheduled &u = units[at];
    PathStep step{at, u.context, u.name, u.loc, u.start, u.end, part, u.why};
    int64_t next = u.after, nextPart = -1;
    if (part >= 0) {
      step.context = "dma" + std::to_string(u.engines[part]);
      step.start = u.partStarts[part];
      step.end = u.partEnds[part];
      if (part < static_cast<int64_t>(u.partAfter.size()) && u.partAfter[part] >= 0) {
        step.why = "engine";
        next = u.partAfter[part];
        nextPart = lastPart(units[next], u.engines[part]);
      }
    }
    if (step.why == "waits" && next >= 0)
      nextPart = lastPart(units[next]); // it waited for the whole unit's end
    path.push_back(step);
    at = next;
    part = nextPart;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::string formatCriticalPath(func::FuncOp func) {
  std::vector<PathStep> path = criticalPath(func);
  if (path.empty())
    return "critical path of @" + func.getSymName().str() +
           ": no DMA or pass (or no schedule: run tcp-schedule)\n";
  std::string text;
  llvm::raw_string_ostream os(text);
  size_t width = 8; // "location"
  for (const PathStep &s : path)
    width = std::max(width, s.loc.size());
  os << "critical path of @" << func.getSymName() << ": " << path.back().end << " cycles, "
     << path.size() << " units (+N: cycles from that end to this start, spent on the queue's "
     << "waits and configuration loads)\n";
  os << "   start      end  on       unit               " << llvm::left_justify("location", width)
     << "  started by\n";
  for (size_t i = 0; i < path.size(); ++i) {
    const PathStep &s = path[i];
    std::string by = "the kernel's start";
    if (i > 0) {
      const PathStep &p = path[i - 1];
      std::string gap = " +" + std::to_string(s.start - p.end);
      if (s.why == "waits")
        by = "waiting for " + p.loc + " to end" + gap;
      else if (s.why == "engine")
        by = "its engine, free when " + p.loc + " ended there" + gap;
      else
        by = "the queue, right after " + p.loc;
    }
    os << llvm::format("%8lld %8lld  %-7s  %-17s  ", static_cast<long long>(s.start),
                       static_cast<long long>(s.end), s.context.c_str(), s.name.c_str())
       << llvm::left_justify(s.loc, width) << "  " << by << "\n";
  }
  return text;
}

} // namespace rngd::emit
