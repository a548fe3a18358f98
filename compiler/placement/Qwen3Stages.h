// The Qwen3 stages as the placement generator builds them from a model's shape, the target and
// a token count: the decode stages (one token) and the prefill stages (T tokens per block).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
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

/// embedding, token_lookup, projection, attention_forward_first, attention_forward, decoder,
/// final_layer: the decode stages, in the order the host runs them.
const std::vector<std::string> &decodeStageNames();
/// prefill_projection, prefill_attention_first, prefill_attention, prefill_decoder.
const std::vector<std::string> &prefillStageNames();
/// 16, 32, 64, 128, 256, 512: the prefill block sizes.
const std::vector<int64_t> &prefillTokenCounts();
/// "prefill_projection" and 512 -> "prefill_projection_t512".
std::string prefillStageName(const std::string &stage, int64_t tokens);

/// Builds one stage (a decode stage name, or a prefill stage name with `tokens` its block
/// size), verified. An error names the stage, the placement rule the shape fails and the
/// numbers.
llvm::Expected<GeneratedStage> buildQwen3Stage(mlir::MLIRContext *context, const std::string &stage,
                                               const Qwen3Shape &shape, const TargetModel &target,
                                               int64_t tokens = 1);

/// The stage as a .mlir file: its header as `//` comment lines, then the module.
std::string printStage(GeneratedStage &stage);

} // namespace rngd::placement
