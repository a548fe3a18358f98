#include "qwen3/host/BoundaryCheck.h"

#include "qwen3/host/Bf16.h"

namespace rngd::qwen3 {

namespace {

/// The attention mask of a decode launch: every key of an earlier chunk, the keys up to the
/// token's row of its own.
std::vector<float> decodeMask(const LaunchInfo &l) {
  std::vector<float> m(kChunk);
  for (int t = 0; t < kChunk; ++t)
    m[size_t(t)] = (l.chunk < l.position / kChunk || t <= l.position % kChunk) ? 1.0f : 0.0f;
  return m;
}

} // namespace

void BoundaryCheck::record(int s, const oracle::RuleCount &c) {
  counts_[s].add(c);
  if (!c.passes())
    ++failed_[s];
}

void BoundaryCheck::before(const Pipeline &p, const LaunchInfo &l) {
  if (l.stage == Decoder)
    xBefore_ = p.readBuffer<uint16_t>("x"); // the decoder adds into x in place
  else if (l.stage == AttentionNext)
    stateBefore_ = {p.readBuffer<float>("attention.max"), p.readBuffer<float>("attention.sum"),
                    p.readBuffer<uint16_t>("attention.out")};
}

void BoundaryCheck::after(const Pipeline &p, const LaunchInfo &l) {
  const Qwen3Config &cfg = p.config();
  const Weights &w = p.weights();
  const size_t H = cfg.hiddenSize;
  switch (l.stage) {
  case Embedding:
  case TokenLookup: { // the host's row is the reference
    const Bf16Tensor &emb = w.get("model.embed_tokens.weight");
    record(l.stage, oracle::checkRule(oracle::Bits(emb.data.begin() + size_t(l.token) * H,
                                                   emb.data.begin() + size_t(l.token + 1) * H),
                                      p.readBuffer<uint16_t>("x")));
    break;
  }
  case Projection:
  case AttentionFirst:
  case AttentionNext:
  case Decoder:
    checkDecodeLayer(p, l);
    break;
  case FinalLayer: {
    const std::vector<uint16_t> raw = p.readBuffer<uint16_t>("logits");
    std::vector<float> logits(size_t(cfg.vocabSize));
    for (size_t i = 0; i < logits.size(); ++i)
      logits[i] = bf16ToFloat(raw[i]);
    record(FinalLayer, oracle::checkRule(oracle::finalLayer(cfg, p.readBuffer<uint16_t>("x"),
                                                            w.get("model.norm.weight"),
                                                            w.get("lm_head.weight")),
                                         logits));
    break;
  }
  case PrefillAttentionDecoder:
    checkPrefillLayer(p, l);
    break;
  default:
    break;
  }
}

void BoundaryCheck::checkDecodeLayer(const Pipeline &p, const LaunchInfo &l) {
  const Qwen3Config &cfg = p.config();
  auto wl = [&](const char *suffix) -> const Bf16Tensor & {
    return p.weights().layer(l.layer, suffix);
  };
  const std::vector<uint16_t> q = p.readBuffer<uint16_t>("q");
  if (l.stage == Projection) { // x is the projection's input, unchanged by it
    oracle::ProjectionOut e = oracle::projection(
        cfg, p.readBuffer<uint16_t>("x"), wl("self_attn.q_proj.weight"),
        wl("self_attn.k_proj.weight"), wl("self_attn.v_proj.weight"),
        wl("input_layernorm.weight"), wl("self_attn.q_norm.weight"),
        wl("self_attn.k_norm.weight"), l.position);
    const int row = l.position % kChunk;
    oracle::RuleCount c = oracle::checkRule(e.q, q);
    c.add(oracle::checkRule(e.k, p.readChunk(l.layer, 'k', l.chunk, row, 1)));
    c.add(oracle::checkRule(e.v, p.readChunk(l.layer, 'v', l.chunk, row, 1)));
    record(Projection, c);
  } else if (l.stage == Decoder) {
    record(Decoder,
           oracle::checkRule(oracle::decoder(cfg, p.readBuffer<uint16_t>("attention.out"),
                                             p.readBuffer<float>("attention.sum"), xBefore_,
                                             wl("self_attn.o_proj.weight"),
                                             wl("post_attention_layernorm.weight"),
                                             wl("mlp.up_proj.weight"), wl("mlp.gate_proj.weight"),
                                             wl("mlp.down_proj.weight")),
                             p.readBuffer<uint16_t>("x")));
  } else {
    oracle::AttentionState e = oracle::attention(
        cfg, q, p.readChunk(l.layer, 'k', l.chunk), p.readChunk(l.layer, 'v', l.chunk),
        decodeMask(l), l.stage == AttentionNext ? &stateBefore_ : nullptr);
    oracle::RuleCount rc = oracle::checkRule(e.max, p.readBuffer<float>("attention.max"));
    rc.add(oracle::checkRule(e.sum, p.readBuffer<float>("attention.sum")));
    rc.add(oracle::checkRule(e.out, p.readBuffer<uint16_t>("attention.out")));
    record(l.stage, rc);
  }
}

void BoundaryCheck::checkPrefillLayer(const Pipeline &p, const LaunchInfo &l) {
  // Each prompt token's row of each boundary against the decode stages' oracle (the padding
  // rows are not the model's), on the inputs the launch had: x, then the device's q, K and V,
  // then its attn (normalised: the decoder's oracle divides by a sum of 1).
  const Qwen3Config &cfg = p.config();
  const PrefillLayouts &set = p.prefillLayouts(l.size);
  const int L = l.layer, start = l.position;
  const size_t n = size_t(l.tokens);
  const size_t H = cfg.hiddenSize, Q = cfg.qDim(), kv = cfg.kvDim(), D = cfg.headDim;
  auto wl = [&](const char *suffix) -> const Bf16Tensor & { return p.weights().layer(L, suffix); };
  const std::vector<uint16_t> xb = p.readBuffer<uint16_t>(l.x), yb = p.readBuffer<uint16_t>(l.y);
  const std::vector<uint16_t> qb = p.readBuffer<uint16_t>("prefill.q");
  const std::vector<uint16_t> ab = p.readBuffer<uint16_t>("prefill.attn");
  const int block = start / kChunk, row = start % kChunk; // the block's chunk, first row
  std::vector<std::vector<uint16_t>> kc, vc; // chunks 0..block
  for (int c = 0; c <= block; ++c) {
    kc.push_back(p.readChunk(L, 'k', c));
    vc.push_back(p.readChunk(L, 'v', c));
  }
  const std::vector<uint16_t> &kb = kc.back(), &vb = vc.back();
  oracle::RuleCount proj, attn, dec;
  for (size_t t = 0; t < n; ++t) {
    oracle::Bits xr(H), qr(Q), ar(Q);
    for (size_t h = 0; h < H; ++h)
      xr[h] = xb[set.x.at({int64_t(t), int64_t(h)})];
    for (size_t i = 0; i < Q; ++i) {
      qr[i] = qb[set.q.at({int64_t(t), int64_t(i)})];
      ar[i] = ab[set.attn.at({int64_t(t), int64_t(i)})];
    }
    oracle::ProjectionOut e = oracle::projection(
        cfg, xr, wl("self_attn.q_proj.weight"), wl("self_attn.k_proj.weight"),
        wl("self_attn.v_proj.weight"), wl("input_layernorm.weight"),
        wl("self_attn.q_norm.weight"), wl("self_attn.k_norm.weight"),
        start + int(t), /*rawBf16=*/true);
    const size_t r = size_t(row) + t; // the token's row of the chunk
    proj.add(oracle::checkRule(e.q, qr));
    proj.add(oracle::checkRule(e.k, oracle::Bits(kb.begin() + r * kv, kb.begin() + (r + 1) * kv)));
    proj.add(oracle::checkRule(e.v, oracle::Bits(vb.begin() + r * kv, vb.begin() + (r + 1) * kv)));
    // Every earlier chunk whole, then this one up to the token, as step() runs them.
    oracle::AttentionState st;
    for (int c = 0; c <= block; ++c) {
      std::vector<float> mask(kChunk);
      for (size_t s = 0; s < size_t(kChunk); ++s)
        mask[s] = c < block || s <= r ? 1.0f : 0.0f;
      oracle::AttentionState prev = st;
      st = oracle::attention(cfg, qr, kc[size_t(c)], vc[size_t(c)], mask, c ? &prev : nullptr);
    }
    std::vector<float> want(Q), got(Q);
    for (size_t i = 0; i < Q; ++i) {
      want[i] = bf16ToFloat(st.out[i]) / st.sum[i / D];
      got[i] = bf16ToFloat(ar[i]);
    }
    attn.add(oracle::checkRule(want, got));
    oracle::Bits yr(H);
    for (size_t h = 0; h < H; ++h)
      yr[h] = yb[set.x.at({int64_t(t), int64_t(h)})];
    dec.add(oracle::checkRule(
        oracle::decoder(cfg, ar, std::vector<float>(cfg.numHeads, 1.0f), xr,
                        wl("self_attn.o_proj.weight"), wl("post_attention_layernorm.weight"),
                        wl("mlp.up_proj.weight"), wl("mlp.gate_proj.weight"),
                        wl("mlp.down_proj.weight")),
        yr));
  }
  record(PrefillProjection, proj);
  attn.add(dec); // the fused stage's two boundaries: a, then y
  record(PrefillAttentionDecoder, attn);
}

} // namespace rngd::qwen3
