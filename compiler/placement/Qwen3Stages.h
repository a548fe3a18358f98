// The Qwen3 stages as the placement generator builds them from a model's shape, the target and
// a token count: the decode stages (one token) and the prefill stages (T tokens per block).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3StageList.h"
#include "rngd/machine/TargetModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace rngd::placement {

struct GeneratedStage {
  std::string name;   // the file stem: "projection", "prefill_projection_t512"
  std::string header; // paragraphs of the header comment, without comment markers
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Builds one stage (a decode stage name, or a prefill stage name with `tokens` its block
/// size), verified. An error names the stage, the placement rule the shape fails and the
/// numbers. `poolChunks`: the KV pool's size in KV chunks, read by batch_kv_store,
/// batch_attention_first and batch_attention only.
llvm::Expected<GeneratedStage> buildQwen3Stage(mlir::MLIRContext *context, const std::string &stage,
                                               const Qwen3Shape &shape, const TargetModel &target,
                                               int64_t tokens = 1, int64_t poolChunks = 1);

/// The stage as a .mlir file: its header as `//` comment lines, then the module.
std::string printStage(GeneratedStage &stage);

} // namespace rngd::placement
