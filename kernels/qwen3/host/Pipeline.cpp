// The stage kernels on one simulated device, with weights, KV cache and activations in
// device buffers bound to the kernels' arguments (Pipeline.h).
#include "qwen3/host/Pipeline.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/BoundaryCheck.h"
#include "qwen3/host/CheckStatus.h"
#include "qwen3/host/PipelineTables.h"
#include "qwen3/host/RopeTables.h"
#include "qwen3/host/StageCache.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace rngd::qwen3 {

const char *const kStages[NumStages] = {"embedding",         "projection",
                                        "attention_forward_first", "attention_forward",
                                        "decoder",           "final_layer",
                                        "token_lookup",      "decoder_out",
                                        "decoder_mlp",       "chip_link",
                                        "prefill_projection",
                                        "prefill_attention_first", "prefill_attention",
                                        "prefill_decoder",   "prefill_attention_partial",
                                        "prefill_decoder_out", "prefill_decoder_mlp",
                                        "prefill_attention_decoder",
                                        "batch_projection",
                                        "batch_kv_store",    "batch_attention_first",
                                        "batch_attention",   "batch_attention_norm",
                                        "batch_decoder",     "batch_final_layer",
                                        "kv_copy"};

const char *stageKernel(int s) {
  switch (s) {
  case BatchDecoder:
    return kStages[PrefillDecoder];
  default:
    return kStages[s];
  }
}

const std::vector<int> &batchStages() {
  static const std::vector<int> stages = {BatchProjection,    BatchKvStore,
                                          BatchAttentionFirst, BatchAttentionNext,
                                          BatchAttentionNorm, BatchDecoder,
                                          BatchFinalLayer};
  return stages;
}

std::vector<int> Pipeline::stagesUsed(bool deviceLookup) {
  return {deviceLookup ? TokenLookup : Embedding, Projection, AttentionFirst, AttentionNext,
          Decoder, FinalLayer};
}

std::vector<int> Pipeline::prefillStagesUsed(bool withPartial) {
  std::vector<int> stages = {PrefillProjection, PrefillAttentionChunk, PrefillAttentionDecoder};
  if (withPartial)
    stages.push_back(PrefillAttentionPartial);
  return stages;
}

std::string Pipeline::stageFile(int stage, int tokens) {
  return stage >= PrefillProjection ? std::string(stageKernel(stage)) + "_t" + std::to_string(tokens)
                                    : std::string(stageKernel(stage));
}

std::string Pipeline::batchStageFile(int stage, int tokens, int poolChunks) {
  const bool pooled = stage == BatchKvStore || stage == BatchAttentionFirst ||
                      stage == BatchAttentionNext;
  return pooled ? stageFile(stage, tokens) + "_p" + std::to_string(poolChunks)
                : stageFile(stage, tokens);
}

std::vector<int> Pipeline::prefillBlocks(int n, const std::vector<int> &sizes) {
  std::vector<int> blocks;
  for (const PrefillPiece &p : prefillPlan(0, n, sizes))
    blocks.push_back(p.size);
  return blocks;
}

std::vector<int> Pipeline::tensorParallelStages() {
  return {Embedding, Projection, AttentionFirst, AttentionNext, DecoderOut, DecoderMlp,
          FinalLayer, ChipLink};
}

bool Pipeline::uses(int s) const {
  if (s == ChipLink)
    return tp_.collective != nullptr;
  if (s >= BatchProjection)
    return !batch_.empty();
  if (s >= PrefillProjection)
    return !prefill_.empty();
  return k_[s] != nullptr;
}

namespace {

using Clock = std::chrono::steady_clock;

bool fileExists(const std::string &p) { return access(p.c_str(), R_OK) == 0; }

/// The attention stages' scratch argument `state_pad` (0 when the generated stages have none):
/// a kv head's G f32 of max or sum that are no whole DMA packet pass through it padded.
uint64_t attentionScratchBytes(const Qwen3Config &cfg, const rngd::TargetModel &target) {
  uint64_t bytes = 0;
  for (int s : {AttentionFirst, AttentionNext}) {
    const std::map<std::string, int64_t> &args = stageArgumentBytes(cfg, target, kStages[s], 1);
    auto it = args.find("state_pad");
    if (it != args.end())
      bytes = std::max(bytes, uint64_t(it->second));
  }
  return bytes;
}

} // namespace

