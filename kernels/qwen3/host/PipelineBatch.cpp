// The batched decode step (Pipeline.h, docs/batching.md): B sequences, each at its own position
// with its own KV chunks, padded to a block of T tokens. Per layer batch_projection computes
// every token's q, k and v with one pass over the weights, batch_kv_store scatters the new K/V
// rows into the sequences' chunks, batch_attention_first / batch_attention attend one page of
// every sequence's keys a launch (the page table and masks written per page),
// batch_attention_norm normalises, and prefill_decoder runs the rest of the layer for the
// block; batch_final_layer then computes every token's logits with one pass over the LM head.
#include "qwen3/host/Bf16.h"
#include "qwen3/host/CheckStatus.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PipelineTables.h"
#include "qwen3/host/RopeTables.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace rngd::qwen3 {

namespace {

// The stages loaded per block size, and each one's arguments bound to a batch buffer (the
// buffers are sized for the largest block; smaller blocks bind views of their first bytes).
const std::vector<int> kBlockStages = {BatchProjection,     BatchKvStore,
                                       BatchAttentionFirst, BatchAttentionNext,
                                       BatchAttentionNorm,  BatchDecoder,
                                       BatchFinalLayer};
const std::vector<std::pair<int, std::vector<std::pair<const char *, const char *>>>>
    kBatchBindings = {
        {BatchProjection,
         {{"cos", "batch.cos"}, {"sin", "batch.sin"}, {"q_out", "batch.q"},
          {"k_rows", "batch.k_rows"}, {"v_rows", "batch.v_rows"}}},
        {BatchKvStore,
         {{"k_rows", "batch.k_rows"}, {"v_rows", "batch.v_rows"}, {"offsets", "batch.offsets"}}},
        {BatchAttentionFirst,
         {{"q", "batch.q"}, {"page", "batch.page"}, {"mask", "batch.mask"},
          {"max_hbm", "batch.max"}, {"sum_hbm", "batch.sum"}, {"out_hbm", "batch.out"}}},
        {BatchAttentionNext,
         {{"q", "batch.q"}, {"page", "batch.page"}, {"mask", "batch.mask"},
          {"max_hbm", "batch.max"}, {"sum_hbm", "batch.sum"}, {"out_hbm", "batch.out"}}},
        {BatchAttentionNorm, {{"out", "batch.out"}, {"sum", "batch.sum"}, {"attn", "batch.attn"}}},
        {BatchDecoder, {{"attn", "batch.attn"}}},
        {BatchFinalLayer, {{"out", "batch.logits"}}}};

} // namespace

void Pipeline::selectBatch(int size) {
  BatchSet &set = batch_.at(size);
  for (int s : kBlockStages) {
    k_[s] = set.kernels[s].get();
    sched_[s] = &set.schedules[s];
  }
}

void Pipeline::enableBatch(const std::string &dir, const std::vector<int> &sizes) {
  if (!batch_.empty())
    throw std::logic_error("internal error: enableBatch called twice");
  if (sizes.empty() || !std::is_sorted(sizes.begin(), sizes.end()))
    throw std::runtime_error("internal error: batch block sizes must be ascending");
  for (int T : sizes) {
    BatchSet &set = batch_[T];
    for (int s : kBlockStages)
      loadStage(dir, batchStageFile(s, T, kv_->capacity()), stageKernel(s), set.kernels[s],
                set.schedules[s]);
    uploadPrefillWeights(*set.kernels[BatchProjection]->findArg("qkv_weight"));
    uploadPaddedMlp(*set.kernels[BatchDecoder]->findArg("gate_weight"),
                    *set.kernels[BatchDecoder]->findArg("down_weight"), "");
  }
  loadStage(dir, stageFile(KvCopy, sizes.back()), stageKernel(KvCopy), kvCopy_, kvCopySched_);
  k_[KvCopy] = kvCopy_.get();
  sched_[KvCopy] = &kvCopySched_;
  for (int s : batchStages())
    stats_[s].scheduleKnown = true;
  batchSizes_ = sizes;

  // Buffers for the largest block (its arguments are the largest), bound as views.
  selectBatch(sizes.back());
  auto argBytes = [&](int s, const char *arg) { return k_[s]->findArg(arg)->bytes; };
  for (const auto &[s, args] : kBatchBindings)
    for (const auto &[arg, name] : args)
      if (!buffers_.count(name))
        buffer(name, argBytes(s, arg));
  buffer("batch.x0", std::max(argBytes(BatchProjection, "x"), argBytes(BatchDecoder, "y")));
  buffer("batch.x1", std::max(argBytes(BatchProjection, "x"), argBytes(BatchDecoder, "y")));
  if (uint64_t(kv_->capacity()) * kv_->chunkBytes() > uint64_t(std::numeric_limits<int32_t>::max()))
    throw std::runtime_error("the KV pool of " + std::to_string(kv_->capacity()) +
                             " chunks is past the 2 GiB a batch_kv_store offset (i32) reaches");
  for (int T : sizes) {
    selectBatch(T);
    for (const auto &[s, args] : kBatchBindings)
      for (const auto &[arg, name] : args)
        bindView(s, arg, *buffers_.at(name));
    for (int s : {BatchAttentionFirst, BatchAttentionNext})
      if (const rngd::ArgInfo *pad = k_[s]->findArg("state_pad")) {
        if (!buffers_.count("batch.state_pad"))
          buffer("batch.state_pad", pad->bytes * uint64_t(sizes.back()) / uint64_t(T));
        bindView(s, "state_pad", *buffers_.at("batch.state_pad"));
      }
    bind(BatchFinalLayer, "rms_weight", *buffers_.at("model.norm.weight"));
    bind(BatchFinalLayer, "lm_head_weight", *buffers_.at("lm_head.weight"));
    BatchSet &set = batch_.at(T);
    const int64_t H = cfg_.hiddenSize, F = cfg_.headDim / 2;
    set.x = HbmLayout::of(*k_[BatchProjection]->findArg("x"), {{"T", T}, {"H", H}});
    set.rope = HbmLayout::of(*k_[BatchProjection]->findArg("cos"), {{"T", T}, {"F", F}});
    set.logits = HbmLayout::of(*k_[BatchFinalLayer]->findArg("out"),
                               {{"T", T}, {"W", int64_t(paddedVocab_)}});
  }
  paddingChunk_ = kv_->acquire();
}

