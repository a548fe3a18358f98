// A pipeline that is one chip of a tensor-parallel group (Pipeline.h, docs/multichip.md): the
// decoder in two parts with an all-reduce after each, the embedding row from the chip that
// holds it, the logits gathered on rank 0, and rank 0's steps sent to the other ranks.
#include "qwen3/host/Bf16.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PipelineTables.h"

#include <algorithm>

namespace rngd::qwen3 {

namespace {

/// What rank 0 sends before each step or prefill block (a prefill's tokens follow it).
struct Command {
  enum Kind : int32_t { End, Step, Prefill };
  int32_t kind = End;
  int32_t token = 0;    // Step: the token; Prefill: the block's prompt tokens
  int32_t position = 0; // the token's position; the block's first
  int32_t size = 0;     // Prefill: the block size
  int32_t wantLogits = 0;
};

} // namespace

void Pipeline::setUpTensorParallelPrefill() {
  // The residual the chips other than 0 add: zeros, as large as a block's x.
  rngd::Buffer &x = *buffers_.at("prefill.x0");
  write(buffer("prefill.zero", x.bytes()), std::vector<uint16_t>(x.bytes() / 2, 0));
}

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

std::vector<uint16_t> Pipeline::allReduce(rngd::Buffer &b, size_t values) {
  std::vector<uint16_t> v = read<uint16_t>(b);
  v.resize(values ? values : size_t(cfg_.hiddenSize));
  allReduceBf16(*tp_.collective, v);
  countLink(allReduceCycles(device_.target(), tp_.collective->size(), int64_t(v.size()) * 2));
  return v;
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

void Pipeline::tensorParallelPrefillDecoder(int layer, rngd::Buffer &x, rngd::Buffer &y) {
  // As tensorParallelDecoder, for a block: chip 0 adds the residual, the others zeros (the
  // block's whole buffers are summed: every chip lays them out alike). y holds r between the
  // parts; the layer's output goes back into x.
  const bool first = tp_.collective->rank() == 0;
  const size_t cells = y.bytes() / 2;
  rngd::Buffer &zero = *buffers_.at("prefill.zero");
  bindLayer(PrefillDecoderOut, layer, kDecoderOutWeights);
  check(k_[PrefillDecoderOut]->unbind("y"), "prefill_decoder_out.y");
  bindView(PrefillDecoderOut, "x", first ? x : zero);
  bindView(PrefillDecoderOut, "y", y);
  launch(PrefillDecoderOut);
  write(y, allReduce(y, cells));
  bindPrefillDecoder(PrefillDecoderMlp, layer, kDecoderMlpWeights);
  check(k_[PrefillDecoderMlp]->unbind("y"), "prefill_decoder_mlp.y");
  bindView(PrefillDecoderMlp, "r", y);
  bindView(PrefillDecoderMlp, "x", first ? y : zero);
  bindView(PrefillDecoderMlp, "y", x);
  launch(PrefillDecoderMlp);
  write(x, allReduce(x, cells)); // the layer's output, in x as its input was
}

std::vector<uint16_t> Pipeline::shardEmbeddingRows(const std::vector<int> &tokens) {
  // Each chip fills the rows of its vocabulary block, zeros elsewhere; the all-reduce gives
  // every chip every row (a sum with one non-zero term: exact).
  const size_t H = size_t(cfg_.hiddenSize);
  const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
  std::vector<uint16_t> rows(tokens.size() * H, 0);
  for (size_t t = 0; t < tokens.size(); ++t)
    if (tokens[t] / cfg_.vocabSize == tp_.collective->rank())
      std::copy_n(emb.data.begin() + ptrdiff_t(size_t(tokens[t] % cfg_.vocabSize) * H), H,
                  rows.begin() + ptrdiff_t(t * H));
  allReduceBf16(*tp_.collective, rows);
  countLink(allReduceCycles(device_.target(), tp_.collective->size(), int64_t(rows.size()) * 2));
  return rows;
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
    Command c;
    tp_.collective->broadcast(&c, sizeof c, 0);
    if (c.kind == Command::Step) {
      runStep(c.token, c.position, c.wantLogits != 0, logits);
    } else if (c.kind == Command::Prefill) {
      std::vector<int32_t> tokens(size_t(c.token));
      tp_.collective->broadcast(tokens.data(), tokens.size() * sizeof(int32_t), 0);
      runPrefill(std::vector<int>(tokens.begin(), tokens.end()), c.position, c.size,
                 c.wantLogits != 0, logits);
    } else {
      return;
    }
  }
}

void Pipeline::sendStep(int token, int pos, bool wantLogits) {
  Command c{Command::Step, token, pos, 0, wantLogits ? 1 : 0};
  tp_.collective->broadcast(&c, sizeof c, 0);
}

void Pipeline::sendPrefill(const std::vector<int> &tokens, int start, int size,
                           bool wantLogits) {
  Command c{Command::Prefill, int32_t(tokens.size()), start, size, wantLogits ? 1 : 0};
  tp_.collective->broadcast(&c, sizeof c, 0);
  std::vector<int32_t> ids(tokens.begin(), tokens.end());
  tp_.collective->broadcast(ids.data(), ids.size() * sizeof(int32_t), 0);
}

void Pipeline::endFollowers() {
  Command end;
  tp_.collective->broadcast(&end, sizeof end, 0);
}

} // namespace rngd::qwen3