/// The bytes of one argument of the generated stage s at block size T.
uint64_t argBytes(const Qwen3Config &cfg, const rngd::TargetModel &target, int s, int T,
                  const char *arg) {
  const std::map<std::string, int64_t> &bytes = stageArgumentBytes(cfg, target, kStages[s], T);
  auto it = bytes.find(arg);
  if (it == bytes.end())
    throw std::runtime_error("the generated " + Pipeline::stageFile(s, T) + " has no argument " +
                             arg);
  return uint64_t(it->second);
}

/// Each prefill buffer's size: its argument's largest over the block sizes.
std::map<std::string, uint64_t> prefillBufferBytes(const Qwen3Config &cfg,
                                                   const rngd::TargetModel &target,
                                                   const std::vector<int> &sizes) {
  std::map<std::string, uint64_t> bytes;
  for (const PrefillBuffer &b : kPrefillBuffers)
    for (int T : sizes)
      bytes[b.buffer] = b.stage == PrefillAttentionPartial // optional: one f32 a chunk's key
                            ? uint64_t(kChunk) * 4
                            : std::max(bytes[b.buffer], argBytes(cfg, target, b.stage, T, b.arg));
  return bytes;
}

HbmPlan Pipeline::hbmPlan(const Qwen3Config &cfg, int positions, bool deviceLookup,
                          bool tiedHead, const std::vector<int> &prefillSizes,
                          const rngd::TargetModel &target, bool tensorParallel) {
  const uint64_t align = uint64_t(target.hbmArgumentAlignment);
  auto padded = [&](uint64_t bytes) { return (bytes + align - 1) / align * align; };
  const uint64_t H = cfg.hiddenSize, Q = uint64_t(cfg.numHeads) * cfg.headDim, D = cfg.headDim;
  const uint64_t kv = uint64_t(cfg.numKvHeads) * cfg.headDim, L = cfg.intermediateSize;
  HbmPlan plan;
  // One layer, in the constructor's order: q, k, v, three norms; o, a norm, up, gate, down.
  const uint64_t layer = padded(Q * H * 2) + 2 * padded(kv * H * 2) + padded(H * 2) +
                         2 * padded(D * 2) + padded(H * Q * 2) + padded(H * 2) +
                         3 * padded(L * H * 2);
  const uint64_t Wp = uint64_t(stageInterface(cfg, target).paddedVocab);
  const uint64_t table = padded(Wp * H * 2);
  plan.weights = uint64_t(cfg.numLayers) * layer + padded(H * 2) + table +
                 (deviceLookup && !tiedHead ? table : 0);
  plan.kvCache = KvCache::poolBytes(cfg, kChunk, kvChunks(positions), target);
  plan.activations = padded(H * 2) + 2 * padded(Q * 2) + 2 * padded(uint64_t(cfg.numHeads) * 4) +
                     padded(uint64_t(kChunk) * 4) + (deviceLookup ? padded(4) : padded(H * 2)) +
                     padded(4) + 2 * padded(D * 2) + padded(Wp * 2) +
                     padded(attentionScratchBytes(cfg, target));
  if (!prefillSizes.empty()) {
    // Per layer the projection's q/k/v rows in one tensor and their head norms, then the
    // activations, each as large as the largest block's argument.
    const int T = prefillSizes.back();
    plan.weights +=
        uint64_t(cfg.numLayers) * (padded(argBytes(cfg, target, PrefillProjection, T, "qkv_weight")) +
                                   padded(argBytes(cfg, target, PrefillProjection, T,
                                                   "head_rms_weight")));
    // The MLP's zero-padded copies when the prefill decoder pads L (uploadPaddedMlp).
    const uint64_t gate = argBytes(cfg, target, PrefillDecoder, T, "gate_weight");
    if (gate != L * H * 2)
      plan.weights += uint64_t(cfg.numLayers) * 3 * padded(gate);
    for (const auto &[name, bytes] : prefillBufferBytes(cfg, target, prefillSizes))
      plan.activations += padded(bytes);
  }
  if (tensorParallel) { // tp.partial; prefill.zero, as large as prefill.x0
    plan.activations += padded(H * 2);
    if (!prefillSizes.empty())
      plan.activations +=
          padded(prefillBufferBytes(cfg, target, prefillSizes).at("prefill.x0"));
  }
  return plan;
}

