// The prompt through the multi-token stages (Pipeline.h, docs/prefill.md): the prefill weights
// and buffers, a block's launches per layer, its RoPE tables and causal masks, and the
// per-boundary check of a block under --check.
#include "compiler/placement/Qwen3StageList.h"
#include "qwen3/host/Bf16.h"
#include "qwen3/host/CheckStatus.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PipelineTables.h"
#include "qwen3/host/RopeTables.h"

#include <algorithm>
#include <stdexcept>

namespace rngd::qwen3 {

void Pipeline::uploadPrefillWeights(const rngd::ArgInfo &qkvArg) {
  const size_t H = cfg_.hiddenSize, Q = cfg_.qDim(), kv = cfg_.kvDim(), D = cfg_.headDim;
  const size_t rows = Q + 2 * kv;
  if (prefillWeights_) { // uploaded for another kernel: it must read the same layout
    if (qkvArg.mapping != prefillWeightLayout_)
      throw std::runtime_error("internal error: the multi-token stages' qkv_weight layouts "
                               "differ (" + prefillWeightLayout_ + " and " + qkvArg.mapping +
                               ")");
    return;
  }
  prefillWeights_ = true;
  prefillWeightLayout_ = qkvArg.mapping;
  // qkv_weight [O, H]: q's, k's and v's rows, laid out as the stage's argument says (each part
  // of h a tile the stage loads by itself).
  const HbmLayout layout = HbmLayout::of(qkvArg, {{"O", int64_t(rows)}, {"H", int64_t(H)}});
  for (int L = 0; L < cfg_.numLayers; ++L) {
    std::vector<uint16_t> qkv(layout.cells(), 0);
    size_t o = 0;
    for (const char *suffix :
         {"self_attn.q_proj.weight", "self_attn.k_proj.weight", "self_attn.v_proj.weight"}) {
      const Bf16Tensor &t = w_.layer(L, suffix);
      for (size_t r = 0; r < t.data.size() / H; ++r, ++o)
        for (size_t h = 0; h < H; ++h)
          qkv[layout.at({int64_t(o), int64_t(h)})] = t.data[r * H + h];
    }
    write(buffer(layerTensorName(L, "prefill.qkv_weight"), layout.cells() * 2), qkv);
    std::vector<uint16_t> norms(rows, 0);
    const Bf16Tensor &qn = w_.layer(L, "self_attn.q_norm.weight");
    const Bf16Tensor &kn = w_.layer(L, "self_attn.k_norm.weight");
    for (size_t r = 0; r < Q + kv; ++r)
      norms[r] = r < Q ? qn.data[r % D] : kn.data[r % D];
    write(buffer(layerTensorName(L, "prefill.head_rms_weight"), rows * 2), norms);
  }
}

namespace {
// The MLP's tensors, and their padded copies' names (a layer's prefill.<suffix>).
const char *const kMlpWeights[] = {"mlp.gate_proj.weight", "mlp.up_proj.weight",
                                   "mlp.down_proj.weight"};
} // namespace

void Pipeline::uploadPaddedMlp(const rngd::ArgInfo &gateArg, const rngd::ArgInfo &downArg,
                               const std::string &axisPrefix) {
  const int64_t H = cfg_.hiddenSize, L = cfg_.intermediateSize;
  const int64_t Lp = int64_t(gateArg.bytes / uint64_t(H * 2));
  if (Lp == L || paddedMlp_) // the model's own, or uploaded for another kernel
    return;
  if (Lp < L || gateArg.bytes != uint64_t(Lp * H * 2))
    throw std::runtime_error("internal error: the prefill decoder's gate_weight holds " +
                             std::to_string(gateArg.bytes) + " bytes, not a padding of " +
                             std::to_string(L) + " rows of " + std::to_string(H));
  paddedMlp_ = true;
  // gate and up [L, H] as [Lp, H], down [H, L] as [H, Lp]: the rows and columns past L zero.
  const std::string l = axisPrefix + "L", h = axisPrefix + "H";
  const HbmLayout rows = HbmLayout::of(gateArg, {{l, Lp}, {h, H}});
  const HbmLayout columns = HbmLayout::of(downArg, {{h, H}, {l, Lp}});
  for (int layer = 0; layer < cfg_.numLayers; ++layer)
    for (const char *suffix : kMlpWeights) {
      const Bf16Tensor &t = w_.layer(layer, suffix);
      const bool down = std::string(suffix) == "mlp.down_proj.weight";
      std::vector<uint16_t> cells(down ? columns.cells() : rows.cells(), 0);
      for (int64_t l = 0; l < L; ++l)
        for (int64_t h = 0; h < H; ++h)
          cells[down ? columns.at({h, l}) : rows.at({l, h})] =
              t.data[down ? size_t(h * L + l) : size_t(l * H + h)];
      write(buffer(layerTensorName(layer, std::string("prefill.") + suffix), cells.size() * 2),
            cells);
    }
}

void Pipeline::bindPrefillDecoder(int s, int layer,
                                  const std::vector<std::pair<const char *, const char *>> &args) {
  for (const auto &[arg, suffix] : args) {
    const bool mlp = std::find(std::begin(kMlpWeights), std::end(kMlpWeights),
                               std::string(suffix)) != std::end(kMlpWeights);
    const std::string name = paddedMlp_ && mlp ? std::string("prefill.") + suffix : suffix;
    bind(s, arg, *buffers_.at(layerTensorName(layer, name)));
  }
}

void Pipeline::setUpPrefill(const std::vector<int> &sizes) {
  const size_t H = cfg_.hiddenSize, Q = cfg_.qDim(), D = cfg_.headDim;
  const auto &first = prefill_.begin()->second.kernels;
  uploadPrefillWeights(*first[0]->findArg("qkv_weight"));
  const int mlp = tp_.collective ? PrefillDecoderMlp : PrefillAttentionDecoder;
  const auto &decoder = *first[size_t(mlp - PrefillProjection)];
  uploadPaddedMlp(*decoder.findArg("gate_weight"), *decoder.findArg("down_weight"),
                  mlp == PrefillAttentionDecoder ? rngd::placement::kFusedDecoderAxisPrefix : "");
  // The activations, each as large as the largest block's argument; every block size's
  // kernels bind views of their first bytes.
  for (const auto &[name, bytes] : prefillBufferBytes(cfg_, device_.target(), sizes))
    buffer(name, bytes);
  if (tp_.collective)
    setUpTensorParallelPrefill();
  const std::vector<int> loaded = prefillStages();
  for (auto &[T, set] : prefill_) {
    selectBlock(T);
    for (const auto &[s, args] : kPrefillBindings)
      for (const auto &[arg, name] : args)
        if (std::find(loaded.begin(), loaded.end(), s) != loaded.end())
          bindView(s, arg, *buffers_.at(name));
    auto layout = [&](int s, const char *arg, std::vector<std::pair<std::string, int64_t>> axes) {
      return HbmLayout::of(*k_[s]->findArg(arg), axes);
    };
    set.x = layout(PrefillProjection, "x", {{"T", T}, {"H", int64_t(H)}});
    set.rope = layout(PrefillProjection, "cos", {{"T", T}, {"F", int64_t(D / 2)}});
    set.q = layout(PrefillProjection, "q_out", {{"T", T}, {"Q", int64_t(Q)}});
    set.attn = layout(tp_.collective ? PrefillDecoderOut : PrefillAttentionDecoder, "attn",
                      {{"T", T}, {"Q", int64_t(Q)}});
  }
}

std::vector<int> Pipeline::prefillStages() const {
  if (tp_.collective) {
    std::vector<int> stages = {PrefillProjection, PrefillAttention};
    if (chunkLoaded_)
      stages.push_back(PrefillAttentionChunk);
    stages.insert(stages.end(), {PrefillDecoderOut, PrefillDecoderMlp});
    return stages;
  }
  std::vector<int> stages = prefillStagesUsed();
  if (partialLoaded_)
    stages.push_back(PrefillAttentionPartial);
  return stages;
}

void Pipeline::selectBlock(int size) {
  PrefillSet &set = prefill_.at(size);
  for (int s : prefillStages()) {
    k_[s] = set.kernels[s - PrefillProjection].get();
    sched_[s] = &set.schedules[s - PrefillProjection];
  }
}


std::vector<int> Pipeline::prefillSizes() const {
  std::vector<int> sizes;
  for (const auto &[T, set] : prefill_)
    sizes.push_back(T);
  return sizes;
}

std::vector<Pipeline::PrefillPiece> Pipeline::prefillPlan(int start, int n,
                                                         const std::vector<int> &sizes,
                                                         bool partialLoaded) {
  if (sizes.empty() || sizes.back() > kChunk || !std::is_sorted(sizes.begin(), sizes.end()))
    throw std::runtime_error("internal error: prefill block sizes must ascend, at most a KV "
                             "chunk (" + std::to_string(kChunk) + " tokens)");
  std::vector<PrefillPiece> plan;
  for (int pos = start, end = start + n; pos < end;) {
    const int row = pos % kChunk, room = kChunk - row, left = std::min(end - pos, room);
    int size = 0;
    if (row == 0 || partialLoaded) {
      int largest = 0; // that fits the chunk's room, else the smallest that covers the rest
      for (int t : sizes)
        if (t <= room) {
          largest = t;
          if (size == 0 && t >= left)
            size = t;
        }
      if (size == 0)
        size = largest;
    }
    const int count = size ? std::min(left, size) : 1;
    plan.push_back({pos, count, size});
    pos += count;
  }
  return plan;
}

void Pipeline::prefill(const std::vector<int> &tokens, int start, int size, bool wantLogits,
                       std::vector<float> &logits) {
  if (tp_.collective) // the other ranks' followSteps() run it too
    sendPrefill(tokens, start, size, wantLogits);
  runPrefill(tokens, start, size, wantLogits, logits);
}

void Pipeline::runPrefill(const std::vector<int> &tokens, int start, int size, bool wantLogits,
                          std::vector<float> &logits) {
  auto found = prefill_.find(size);
  if (found == prefill_.end())
    throw std::runtime_error("internal error: prefill block of " + std::to_string(size) +
                             " tokens on a pipeline made without it");
  const PrefillSet &set = found->second;
  selectBlock(size);
  const size_t n = tokens.size(), H = cfg_.hiddenSize, T = size_t(size);
  if (n < 1 || n > T)
    throw std::runtime_error("prefill of " + std::to_string(n) + " tokens: a block of " +
                             std::to_string(T) + " holds 1.." + std::to_string(T) + " tokens");
  const int chunk = start / kChunk, row = start % kChunk;
  if (start < 0 || row + size > kChunk || (row > 0 && !partialLoaded_) ||
      (chunk > 0 && !chunkLoaded_))
    throw std::runtime_error("internal error: a prefill block of " + std::to_string(size) +
                             " tokens cannot start at position " + std::to_string(start));
  // The block's embedding rows (zero rows after the prompt: the causal mask keeps them from
  // the prompt's tokens, and decode overwrites their K/V rows position by position).
  for (int token : tokens)
    checkToken(token);
  const std::vector<uint16_t> rows =
      tp_.collective ? shardEmbeddingRows(tokens) : std::vector<uint16_t>();
  const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
  std::vector<uint16_t> xb(set.x.cells(), 0);
  for (size_t t = 0; t < n; ++t)
    for (size_t h = 0; h < H; ++h)
      xb[set.x.at({int64_t(t), int64_t(h)})] =
          tp_.collective ? rows[t * H + h] : emb.data[size_t(tokens[t]) * H + h];
  rngd::Buffer *x = buffers_.at("prefill.x0"), *y = buffers_.at("prefill.x1");
  write(*x, xb);
  writeRopeTables(set, size_t(start), T);
  writeMasks();
  if (row > 0) { // the chunk's rows before the block: visible; the rest masked
    std::vector<float> keyMask(kChunk, kMasked);
    std::fill(keyMask.begin(), keyMask.begin() + row, 0.0f);
    write(*buffers_.at("prefill.key_mask"), keyMask);
  }

  // The state a block's attention starts from: nothing seen (alpha = 0 on the first chunk).
  const size_t heads = cfg_.numHeads, Q = cfg_.qDim();
  const std::vector<float> m0(T * heads, kMasked), l0(T * heads, 0.0f), o0(T * Q, 0.0f);
  for (int L = 0; L < cfg_.numLayers; ++L) {
    bindLayer(PrefillProjection, L, kPrefillProjectionWeights);
    bindView(PrefillProjection, "x", *x);
    bindChunk(PrefillProjection, "k_cache", L, 'k', chunk, row);
    bindChunk(PrefillProjection, "v_cache", L, 'v', chunk, row);
    launch(PrefillProjection);
    write(*buffers_.at("prefill.max"), m0);
    write(*buffers_.at("prefill.sum"), l0);
    write(*buffers_.at("prefill.out"), o0);
    for (int c = 0; c < chunk; ++c) {
      bindChunk(PrefillAttentionChunk, "k_cache", L, 'k', c);
      bindChunk(PrefillAttentionChunk, "v_cache", L, 'v', c);
      launch(PrefillAttentionChunk);
    }
    if (row > 0) {
      bindChunk(PrefillAttentionPartial, "k_cache", L, 'k', chunk);
      bindChunk(PrefillAttentionPartial, "v_cache", L, 'v', chunk);
      launch(PrefillAttentionPartial);
    }
    if (tp_.collective) { // the layer's output back in x
      bindChunk(PrefillAttention, "k_cache", L, 'k', chunk, row);
      bindChunk(PrefillAttention, "v_cache", L, 'v', chunk, row);
      launch(PrefillAttention);
      tensorParallelPrefillDecoder(L, *x, *y);
      continue;
    }
    // The block's own chunk and the decoder in one kernel.
    const int fused = PrefillAttentionDecoder;
    bindChunk(fused, "k_cache", L, 'k', chunk, row);
    bindChunk(fused, "v_cache", L, 'v', chunk, row);
    bindPrefillDecoder(fused, L, kDecoderWeights);
    check(k_[fused]->unbind("y"), "prefill_attention_decoder.y"); // the buffers swap each layer
    bindView(fused, "x", *x);
    bindView(fused, "y", *y);
    LaunchInfo at;
    at.layer = L;
    at.position = start;
    at.tokens = int(n);
    at.size = size;
    at.x = x == buffers_.at("prefill.x0") ? "prefill.x0" : "prefill.x1";
    at.y = x == buffers_.at("prefill.x0") ? "prefill.x1" : "prefill.x0";
    launch(fused, at);
    std::swap(x, y);
  }
  if (!wantLogits)
    return;
  // final_layer on the last token's row, copied into the decode stages' x.
  std::vector<uint16_t> last = read<uint16_t>(*x), lastRow(H);
  for (size_t h = 0; h < H; ++h)
    lastRow[h] = last[set.x.at({int64_t(n - 1), int64_t(h)})];
  write(*buffers_.at("x"), lastRow);
  finalLogits(logits);
}

void Pipeline::writeRopeTables(const PrefillSet &set, size_t first, size_t rows) {
  // RoPE tables of the block's positions, as step() computes them (without the sign of
  // rotate_half: the stage applies it), in prefill_projection's layout.
  const size_t F = size_t(cfg_.headDim) / 2;
  std::vector<uint16_t> cos, sin, cosb(set.rope.cells(), 0), sinb(set.rope.cells(), 0);
  prefillRopeTables(cfg_, first, rows, cos, sin);
  for (size_t t = 0; t < rows; ++t)
    for (size_t f = 0; f < F; ++f) {
      size_t at = set.rope.at({int64_t(t), int64_t(f)});
      cosb[at] = cos[t * F + f];
      sinb[at] = sin[t * F + f];
    }
  write(*buffers_.at("prefill.cos"), cosb);
  write(*buffers_.at("prefill.sin"), sinb);
}

void Pipeline::writeMasks() {
  // The causal masks of the selected block size (positions relative to the block): whole key
  // tiles before the query's tile (tile_mask [TB, SB, TQ]: key tile SB of query tile TB), and
  // within the query's own tile (diag_mask [TT, SI, TQ]: key SI of the tile against query
  // TT x |TQ| + TQ). An axis the stage leaves out (one tile) is 0.
  auto fill = [&](const char *arg, const char *buffer, auto open) {
    const rngd::ArgInfo &a =
        *k_[tp_.collective ? PrefillAttention : PrefillAttentionDecoder]->findArg(arg);
    std::vector<std::pair<std::string, int64_t>> axes = HbmLayout::wholeAxes(a);
    std::map<std::string, int64_t> size;
    for (const auto &[name, n] : axes)
      size[name] = n;
    std::vector<float> cells(a.bytes / 4);
    for (size_t c = 0; c < cells.size(); ++c) {
      std::map<std::string, int64_t> at;
      for (size_t i = 0, rest = c; i < axes.size(); ++i) {
        size_t j = axes.size() - 1 - i;
        at[axes[j].first] = int64_t(rest % size_t(axes[j].second));
        rest /= size_t(axes[j].second);
      }
      cells[c] = open(at, size) ? 0.0f : kMasked;
    }
    write(*buffers_.at(buffer), cells);
  };
  auto get = [](const std::map<std::string, int64_t> &m, const char *k) {
    auto it = m.find(k);
    return it == m.end() ? int64_t(0) : it->second;
  };
  fill("tile_mask", "prefill.tile_mask", [&](const auto &at, const auto &) {
    return get(at, "SB") < get(at, "TB");
  });
  fill("diag_mask", "prefill.diag_mask", [&](const auto &at, const auto &size) {
    return get(at, "SI") <= get(at, "TT") * get(size, "TQ") + get(at, "TQ");
  });
}


} // namespace rngd::qwen3
