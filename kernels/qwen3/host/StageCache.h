// The compiled stages of a model, generated and compiled in-process on first use and kept in
// the user's cache directory under a key of the model's shape, the target and the compiler
// build, so that later runs load them (docs/qwen3.md, "Stage cache").
#pragma once

#include "qwen3/host/Model.h"

#include "compiler/placement/Qwen3Shape.h"

#include "rngd/machine/TargetModel.h"

#include <map>
#include <string>
#include <vector>

namespace rngd::qwen3 {

/// The placement generator's view of `config`: its sizes and numerics.
placement::Qwen3Shape shapeOf(const Qwen3Config &config);

/// The sizes of the generated stages' HBM interface for `config` (the LM head's padded rows,
/// a KV chunk's keys), computed once per shape. Throws std::runtime_error with the placement
/// rule when the shape cannot be placed.
struct StageInterface {
  int64_t paddedVocab = 0;
  int64_t kvChunk = 0;
};
const StageInterface &stageInterface(const Qwen3Config &config, const TargetModel &target);

/// The byte size of each HBM argument of the generated `stage` at block size `tokens` (by
/// argument name), computed once per shape: what buffers are sized with before any stage
/// loads. Throws std::runtime_error with the placement rule when the shape cannot be placed.
const std::map<std::string, int64_t> &stageArgumentBytes(const Qwen3Config &config,
                                                         const TargetModel &target,
                                                         const std::string &stage, int tokens);

/// Whether the stage generator places `stages` for `config` (`tokens`: the prefill block size,
/// 1 for decode): what rngd-qwen3 asks before any slow work (the stages are generated and
/// verified, not compiled). False with the rule that fails.
bool checkPlacement(const Qwen3Config &config, const TargetModel &target,
                    const std::vector<std::string> &stages, int tokens, std::string &error);

/// $RNGD_CACHE_DIR, else $XDG_CACHE_HOME/rngd, else $HOME/.cache/rngd.
std::string cacheRoot();

/// "rngdc 0.1.0, build 0123456789abcdef": the version and a hash of the running executable,
/// which holds the generator and the compiler, so any change to either is a new key.
const std::string &compilerBuild();

/// cacheRoot()/qwen3-<16 hex digits>: the directory of this shape's stages for `target`.
std::string stageCacheDir(const Qwen3Config &config, const TargetModel &target);

/// Makes sure dir/<file>.rngd and dir/<file>.json exist: generates the stage (`tokens` its
/// prefill or batch block size, 1 for decode; `poolChunks` the KV pool batch_kv_store scatters
/// into) and compiles it when they do not. Files are written under
/// a temporary name and renamed, so concurrent runs never read half a file. False with
/// `error` (the placement rule the shape fails, or the compiler's messages) otherwise.
bool ensureStage(const std::string &dir, const Qwen3Config &config, const TargetModel &target,
                 const std::string &stage, int tokens, const std::string &file,
                 std::string &error, int poolChunks = 1);

} // namespace rngd::qwen3
