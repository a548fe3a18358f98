#ifndef TCP_PASSES_TD
#define TCP_PASSES_TD

include "mlir/Pass/PassBase.td"

def TcpAllocateMemory : Pass<"tcp-allocate-memory", "mlir::ModuleOp"> {
  let summary = "place every DM tensor at a per-slice address (liveness-based)";
  let description = [{
    Pre: verified tcp. Post: every op producing a DM tensor (`tcp.dma` to DM, `tcp.commit`)
    carries `tcp.dm_offset`, the i64 byte offset of the tensor in each slice's Data Memory
    (identical on every slice); TRF and VRF tensors get `tcp.trf_offset` / `tcp.vrf_offset`
    (read and written only through `rngd::tcp::allocatedOffset` / `setAllocatedOffset`; the
    dialect verifies them). Tensors live from their definition to their last use in program
    order, except tensors a `tcp.dma` brings from HBM: they live from the kernel's start when
    everything fits that way (`tcp.prefetch = #tcp<prefetch all>` on the function), else from
    the previous such tensor's definition (`#tcp<prefetch double>`: double buffering), so
    tcp-schedule may start their DMAs early.
    Tensors are placed in order of where their ranges start, each in memory no earlier
    tensor used while there is some (reuse would make its writer wait for the range's last
    reader), else first fit among the live ranges. Offsets are aligned to one full bank row
    (128 bytes). A kernel whose live tensors exceed a slice's 512 KB fails with the list of
    tensors live at the peak.
  }];
}

def TcpSchedule : Pass<"tcp-schedule", "mlir::ModuleOp"> {
  let summary = "list-schedule the DMAs and Tensor Unit passes over the command queue";
  let description = [{
    Pre: `tcp-allocate-memory` ran. Units are the DMAs and the passes; a unit depends on an
    earlier one whose HBM/DM/TRF/VRF ranges it reads or writes conflictingly (RAW, WAR, WAW),
    that uses the Vector Engine from the other context, or (DMA vs pass) that could break the
    64-same-bank rule. Among the units whose predecessors are issued, the one that stalls the
    queue least is issued next (a DMA is ready when its engine frees; ties: the longest path
    of dependent cycles to the end, then program order; a pass that would fill the queue waits
    instead for a pass with a longer path that is ready before its configuration loads end),
    after waits for its predecessors not yet waited for, for the previous
    pass of its context and, with too few tags free for a DMA's parts as finally cut, for the
    oldest DMAs. A DMA part meant for
    a cluster's fourth engine takes the engine of that cluster that frees first; a weight
    stream's parts are re-cut so that they end together (an engine freeing earlier takes more
    iterations); the kernel's last DMA is cut over its cluster's engines idle when it issues. A
    pass loads the blocks of units its context's running pass does not list before its waits
    (`early_loads`), the others after; the first pass on a bank, whose loads would hold the
    queue past its own waits, loads them before the waits of the latest earlier unit whose
    waits idle the queue that long (`loads_before`), where they cost nothing.
    Post: every unit carries a typed `tcp.schedule = #tcp.schedule<...>` (order, queue,
    engines, start, end, waits, tags, chunks, part_starts, part_ends, part_after for DMAs;
    holds_dma, load_masks, early_loads, loads_before for passes; why and after: what let the
    queue issue it; docs/dialect.md lists every field and its verifier), the function
    `#tcp.final_waits<[...]>` and the module `tcp.makespan`, timed with the simulator's clock.
    Six choices are tried, each both ways, and the shortest schedule kept (ties: the first
    in the order below): ending a weight stream's parts one start-up apart when its cluster's
    spare engine is busy but frees three start-ups before they end (`stagger-busy-spare`);
    the kernel's first weight stream leaving each cluster's third stream engine to the
    streams after it, whose first part then starts at once (`leave-engine`); a weight stream
    at most a quarter as long as the stream the scheduler would pick, ready as soon and whose
    path would become the longer if it waited, going first (`short-streams-first`: the two
    share HBM, so the long one ends hardly later); a pass that leads, within half the cycles
    of the pass the scheduler would pick, to a DMA going before it (`unlock-dmas`: the DMA
    then runs beside the longer pass); a DM-to-DM copy, or a load of under 64 KB a cluster (a
    stream only for copying to every cluster), issued while a weight stream from HBM into its
    cluster is still to issue running on the cluster's spare engine alone, the streams before
    it leaving the spare to it (`beside-streams`: queued on the stream engines, it would hold
    the next stream back and leave HBM idle); a DMA with a longer path than the weight stream
    the scheduler would pick, ready before that stream's own cycles have passed, going first
    (`critical-dmas-first`: the stream has the slack; a fused stage's hand-off between its
    parts would otherwise wait behind the next part's weights). Each option forces its choice
    on or off; all sixty-four combinations run by default.
  }];
  let options = [
    Option<"staggerBusySpare", "stagger-busy-spare", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "stagger the streams whose spare is busy",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always stagger them"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never stagger them"))}]>,
    Option<"leaveEngine", "leave-engine", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "the first weight stream leaves an engine per cluster to the next",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always leave it"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never leave it"))}]>,
    Option<"shortStreamsFirst", "short-streams-first", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "a short weight stream that would become critical goes before a long one",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never"))}]>,
    Option<"unlockDmas", "unlock-dmas", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "a short pass leading to a DMA goes before a longer pass",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never"))}]>,
    Option<"besideStreams", "beside-streams", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "copies and small loads run on the spare engine while weight streams are to come",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never"))}]>,
    Option<"criticalDmasFirst", "critical-dmas-first", "rngd::tcp::ScheduleChoice",
           /*default=*/"rngd::tcp::ScheduleChoice::best",
           "a DMA on a longer path goes before a weight stream it would wait behind",
           [{::llvm::cl::values(
             clEnumValN(rngd::tcp::ScheduleChoice::best, "best", "the shorter of both"),
             clEnumValN(rngd::tcp::ScheduleChoice::always, "always", "always"),
             clEnumValN(rngd::tcp::ScheduleChoice::never, "never", "never"))}]>
  ];
}

#endif // TCP_PASSES_TD
