#include "qwen3/host/ShardWeights.h"

#include "qwen3/host/SeededWeights.h"

#include <functional>
#include <stdexcept>

namespace rngd::qwen3 {

Qwen3Config shardConfig(const Qwen3Config &full, int chips) {
  Qwen3Config c = full;
  c.numHeads = full.numHeads / chips;
  c.numKvHeads = full.numKvHeads / chips;
  c.intermediateSize = full.intermediateSize / chips;
  c.vocabSize = (full.vocabSize + chips - 1) / chips;
  return c;
}

namespace {

/// Where chip `rank`'s part of a tensor lies in the whole: rows [row, row + rows) and columns
/// [col, col + cols) of a matrix (a vector: one row).
struct Block {
  int64_t row = 0, rows = 1, col = 0, cols = 0;
};

Block shardBlock(const std::string &name, const Qwen3Config &full, const Qwen3Config &shard,
                 int rank) {
  const int64_t H = full.hiddenSize, Q = shard.qDim(), P = shard.kvDim(),
                L = shard.intermediateSize, V = shard.vocabSize;
  auto endsWith = [&](const char *suffix) {
    const std::string s = suffix;
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (name == "model.embed_tokens.weight" || name == "lm_head.weight")
    return {rank * V, V, 0, H};
  if (endsWith("q_proj.weight"))
    return {rank * Q, Q, 0, H};
  if (endsWith("k_proj.weight") || endsWith("v_proj.weight"))
    return {rank * P, P, 0, H};
  if (endsWith("gate_proj.weight") || endsWith("up_proj.weight"))
    return {rank * L, L, 0, H};
  if (endsWith("o_proj.weight"))
    return {0, H, rank * Q, Q};
  if (endsWith("down_proj.weight"))
    return {0, H, rank * L, L};
  const int64_t length = endsWith("q_norm.weight") || endsWith("k_norm.weight") ? full.headDim : H;
  return {0, 1, 0, length}; // a norm: whole
}

using BlockReader = std::function<bool(const std::string &, const Block &, Bf16Tensor &)>;

/// The shard's tensors, each read by `read`; the tied head shares the embedding's block.
bool buildShard(const Qwen3Config &full, int rank, int chips, const BlockReader &read,
                std::unique_ptr<Weights> &out, std::string &error) {
  const Qwen3Config shard = shardConfig(full, chips);
  auto weights = std::make_unique<Weights>(shard);
  for (const TensorSpec &spec : expectedTensors(shard)) {
    if (spec.name == "lm_head.weight" && full.tieWordEmbeddings) {
      if (!weights->set(spec.name, weights->shared("model.embed_tokens.weight"), error))
        return false;
      continue;
    }
    Bf16Tensor t;
    if (!read(spec.name, shardBlock(spec.name, full, shard, rank), t))
      return false;
    if (!weights->set(spec.name, std::move(t), error))
      return false;
  }
  out = std::move(weights);
  return true;
}

} // namespace

bool loadHfShard(const std::string &dir, const LoadOptions &options, int rank, int chips,
                 std::unique_ptr<Weights> &out, std::string &error) {
  Qwen3Config config;
  HfCheckpoint file;
  if (!openHfCheckpoint(dir, options, config, file, error))
    return false;
  return buildShard(
      config, rank, chips,
      [&](const std::string &name, const Block &b, Bf16Tensor &t) {
        return file.file(name)->readBf16Block(name, b.row, b.rows, b.col, b.cols, t, error);
      },
      out, error);
}

std::unique_ptr<Weights> seededShard(const Qwen3Config &full, uint64_t seed, int rank,
                                     int chips) {
  const std::vector<TensorSpec> specs = expectedTensors(full);
  std::unique_ptr<Weights> out;
  std::string error;
  bool ok = buildShard(
      full, rank, chips,
      [&](const std::string &name, const Block &b, Bf16Tensor &t) {
        const TensorSpec &spec = *findSpec(specs, name);
        const int64_t height = spec.shape.size() == 1 ? 1 : spec.shape[0];
        const int64_t width = spec.shape.back();
        t.shape = spec.shape.size() == 1 ? std::vector<int64_t>{b.cols}
                                         : std::vector<int64_t>{b.rows, b.cols};
        t.data.assign(size_t(b.rows * b.cols), 0);
        for (int64_t r = 0; r < b.rows && b.row + r < height; ++r)
          for (int64_t c = 0; c < b.cols; ++c)
            t.data[size_t(r * b.cols + c)] =
                seededValue(seed, spec, uint64_t((b.row + r) * width + b.col + c));
        return true;
      },
      out, error);
  if (!ok)
    throw std::runtime_error("seeding the shard: " + error);
  return out;
}

} // namespace rngd::qwen3
