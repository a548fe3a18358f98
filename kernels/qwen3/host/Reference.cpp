#include "qwen3/host/Reference.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/ReferenceOps.h"

#include <stdexcept>

namespace rngd::qwen3 {

namespace {

bool sameShapes(const Qwen3Config &a, const Qwen3Config &b) {
  return a.hiddenSize == b.hiddenSize && a.numHeads == b.numHeads && a.numKvHeads == b.numKvHeads &&
         a.headDim == b.headDim && a.intermediateSize == b.intermediateSize &&
         a.vocabSize == b.vocabSize && a.numLayers == b.numLayers;
}

} // namespace

ReferenceDecoder::ReferenceDecoder(const Qwen3Config &config, const Weights &weights, int threads)
    : config_(config), weights_(weights), threads_(threads) {
  std::string error;
  if (!config.validate(error))
    throw std::invalid_argument(error);
  if (!sameShapes(config, weights.config()))
    throw std::invalid_argument("ReferenceDecoder: the weights were built for another config");
  if (!weights.complete(error))
    throw std::invalid_argument("ReferenceDecoder: " + error);
  reset();
}

void ReferenceDecoder::reset() {
  length_ = 0;
  keys_.assign(config_.numLayers, {});
  values_.assign(config_.numLayers, {});
}

void ReferenceDecoder::preloadCache(int length, std::vector<std::vector<float>> keys,
                                    std::vector<std::vector<float>> values) {
  const size_t rows = size_t(length) * size_t(config_.kvDim());
  if (length < 0 || int(keys.size()) != config_.numLayers ||
      int(values.size()) != config_.numLayers)
    throw std::invalid_argument("ReferenceDecoder::preloadCache: need one key and one value "
                                "cache per layer and a non-negative length");
  for (int l = 0; l < config_.numLayers; ++l)
    if (keys[l].size() != rows || values[l].size() != rows)
      throw std::invalid_argument("ReferenceDecoder::preloadCache: layer " + std::to_string(l) +
                                  " cache is not [" + std::to_string(length) + "][" +
                                  std::to_string(config_.kvDim()) + "]");
  keys_ = std::move(keys);
  values_ = std::move(values);
  length_ = length;
}

std::vector<float> ReferenceDecoder::step(int token, int position) {
  const Qwen3Config &c = config_;
  if (token < 0 || token >= c.vocabSize)
    throw std::invalid_argument("ReferenceDecoder::step: token " + std::to_string(token) +
                                " outside the vocabulary of " + std::to_string(c.vocabSize));
  if (position != length_)
    throw std::invalid_argument("ReferenceDecoder::step: position " + std::to_string(position) +
                                " but the KV cache holds " + std::to_string(length_));
  const int H = c.hiddenSize, Q = c.qDim(), P = c.kvDim(), D = c.headDim, L = c.intermediateSize;
  const double eps = c.rmsNormEps;

  std::vector<float> x(H);
  const uint16_t *row = weights_.get("model.embed_tokens.weight").data.data() + size_t(token) * H;
  for (int i = 0; i < H; ++i)
    x[i] = bf16ToFloat(row[i]);
  if (traceOn_) {
    trace_ = StepTrace();
    trace_.embedding = x;
    trace_.layers.resize(c.numLayers);
  }

  std::vector<float> h(H), q(Q), k(P), v(P), attn(Q), o(H), gate(L), up(L), down(H);
  for (int layer = 0; layer < c.numLayers; ++layer) {
    auto W = [&](const char *suffix) -> const Bf16Tensor & { return weights_.layer(layer, suffix); };

    // Attention block.
    ref::rmsNorm(x.data(), H, W("input_layernorm.weight").data.data(), eps, h.data());
    ref::gemv(W("self_attn.q_proj.weight"), h.data(), q.data(), threads_);
    ref::gemv(W("self_attn.k_proj.weight"), h.data(), k.data(), threads_);
    ref::gemv(W("self_attn.v_proj.weight"), h.data(), v.data(), threads_);
    const uint16_t *qNorm = W("self_attn.q_norm.weight").data.data();
    const uint16_t *kNorm = W("self_attn.k_norm.weight").data.data();
    for (int head = 0; head < c.numHeads; ++head) {
      float *qh = q.data() + size_t(head) * D;
      ref::rmsNorm(qh, D, qNorm, eps, qh);
      ref::applyRope(qh, D, position, c.ropeTheta);
    }
    for (int head = 0; head < c.numKvHeads; ++head) {
      float *kh = k.data() + size_t(head) * D;
      ref::rmsNorm(kh, D, kNorm, eps, kh);
      ref::applyRope(kh, D, position, c.ropeTheta);
    }
    keys_[layer].insert(keys_[layer].end(), k.begin(), k.end());
    values_[layer].insert(values_[layer].end(), v.begin(), v.end());
    const int cacheLength = position + 1;

    LayerTrace *t = traceOn_ ? &trace_.layers[layer] : nullptr;
    std::vector<float> probs;
    for (int head = 0; head < c.numHeads; ++head) {
      ref::attendOneHead(q.data() + size_t(head) * D, keys_[layer], values_[layer], cacheLength, P,
                         c.kvHeadOf(head), D, position, attn.data() + size_t(head) * D,
                         t ? &probs : nullptr);
      if (t)
        t->probs.insert(t->probs.end(), probs.begin(), probs.end());
    }
    ref::gemv(W("self_attn.o_proj.weight"), attn.data(), o.data(), threads_);
    for (int i = 0; i < H; ++i)
      x[i] = float(double(x[i]) + double(o[i]));

    // MLP block.
    ref::rmsNorm(x.data(), H, W("post_attention_layernorm.weight").data.data(), eps, h.data());
    ref::gemv(W("mlp.gate_proj.weight"), h.data(), gate.data(), threads_);
    ref::gemv(W("mlp.up_proj.weight"), h.data(), up.data(), threads_);
    for (int i = 0; i < L; ++i)
      gate[i] = float(ref::silu(gate[i]) * double(up[i]));
    ref::gemv(W("mlp.down_proj.weight"), gate.data(), down.data(), threads_);
    for (int i = 0; i < H; ++i)
      x[i] = float(double(x[i]) + double(down[i]));

    if (t) {
      t->q = q;
      t->k = k;
      t->v = v;
      t->attn = attn;
      t->residual = x;
    }
  }
  ++length_;

  ref::rmsNorm(x.data(), H, weights_.get("model.norm.weight").data.data(), eps, h.data());
  if (traceOn_)
    trace_.finalNorm = h;
  std::vector<float> logits(c.vocabSize);
  ref::gemv(weights_.get("lm_head.weight"), h.data(), logits.data(), threads_);
  return logits;
}

} // namespace rngd::qwen3
