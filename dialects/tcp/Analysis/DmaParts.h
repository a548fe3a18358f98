// The descriptors a DMA lowers to: its loop nest cut into parts, one per engine, by cluster
// and, for weight streams and idle engines, into chunks (the engine policy tcp-schedule and
// the lowering share; docs/machine-model.md, "DMA engines").
#pragma once

#include "dialects/tcp/IR/TcpPlan.h"

namespace rngd::tcp {

/// One descriptor of a DMA: the plan's loop nest, or a chunk of one of its loops, on one
/// engine. Offsets are byte deltas added to the plan's source and destination bases.
struct DmaPart {
  std::vector<mapping::DmaPlan::PairLoop> loops;
  int64_t srcOffset = 0, dstOffset = 0;
  int64_t engine = 0;
  int64_t packets = 0;
  int64_t cycles = 0;
  DmaTraffic traffic;
  int64_t chunk = 0; // a cut piece's part: the iterations of the piece's cut loop it moves
  int64_t piece = 0; // which cluster piece it belongs to
  int64_t cutIterations = 0; // iterations of the piece's cut loop (0: no loop to cut)
  bool stream = false;       // a part of a stream (a large load from HBM or DM to DM copy)
};

/// The descriptors of a DMA. An engine reaches only its own cluster's DM (the destination's, for DM
/// to DM), so a DMA whose DM side spans both clusters is first cut, at the outermost loop whose
/// iterations each stay in one cluster, into one piece per cluster. A load from HBM, or a DM to DM
/// copy, of at least kDmaSplitBytes then streams each piece that reads each source byte once (no
/// replication inside the piece; a copy per cluster is two pieces) over its cluster's first three
/// engines: the piece's loop of kStreamSplitIterations or more iterations that three engines share
/// most evenly (else its longest) is cut into near-equal chunks, chunk i on engine 4c + i. Every
/// other DMA runs on the cluster's fourth engine (tcp-schedule moves it to whichever engine of the
/// cluster frees first), so the weight streams do not hold up the kernel's own traffic in their
/// engines' queues. A DMA writing HBM is only cut at a loop whose parts write disjoint [lo, hi)
/// ranges (the simulator compares concurrent commands by such bounding ranges); with no such loop
/// it stays whole. The scheduler and the lowering both use this, so they issue the same
/// descriptors. Empty when the DM side spans both clusters and no loop of the nest separates them
/// (no engine could run it). `chunks`, when given, are the stream parts' iteration counts, one per
/// engine of the piece's cluster in order (the fourth is the spare engine, which tcp-schedule lends
/// a stream across the others' start-ups); a chunk of 0 drops its part. Given for a small DMA, they
/// cut it the same way, over the cluster's engines that tcp-schedule found idle at a kernel's end.
std::vector<DmaPart> dmaParts(const DmaOpPlan &plan, llvm::ArrayRef<int64_t> chunks = {});
constexpr int64_t kDmaSplitBytes = 64 * 1024;
/// A stream is cut at a loop of at least this many iterations (four per engine of a cluster),
/// so that tcp-schedule can size the parts finely (else at its longest loop).
constexpr int64_t kStreamSplitIterations = 16;

/// The descriptors of a gather or scatter: loop 0 walks the rows (the DM side stepping by
/// dmRowStride, the HBM side by the offsets), then the plan's loops. One descriptor per cluster
/// the DM side reaches, cut like dmaParts at a loop inside the row loop, each on its cluster's
/// fourth engine; `chunks` (one per engine of the cluster) cut each piece further like a small
/// DMA's in dmaParts. Every descriptor reads the whole offsets tensor. Empty when no loop
/// inside the row loop separates the clusters, or when chunks do not cut every piece whole.
std::vector<DmaPart> indirectDmaParts(const IndirectDmaPlan &plan,
                                      llvm::ArrayRef<int64_t> chunks = {});

} // namespace rngd::tcp
