// A pipeline that is one chip of a tensor-parallel group (Pipeline.h, docs/multichip.md): the
// decoder in two parts with an all-reduce after each, the embedding row from the chip that
// holds it, the logits gathered on rank 0, and rank 0's steps sent to the other ranks.
#include "qwen3/host/Bf16.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PipelineTables.h"

#include <algorithm>

namespace rngd::qwen3 {

namespace {

/// What rank 0 sends before each step: the token, its position and whether logits are wanted;
/// a negative token ends followSteps().
struct StepCommand {
  int32_t token = -1, position = 0, wantLogits = 0;
};

} // namespace

void Pipeline::setUpTensorParallel() {
  rngd::Buffer &x = *buffers_.at("x");
  rngd::Buffer &partial = buffer("tp.partial", uint64_t(cfg_.hiddenSize) * 2);
  bind(DecoderOut, "x", *buffers_.at("attention.out"));
  bind(DecoderOut, "sum_hbm", *buffers_.at("attention.sum"));
  // The residual goes into one chip's partial sum only: chip 0 adds its o-proj to x itself.
  bind(DecoderOut, "rx_hbm", tp_.collective->rank() == 0 ? x : partial);
  bind(DecoderMlp, "r_hbm", x);
  bind(DecoderMlp, "rx_hbm", partial);
}

void Pipeline::countLink(int64_t cycles) {
  // The link moves data at its bound: its time is its own roofline.
  StageStats &st = stats_[ChipLink];
  st.launches += 1;
  st.cycles += cycles;
  st.rooflineCycles += cycles;
  st.predictedCycles += cycles;
}

std::vector<uint16_t> Pipeline::allReduce(rngd::Buffer &b) {
  std::vector<uint16_t> values = read<uint16_t>(b);
  values.resize(size_t(cfg_.hiddenSize));
  allReduceBf16(*tp_.collective, values);
  countLink(allReduceCycles(device_.target(), tp_.collective->size(), cfg_.hiddenSize * 2));
  return values;
}

void Pipeline::tensorParallelDecoder(int layer, const LaunchInfo &at) {
  const bool first = tp_.collective->rank() == 0;
  const std::vector<uint16_t> zeros(size_t(cfg_.hiddenSize), 0);
  rngd::Buffer &x = *buffers_.at("x"), &partial = *buffers_.at("tp.partial");
  // r = x + sum over chips of W_o a (chip 0's partial holds x).
  if (!first)
    write(partial, zeros);
  bindLayer(DecoderOut, layer, kDecoderOutWeights);
  launch(DecoderOut, at);
  const std::vector<uint16_t> r = allReduce(first ? x : partial);
  write(x, r);
  // x = r + sum over chips of the MLP's block (chip 0's partial holds r).
  write(partial, first ? r : zeros);
  bindLayer(DecoderMlp, layer, kDecoderMlpWeights);
  launch(DecoderMlp, at);
  write(x, allReduce(partial));
}

std::vector<uint16_t> Pipeline::shardEmbeddingRow(int token) {
  // The chip whose vocabulary block holds the token reads its row; an all-reduce of the rows
  // (zeros on the other chips) brings it to every chip, as Megatron-LM's vocabulary-parallel
  // embedding does.
  const size_t H = size_t(cfg_.hiddenSize);
  const int owner = token / cfg_.vocabSize, local = token % cfg_.vocabSize;
  std::vector<uint16_t> row(H, 0);
  if (owner == tp_.collective->rank()) {
    const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
    std::copy_n(emb.data.begin() + ptrdiff_t(size_t(local) * H), H, row.begin());
  }
  tp_.collective->broadcast(row.data(), H * 2, owner);
  countLink(allReduceCycles(device_.target(), tp_.collective->size(), cfg_.hiddenSize * 2));
  return row;
}

void Pipeline::gatherLogits(std::vector<float> &logits) {
  const size_t shard = size_t(cfg_.vocabSize), chips = size_t(tp_.collective->size());
  std::vector<uint16_t> mine = read<uint16_t>(*buffers_.at("logits"));
  mine.resize(shard);
  std::vector<uint16_t> all(tp_.collective->rank() == 0 ? shard * chips : 0);
  tp_.collective->gather(mine.data(), shard * 2, all.data());
  countLink(gatherCycles(device_.target(), int(chips), int64_t(shard) * 2));
  logits.clear();
  if (tp_.collective->rank() != 0)
    return;
  logits.resize(size_t(tp_.vocab));
  for (size_t i = 0; i < logits.size(); ++i)
    logits[i] = bf16ToFloat(all[i]);
}

void Pipeline::followSteps() {
  std::vector<float> logits;
  for (;;) {
    StepCommand c;
    tp_.collective->broadcast(&c, sizeof c, 0);
    if (c.token < 0)
      return;
    runStep(c.token, c.position, c.wantLogits != 0, logits);
  }
}

void Pipeline::sendStep(int token, int pos, bool wantLogits) {
  StepCommand c{token, pos, wantLogits ? 1 : 0};
  tp_.collective->broadcast(&c, sizeof c, 0);
}

void Pipeline::endFollowers() {
  StepCommand end;
  tp_.collective->broadcast(&end, sizeof end, 0);
}

} // namespace rngd::qwen3