void Pipeline::writeBatchInputs(const std::vector<BatchToken> &tokens, int T,
                                const BatchSet &set) {
  const size_t H = cfg_.hiddenSize, F = size_t(cfg_.headDim) / 2, B = tokens.size();
  const uint64_t rowBytes = uint64_t(cfg_.kvDim()) * 2;
  const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
  std::vector<uint16_t> xb(set.x.cells(), 0), cosb(set.rope.cells(), 0),
      sinb(set.rope.cells(), 0);
  std::vector<int32_t> offsets(static_cast<size_t>(T));
  for (size_t b = 0; b < size_t(T); ++b) {
    if (b >= B) { // a padding token: its K/V row goes to the padding chunk
      offsets[b] = int32_t(kv_->offset(paddingChunk_) + b % size_t(kChunk) * rowBytes);
      continue;
    }
    const BatchToken &t = tokens[b];
    checkToken(t.token);
    for (size_t h = 0; h < H; ++h)
      xb[set.x.at({int64_t(b), int64_t(h)})] = emb.data[size_t(t.token) * H + h];
    std::vector<uint16_t> cos, sin;
    prefillRopeTables(cfg_, size_t(t.position), 1, cos, sin);
    for (size_t f = 0; f < F; ++f) {
      cosb[set.rope.at({int64_t(b), int64_t(f)})] = cos[f];
      sinb[set.rope.at({int64_t(b), int64_t(f)})] = sin[f];
    }
    t.sequence->reserve(t.position + 1);
    const int chunk = t.sequence->chunk(t.position / kChunk);
    offsets[b] = int32_t(kv_->offset(chunk) + uint64_t(t.position % kChunk) * rowBytes);
  }
  write(*buffers_.at("batch.x0"), xb);
  write(*buffers_.at("batch.cos"), cosb);
  write(*buffers_.at("batch.sin"), sinb);
  write(*buffers_.at("batch.offsets"), offsets);
}

void Pipeline::batchAttention(int layer, const std::vector<BatchToken> &tokens, int T) {
  // Page j of a sequence: its keys j x S .. (j + 1) x S - 1, S the stage's page; the mask shows
  // the ones at or before the token. A sequence without page j (and a padding row) gets an
  // all-zero mask row over a valid page: the fold leaves its state as it was.
  const rngd::ArgInfo &maskArg = *k_[BatchAttentionFirst]->findArg("mask");
  const int S = int(maskArg.bytes / 4 / uint64_t(T));
  const uint64_t rowBytes = uint64_t(cfg_.kvDim()) * 2;
  int pages = 0;
  for (const BatchToken &t : tokens)
    pages = std::max(pages, t.position / S + 1);
  for (int s : {BatchAttentionFirst, BatchAttentionNext})
    for (const char *pool : {"k_pool", "v_pool"})
      check(k_[s]->bind(pool, kv_->buffer(layer, pool[0])),
            std::string(kStages[s]) + "." + pool);
  for (int j = 0; j < pages; ++j) {
    std::vector<int32_t> page(size_t(T), int32_t(kv_->offset(paddingChunk_)));
    std::vector<float> mask(size_t(T) * size_t(S), 0.0f);
    for (size_t b = 0; b < tokens.size(); ++b) {
      const int pos = tokens[b].position, first = std::min(j, pos / S) * S;
      page[b] = int32_t(kv_->offset(tokens[b].sequence->chunk(first / kChunk)) +
                        uint64_t(first % kChunk) * rowBytes);
      for (int k = 0; k < S && j * S <= pos; ++k)
        mask[b * size_t(S) + size_t(k)] = j * S + k <= pos ? 1.0f : 0.0f;
    }
    write(*buffers_.at("batch.page"), page);
    write(*buffers_.at("batch.mask"), mask);
    launch(j == 0 ? BatchAttentionFirst : BatchAttentionNext);
  }
}