ScheduleInfo readSchedule(const std::string &path, const char *stage) {
  ScheduleInfo info;
  if (!fileExists(path))
    return info;
  std::ifstream f(path);
  nlohmann::json j;
  try {
    f >> j;
  } catch (const std::exception &e) {
    throw std::runtime_error("schedule " + path + " is not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("hbm_bytes") || !j["hbm_bytes"].is_number_integer() ||
      !j.contains("roofline") || !j["roofline"].is_number_integer())
    throw std::runtime_error("schedule " + path + " has no integer 'hbm_bytes'/'roofline'");
  if (j.contains("kernel") && j["kernel"].is_string() && j["kernel"].get<std::string>() != stage)
    throw std::runtime_error("schedule " + path + " is for kernel '" +
                             j["kernel"].get<std::string>() + "', expected '" + stage + "'");
  info.known = true;
  info.hbmBytes = j["hbm_bytes"].get<int64_t>();
  info.rooflineCycles = j["roofline"].get<int64_t>();
  if (j.contains("makespan") && j["makespan"].is_number_integer())
    info.makespan = j["makespan"].get<int64_t>();
  return info;
}

void Pipeline::loadStage(const std::string &dir, const std::string &file, const char *name,
                         std::unique_ptr<rngd::Kernel> &kernel, ScheduleInfo &schedule) {
  std::string path = dir + "/" + file + ".rngd";
  if (!fileExists(path))
    throw std::runtime_error("kernel file " + path + " not found (rngd-stagegen writes " + file +
                             ".mlir; compile it with rngdc)");
  check(rngd::Kernel::open(path, kernel), "loading " + path);
  schedule = readSchedule(dir + "/" + file + ".json", name);
  if (kernel->executable().kernelName != name)
    throw std::runtime_error(path + " holds kernel '" + kernel->executable().kernelName +
                             "', expected '" + name + "'");
}

int Pipeline::kvChunks(int positions) { return std::max(1, (positions + kChunk - 1) / kChunk); }

Pipeline::Pipeline(const std::string &dir, const Weights &weights, int positions,
                   bool deviceLookup, const std::vector<int> &prefillSizes,
                   const TensorParallel &tp)
    : w_(weights), cfg_(weights.config()), tp_(tp), deviceLookup_(deviceLookup) {
  if (tp_.collective && deviceLookup)
    throw std::runtime_error("a tensor-parallel chip has no device-side token lookup");
  std::vector<int> used = stagesUsed(deviceLookup);
  if (tp_.collective) {
    used = tensorParallelStages();
    used.pop_back(); // ChipLink: no kernel
  }
  for (int s : used) {
    loadStage(dir, kStages[s], kStages[s], decode_[s], decodeSched_[s]);
    k_[s] = decode_[s].get();
    sched_[s] = &decodeSched_[s];
    stats_[s].scheduleKnown = decodeSched_[s].known;
  }
  // Whether stage s's executable is in `dir` at every prefill size.
  auto atEverySize = [&](int s) {
    return !prefillSizes.empty() &&
           std::all_of(prefillSizes.begin(), prefillSizes.end(), [&](int T) {
             return fileExists(dir + "/" + stageFile(s, T) + ".rngd");
           });
  };
  // prefill_attention_partial is optional (a prompt that continues a sequence mid-chunk then
  // runs its first tokens as decode steps): loaded when present at every size.
  partialLoaded_ = !tp_.collective && atEverySize(PrefillAttentionPartial);
  // A tensor-parallel chip's prefill_attention likewise (a prompt past the first chunk).
  chunkLoaded_ = !prefillSizes.empty() && (!tp_.collective || atEverySize(PrefillAttentionChunk));
  for (int T : prefillSizes) {
    PrefillSet &set = prefill_[T];
    for (int s : prefillStages()) {
      const int i = s - PrefillProjection;
      loadStage(dir, stageFile(s, T), kStages[s], set.kernels[i], set.schedules[i]);
      StageStats &st = stats_[s];
      st.scheduleKnown = st.scheduleKnown && set.schedules[i].known;
    }
  }
  const uint64_t H = cfg_.hiddenSize, Q = cfg_.qDim(), D = cfg_.headDim;
  const uint64_t heads = cfg_.numHeads;
  if (uses(AttentionNext) && k_[AttentionNext]->findArg("k")->shape.front() != kChunk)
    throw std::runtime_error("attention_forward's k holds " +
                             std::to_string(k_[AttentionNext]->findArg("k")->shape.front()) +
                             " keys, the host's KV chunk is " + std::to_string(kChunk));
  paddedVocab_ = k_[FinalLayer]->findArg("lm_head_weight")->bytes / (H * 2);
  if (paddedVocab_ < uint64_t(cfg_.vocabSize))
    throw std::runtime_error("final_layer's lm_head_weight holds " + std::to_string(paddedVocab_) +
                             " rows, fewer than the vocabulary's " +
                             std::to_string(cfg_.vocabSize));

  // Weights: every tensor once. The LM head is padded to Wp rows; the padding stays zero.
  for (int L = 0; L < cfg_.numLayers; ++L) {
    for (const auto &[arg, suffix] : kProjectionWeights)
      weight(layerTensorName(L, suffix));
    for (const auto &[arg, suffix] : kDecoderWeights)
      weight(layerTensorName(L, suffix));
  }
  weight("model.norm.weight");
  const Bf16Tensor &head = w_.get("lm_head.weight");
  rngd::Buffer &lm = buffer("lm_head.weight", paddedVocab_ * H * 2);
  check(lm.write(head.data.data(), head.data.size() * 2), "uploading lm_head.weight");

  kv_ = std::make_unique<KvCache>(device_, cfg_, kChunk, kvChunks(positions));
  seq_ = std::make_unique<KvSequence>(*kv_);
  active_ = seq_.get();

  // Activations and per-step inputs, bound once; only weights and caches are rebound per layer.
  rngd::Buffer &x = buffer("x", H * 2), &q = buffer("q", Q * 2);
  rngd::Buffer &max = buffer("attention.max", heads * 4), &sum = buffer("attention.sum", heads * 4);
  rngd::Buffer &out = buffer("attention.out", Q * 2), &mask = buffer("mask", kChunk * 4);
  if (deviceLookup_) {
    // The table the gather reads: the LM head's padded buffer when tied, else the embedding
    // padded to Wp rows (the padding zero; token ids are checked against W before any step).
    rngd::Buffer *table = &lm;
    if (w_.shared("lm_head.weight") != w_.shared("model.embed_tokens.weight")) {
      const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
      table = &buffer("embedding.table", paddedVocab_ * H * 2);
      check(table->write(emb.data.data(), emb.data.size() * 2), "uploading the embedding table");
    }
    bind(TokenLookup, "table", *table);
    bind(TokenLookup, "offset", buffer("token.offset", 4));
    bind(TokenLookup, "out", x);
  } else {
    bind(Embedding, "input", buffer("embedding.row", H * 2));
    bind(Embedding, "out", x);
  }
  bind(Projection, "x", x);
  bind(Projection, "kv_offset", buffer("kv_offset", 4));
  bind(Projection, "cos", buffer("rope.cos", D * 2));
  bind(Projection, "sin", buffer("rope.sin", D * 2));
  bind(Projection, "q_out", q);
  const uint64_t scratch = attentionScratchBytes(cfg_, device_.target());
  rngd::Buffer *statePad = scratch ? &buffer("attention.state_pad", scratch) : nullptr;
  for (Stage s : {AttentionFirst, AttentionNext}) {
    if (statePad)
      bindView(s, "state_pad", *statePad);
    bind(s, "q", q);
    bind(s, "mask", mask);
    bind(s, "max_hbm", max);
    bind(s, "sum_hbm", sum);
    bind(s, "out_hbm", out);
  }
  if (tp_.collective) {
    setUpTensorParallel();
  } else {
    bind(Decoder, "x", out);
    bind(Decoder, "sum_hbm", sum);
    bind(Decoder, "rx_hbm", x);
  }
  bind(FinalLayer, "input", x);
  bind(FinalLayer, "rms_weight", *buffers_.at("model.norm.weight"));
  bind(FinalLayer, "lm_head_weight", lm);
  bind(FinalLayer, "out", buffer("logits", paddedVocab_ * 2));
  if (!prefill_.empty())
    setUpPrefill(prefillSizes);
}

rngd::Buffer &Pipeline::buffer(const std::string &name, uint64_t bytes) {
  rngd::Buffer *b = nullptr;
  check(device_.allocate(name, bytes, b), "device buffer");
  buffers_[name] = b;
  return *b;
}

rngd::Buffer &Pipeline::weight(const std::string &name) {
  const Bf16Tensor &t = w_.get(name);
  rngd::Buffer &b = buffer(name, t.data.size() * 2);
  check(b.write(t.data.data(), t.data.size() * 2), "uploading " + name);
  return b;
}

void Pipeline::bindChunk(int s, const char *arg, int layer, char kind, int index, int row) {
  active_->reserve((index + 1) * kChunk);
  const int chunk = active_->chunk(index);
  const uint64_t at = kv_->offset(chunk) + uint64_t(row) * cfg_.kvDim() * 2;
  check(k_[s]->bind(arg, kv_->buffer(layer, kind), at), std::string(kStages[s]) + "." + arg);
}

std::vector<uint16_t> Pipeline::readChunk(int layer, char kind, int index, int first,
                                          int rows) const {
  const uint64_t rowBytes = uint64_t(cfg_.kvDim()) * 2;
  if (rows < 0)
    rows = kChunk - first;
  std::vector<uint16_t> out(size_t(rows) * rowBytes / 2);
  const rngd::Buffer &b = kv_->buffer(layer, kind);
  check(b.read(out.data(), uint64_t(rows) * rowBytes,
               kv_->offset(active_->chunk(index)) + uint64_t(first) * rowBytes),
        "reading " + b.name());
  return out;
}

void Pipeline::bind(int s, const char *arg, rngd::Buffer &b) {
  check(k_[s]->bind(arg, b), std::string(kStages[s]) + "." + arg);
}

void Pipeline::bindView(int s, const char *arg, rngd::Buffer &b) {
  check(k_[s]->bind(arg, b, 0), std::string(kStages[s]) + "." + arg);
}

void Pipeline::bindLayer(int s, int layer,
                         const std::vector<std::pair<const char *, const char *>> &args) {
  for (const auto &[arg, suffix] : args)
    bind(s, arg, *buffers_.at(layerTensorName(layer, suffix)));
}


void Pipeline::step(int token, int pos, bool wantLogits, std::vector<float> &logits) {
  if (tp_.collective) // the other ranks' followSteps() run it too
    sendStep(token, pos, wantLogits);
  runStep(token, pos, wantLogits, logits);
}

void Pipeline::runStep(int token, int pos, bool wantLogits, std::vector<float> &logits) {
  const int chunk = pos / kChunk, row = pos % kChunk;
  const size_t H = cfg_.hiddenSize, kv = cfg_.kvDim();
  rngd::Buffer &mask = *buffers_.at("mask");

  // 1. embedding: the host selects the row; or token_lookup: the host writes the row's byte
  // offset and the kernel gathers it. Either way the host's row is the reference.
  const Bf16Tensor &emb = w_.get("model.embed_tokens.weight");
  checkToken(token);
  const Stage first = deviceLookup_ ? TokenLookup : Embedding;
  if (tp_.collective)
    write(*buffers_.at("embedding.row"), shardEmbeddingRow(token));
  else if (deviceLookup_)
    write(*buffers_.at("token.offset"), std::vector<int32_t>{int32_t(size_t(token) * H * 2)});
  else
    check(buffers_.at("embedding.row")->write(emb.data.data() + size_t(token) * H, H * 2),
          "writing the embedding row");
  LaunchInfo at;
  at.position = pos;
  at.token = token;
  launch(first, at);

  std::vector<uint16_t> cos, sin;
  decodeRopeTables(cfg_, pos, cos, sin);
  write(*buffers_.at("rope.cos"), cos);
  write(*buffers_.at("rope.sin"), sin);
  write(*buffers_.at("kv_offset"), std::vector<int32_t>{int32_t(row * kv * 2)});

  for (int L = 0; L < cfg_.numLayers; ++L) {
    // 2a. projection: writes row `row` of the current chunk's K/V pair.
    bindLayer(Projection, L, kProjectionWeights);
    bindChunk(Projection, "k_cache", L, 'k', chunk);
    bindChunk(Projection, "v_cache", L, 'v', chunk);
    at.layer = L;
    at.chunk = chunk;
    launch(Projection, at);

    // 2b. online-softmax attention over chunks 0..chunk.
    for (int c = 0; c <= chunk; ++c) {
      Stage s = c == 0 ? AttentionFirst : AttentionNext;
      std::vector<float> m(kChunk);
      for (int t = 0; t < kChunk; ++t)
        m[t] = (c < chunk || t <= row) ? 1.0f : 0.0f;
      write(mask, m);
      bindChunk(s, "k", L, 'k', c);
      bindChunk(s, "v", L, 'v', c);
      at.chunk = c;
      launch(s, at);
    }

    // 2c. decoder: normalise, o-proj + residual, MLP + residual (x in place).
    if (tp_.collective) {
      tensorParallelDecoder(L, at);
      continue;
    }
    bindLayer(Decoder, L, kDecoderWeights);
    launch(Decoder, at);
  }

  if (wantLogits)
    finalLogits(logits);
}

void Pipeline::checkToken(int token) const {
  const int vocab = tp_.collective ? tp_.vocab : cfg_.vocabSize;
  if (token < 0 || token >= vocab)
    throw std::runtime_error("token id " + std::to_string(token) + " out of range 0.." +
                             std::to_string(vocab - 1));
}

void Pipeline::finalLogits(std::vector<float> &logits) {
  // final_layer on the residual `x`: logits of the W valid rows.
  launch(FinalLayer);
  if (tp_.collective)
    return gatherLogits(logits);
  std::vector<uint16_t> raw = read<uint16_t>(*buffers_.at("logits"));
  logits.resize(cfg_.vocabSize);
  for (int i = 0; i < cfg_.vocabSize; ++i)
    logits[i] = bf16ToFloat(raw[i]);
}

void Pipeline::preloadCache(int layer, int length, const std::vector<uint16_t> &k,
                            const std::vector<uint16_t> &v) {
  const size_t kv = cfg_.kvDim();
  for (int p = 0; p < length; ++p) {
    active_->reserve(p + 1);
    const uint64_t at = kv_->offset(active_->chunk(p / kChunk)) + uint64_t(p % kChunk) * kv * 2;
    check(kv_->buffer(layer, 'k').write(k.data() + size_t(p) * kv, kv * 2, at), "the KV cache");
    check(kv_->buffer(layer, 'v').write(v.data() + size_t(p) * kv, kv * 2, at), "the KV cache");
  }
}

void Pipeline::checkBoundaries() {
  if (checker_)
    return;
  checker_ = std::make_unique<BoundaryCheck>();
  observe(checker_.get());
}

const oracle::RuleCount &Pipeline::boundaryCheck(int s) const {
  static const oracle::RuleCount none;
  return checker_ ? static_cast<const BoundaryCheck &>(*checker_).count(s) : none;
}

int Pipeline::failedLaunches(int s) const {
  return checker_ ? static_cast<const BoundaryCheck &>(*checker_).failedLaunches(s) : 0;
}

void Pipeline::launch(int s, LaunchInfo info) {
  info.stage = s;
  for (PipelineObserver *o : observers_)
    o->before(*this, info);
  rngd::LaunchOptions lo;
  lo.sim.recordTrace = false;
  rngd::LaunchResult r;
  auto t0 = Clock::now();
  check(device_.launch(*k_[s], r, lo), std::string("launch ") + kStages[s]);
  stats_[s].wallSeconds += std::chrono::duration<double>(Clock::now() - t0).count();
  StageStats &st = stats_[s];
  st.launches += 1;
  st.cycles += r.makespan;
  const ScheduleInfo &si = *sched_[s];
  st.scheduleKnown = st.scheduleKnown && si.known;
  st.hbmBytes += si.hbmBytes;
  st.rooflineCycles += si.rooflineCycles;
  st.predictedCycles += si.makespan;
  for (PipelineObserver *o : observers_)
    o->after(*this, info);
}

} // namespace rngd::qwen3
