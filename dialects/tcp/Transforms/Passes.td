#ifndef TCP_PASSES_TD
#define TCP_PASSES_TD

include "mlir/Pass/PassBase.td"

def TcpAllocateMemory : Pass<"tcp-allocate-memory", "mlir::ModuleOp"> {
  let summary = "place every DM tensor at a per-slice address (liveness-based)";
  let description = [{
    Pre: verified tcp. Post: every op producing a DM tensor (`tcp.dma` to DM, `tcp.commit`)
    carries `tcp.dm_offset`, the byte offset of the tensor in each slice's Data Memory
    (identical on every slice). Tensors live from their definition to their last use in
    program order; a freed range is reused first-fit. Offsets are aligned to one full bank
    row (128 bytes). A kernel whose live tensors exceed a slice's 512 KB fails with the list
    of tensors live at the peak.
  }];
}

def TcpSchedule : Pass<"tcp-schedule", "mlir::ModuleOp"> {
  let summary = "assign contexts and predicted start/end cycles in program order";
  let description = [{
    Pre: `tcp-allocate-memory` ran. Post: every DMA and every Tensor Unit pass (on its
    `tcp.commit`) carries `tcp.schedule = {context, engine, start, end}` and the module
    carries `tcp.makespan`. This first scheduler keeps program order: each command waits for
    the previous one, and cycles come from the target model's cost functions, the same ones
    the simulator uses.
  }];
}

#endif // TCP_PASSES_TD