void Pipeline::forkPrefix(const KvSequence &from, int positions, KvSequence &to) {
  if (!kvCopy_)
    throw std::logic_error("internal error: forkPrefix on a pipeline without batch stages");
  const int full = positions / kChunk, rows = positions % kChunk;
  to.share(from, full);
  if (rows == 0)
    return;
  to.reserve(full * kChunk + 1);
  const uint64_t rowBytes = uint64_t(cfg_.kvDim()) * 2;
  const uint64_t src = kv_->offset(from.chunk(full)), dst = kv_->offset(to.chunk(full));
  const int T = batchSizes_.back(); // kv_copy's rows a launch: a divisor of the chunk
  for (int L = 0; L < cfg_.numLayers; ++L)
    for (int first = 0; first < rows; first += T)
      for (char kind : {'k', 'v'}) {
        const std::string in = std::string(1, kind) + "_in", out = std::string(1, kind) + "_out";
        rngd::Buffer &pool = kv_->buffer(L, kind);
        check(kvCopy_->unbind(out), "kv_copy." + out);
        check(kvCopy_->bind(in, pool, src + uint64_t(first) * rowBytes), "kv_copy." + in);
        check(kvCopy_->bind(out, pool, dst + uint64_t(first) * rowBytes), "kv_copy." + out);
        if (kind == 'v')
          launch(KvCopy);
      }
}

int64_t Pipeline::stepBatch(const std::vector<BatchToken> &tokens,
                            std::vector<std::vector<float>> &logits) {
  if (batch_.empty())
    throw std::logic_error("internal error: stepBatch on a pipeline without batch stages");
  const size_t B = tokens.size();
  if (B < 1 || B > size_t(batchSizes_.back()))
    throw std::runtime_error("a batched step of " + std::to_string(B) + " sequences: this " +
                             "pipeline runs 1.." + std::to_string(batchSizes_.back()));
  for (size_t b = 0; b < B; ++b) {
    if (!tokens[b].sequence || tokens[b].position < 0)
      throw std::runtime_error("batch row " + std::to_string(b) + " has no sequence or a "
                               "negative position");
    for (size_t c = 0; c < b; ++c)
      if (tokens[c].sequence == tokens[b].sequence)
        throw std::runtime_error("batch rows " + std::to_string(c) + " and " + std::to_string(b) +
                                 " are the same sequence");
  }
  int64_t before = 0;
  for (int s : batchStages())
    before += stats_[s].cycles;
  const int T = *std::find_if(batchSizes_.begin(), batchSizes_.end(),
                              [&](int t) { return size_t(t) >= B; });
  selectBatch(T);
  const BatchSet &set = batch_.at(T);
  writeBatchInputs(tokens, T, set);
  rngd::Buffer *x = buffers_.at("batch.x0"), *y = buffers_.at("batch.x1");
  for (int L = 0; L < cfg_.numLayers; ++L) {
    bindLayer(BatchProjection, L, kPrefillProjectionWeights);
    bindView(BatchProjection, "x", *x);
    launch(BatchProjection);
    check(k_[BatchKvStore]->bind("k_pool", kv_->buffer(L, 'k')), "batch_kv_store.k_pool");
    check(k_[BatchKvStore]->bind("v_pool", kv_->buffer(L, 'v')), "batch_kv_store.v_pool");
    launch(BatchKvStore);
    batchAttention(L, tokens, T);
    launch(BatchAttentionNorm);
    bindPrefillDecoder(BatchDecoder, L, kDecoderWeights);
    check(k_[BatchDecoder]->unbind("y"), "batch_decoder.y"); // the buffers swap each layer
    bindView(BatchDecoder, "x", *x);
    bindView(BatchDecoder, "y", *y);
    launch(BatchDecoder);
    std::swap(x, y);
  }
  bindView(BatchFinalLayer, "x", *x);
  launch(BatchFinalLayer);
  const std::vector<uint16_t> raw = read<uint16_t>(*buffers_.at("batch.logits"));
  logits.assign(B, std::vector<float>(size_t(cfg_.vocabSize)));
  for (size_t b = 0; b < B; ++b)
    for (int w = 0; w < cfg_.vocabSize; ++w)
      logits[b][size_t(w)] = bf16ToFloat(raw[set.logits.at({int64_t(b), int64_t(w)})]);
  int64_t after = 0;
  for (int s : batchStages())
    after += stats_[s].cycles;
  return after - before;
}

} // namespace rngd::qwen3
