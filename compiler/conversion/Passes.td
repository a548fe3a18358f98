#ifndef RNGD_CONVERSION_PASSES_TD
#define RNGD_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTcpToRngd : Pass<"convert-tcp-to-rngd", "mlir::ModuleOp"> {
  let summary = "lower a scheduled tcp kernel to an rngd command stream";
  let description = [{
    Pre: one entry `func.func` after `tcp-allocate-memory` and `tcp-schedule`. Post: the
    function is replaced by an `rngd.executable` holding the argument table (HBM offsets
    aligned to 256 bytes, in argument order), one DMA descriptor per `tcp.dma` (loops derived
    from both mappings), the configuration blocks of every Tensor Unit pass (fetch and commit
    sequencers, vector steps, cast mode, slice-enable bitmaps) and the command words in
    program order: `dma` + `wait tag` per DMA, `load`s + `exec` + `wait` per pass.
  }];
  let dependentDialects = ["::rngd::RngdDialect"];
}

#endif // RNGD_CONVERSION_PASSES_TD
