// The Qwen3 stages placed and compiled in-process, behind a header without MLIR: what
// rngd-qwen3 calls (it has no MLIR of its own). Errors are text: the placement rule a shape
// fails, or the compiler's diagnostics.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3StageList.h"
#include "rngd/machine/TargetModel.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rngd::placement {

struct StageBinary {
  std::vector<uint8_t> executable; // the .rngd bytes
  std::string scheduleJson;        // rngdc --dump-schedule's JSON
};

/// Generates `stage` (with `tokens` its prefill block size; 1 for decode) and compiles it.
/// `poolChunks`: the KV pool's size in KV chunks (batch_kv_store's and the batched
/// attention's; the other stages ignore it).
bool compileQwen3Stage(const Qwen3Shape &shape, const TargetModel &target, const std::string &stage,
                       int64_t tokens, StageBinary &out, std::string &error,
                       int64_t poolChunks = 1);

/// What the host allocates before it loads any stage, read from the generated stages' HBM
/// arguments: the LM head's rows (final_layer's lm_head_weight, the vocabulary padded to whole
/// tiles) and the keys of one KV-cache chunk (attention_forward's k).
struct Qwen3Interface {
  int64_t paddedVocab = 0;
  int64_t kvChunk = 0;
};
bool qwen3Interface(const Qwen3Shape &shape, const TargetModel &target, Qwen3Interface &out,
                    std::string &error);

/// The byte size of each HBM argument of `stage` at block size `tokens`, by argument name:
/// what the host sizes device buffers with before it loads the stage.
bool qwen3ArgumentBytes(const Qwen3Shape &shape, const TargetModel &target,
                        const std::string &stage, int64_t tokens,
                        std::map<std::string, int64_t> &bytes, std::string &error,
                        int64_t poolChunks = 1);

/// Generates (and verifies) each of `stages` without compiling: the quick check that a model
/// can be placed, before a program loads any weight. `tokens` applies to the prefill stages.
bool checkQwen3Placement(const Qwen3Shape &shape, const TargetModel &target,
                         const std::vector<std::string> &stages, int64_t tokens,
                         std::string &error, int64_t poolChunks = 1);

} // namespace rngd::placement
