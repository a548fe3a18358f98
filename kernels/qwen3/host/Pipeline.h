// The device side of rngd-qwen3: the stage kernels on one simulated device, with every
// tensor that outlives a launch in a device buffer (docs/qwen3.md, "Device memory"):
//
//   weights     one buffer per tensor, uploaded once (the LM head padded to Wp rows; with the
//               device-side token lookup also the embedding table, padded the same way, which
//               is the LM head's buffer itself when the model ties them)
//   KV cache    a pool of chunks of 512 positions (KvCache.h): one key and one value buffer
//               per layer, each chunk a [T, N, D] view of them
//   activations x (the residual stream), q, the attention state (max, sum, out) and the
//               per-step inputs (embedding row, RoPE tables, kv_offset, mask, logits)
//
// Each launch binds the kernel's arguments to these buffers (the layer's weights, the chunk's
// cache), so stages hand data to each other in HBM and the host only writes the per-step
// inputs and reads the logits. Under --check the host also reads each boundary's inputs and
// outputs and compares them with the host oracle (StageOracle.h). Errors throw
// std::runtime_error with the stage and argument named.
#pragma once

#include "qwen3/host/CheckStatus.h"
#include "qwen3/host/Collective.h"
#include "qwen3/host/HbmLayout.h"
#include "qwen3/host/KvCache.h"
#include "qwen3/host/Model.h"
#include "qwen3/host/StageOracle.h"

#include "rngd/Runtime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

constexpr int kChunk = 512; // T: keys per KV chunk (the generated attention stages' chunk)

/// The kernel a stage launches (the batch stages reuse the decode attention and
/// prefill_decoder kernels): kStages[s] names the stage in reports, this its kernel.
const char *stageKernel(int s);
/// The stages of a batched decode step, in launch order.
const std::vector<int> &batchStages();

class Pipeline;

/// What an observer sees of a launch: the stage and where in the run it is.
struct LaunchInfo {
  int stage = 0;
  int layer = -1;    // a layer's stage: its layer
  int position = 0;  // a decode stage: the token's position; a prefill stage: the block's first
  int chunk = 0;     // an attention stage: the KV chunk it reads
  int token = -1;    // embedding / token_lookup: the token
  int tokens = 0;    // a prefill stage: the block's prompt tokens
  int size = 0;      // a prefill stage: the block size T
  const char *x = "x", *y = "x"; // the buffers of the layer's input and output residual
};

/// Watches a pipeline's launches (Pipeline::observe): --check's BoundaryCheck. before() runs
/// before the launch, after() once its outputs are in HBM; neither may change the run.
class PipelineObserver {
public:
  virtual ~PipelineObserver() = default;
  virtual void before(const Pipeline &, const LaunchInfo &) {}
  virtual void after(const Pipeline &, const LaunchInfo &) {}
};

/// Where the host's rows sit in a prefill block's arguments (HbmLayout).
struct PrefillLayouts {
  HbmLayout x, rope, q, attn; // [T, H], [T, F], [T, Q], [Q, T]
};

/// One sequence's token in a batched decode step.
struct BatchToken {
  KvSequence *sequence = nullptr; // its KV chunks (from the pipeline's pool)
  int token = 0;
  int position = 0; // the token's position: its K/V row goes there
};

/// A step runs Embedding (the host uploads the token's row) or TokenLookup (the host writes the
/// row's byte offset; a DMA gather reads the row from the resident table), then the others.
/// A prefill runs the three multi-token stages per layer (docs/prefill.md), then FinalLayer.
enum Stage {
  Embedding,
  Projection,
  AttentionFirst,
  AttentionNext,
  Decoder,
  FinalLayer,
  TokenLookup,
  // A chip of a tensor-parallel group (PipelineTensorParallel.cpp, docs/multichip.md) runs the
  // decoder in two parts with the chips' all-reduce after each.
  DecoderOut, // decoder_out: a = x / sum, o-proj of the chip's heads (+ the residual on chip 0)
  DecoderMlp, // decoder_mlp: RMSNorm of the summed r, the chip's block of the MLP
  ChipLink,   // no kernel: the modelled PCIe time of the all-reduces and the logits' gather
  PrefillProjection,
  PrefillAttention,      // prefill_attention_first: the block's own chunk, causal
  PrefillAttentionChunk, // prefill_attention: an earlier chunk folded into the state
  PrefillDecoder,
  PrefillAttentionPartial, // prefill_attention_partial: the first rows of the block's own chunk
                           // (written by an earlier turn), masked past them
  PrefillDecoderOut, // prefill_decoder_out, prefill_decoder_mlp: a tensor-parallel chip's
  PrefillDecoderMlp, // prefill_decoder in two parts, an all-reduce after each
  PrefillAttentionDecoder, // prefill_attention_decoder: prefill_attention_first and
                           // prefill_decoder in one kernel (one chip's blocks)
  // The batched decode step (PipelineBatch.cpp): B sequences padded to a block of T tokens.
  BatchProjection,     // batch_projection_t<T>: q/k/v of every token, K/V rows to staging
  BatchKvStore,        // batch_kv_store_t<T>: the staged rows into the pool (slot mapping)
  BatchAttentionFirst, // batch_attention_first_t<T>: every sequence's first page of keys
  BatchAttentionNext,  // batch_attention_t<T>: page j of every sequence, folded into the state
  BatchAttentionNorm,  // batch_attention_norm_t<T>: a = out / sum into the decoder's layout
  BatchDecoder,        // prefill_decoder_t<T>
  BatchFinalLayer,     // batch_final_layer_t<T>: the LM head for every token
  KvCopy,              // kv_copy_t<T>: a shared prefix's rows into a sequence's own chunk
  NumStages
};
extern const char *const kStages[NumStages];

struct StageStats {
  int64_t launches = 0;
  int64_t cycles = 0;
  double wallSeconds = 0;
  // From the schedule JSON of each launch's kernel (a prefill stage launches at several block
  // sizes): sums over the launches, and whether every loaded kernel's schedule is known.
  int64_t hbmBytes = 0;
  int64_t rooflineCycles = 0;
  int64_t predictedCycles = 0;
  bool scheduleKnown = true;
};

/// What rngdc's schedule JSON (--dump-schedule, DIR/<stage>.json) says about one launch.
struct ScheduleInfo {
  bool known = false;
  int64_t hbmBytes = 0;       // bytes moved between HBM and the chip per launch
  int64_t rooflineCycles = 0; // the schedule's roofline per launch
  int64_t makespan = 0;       // the scheduler's makespan estimate
};

/// Reads DIR/<stage>.json when present (known = false otherwise); malformed JSON throws.
ScheduleInfo readSchedule(const std::string &path, const char *stage);

/// The device HBM a run takes, as Device::allocate pads it (hbmArgumentAlignment), from the
/// config alone: rngd-qwen3 refuses a model that does not fit before it loads any weight.
struct HbmPlan {
  uint64_t weights = 0;     // every layer's tensors, the final norm, the LM head padded to Wp
                            // rows (and, with device lookup of an untied model, the table)
  uint64_t kvCache = 0;     // the KV pool: a chunk of 512 positions per 512 positions of the run
  uint64_t activations = 0; // x, q, the attention state, per-step inputs, logits
  uint64_t total() const { return weights + kvCache + activations; }
};

/// A pipeline that is one chip of a tensor-parallel group: its weights are the chip's shard
/// (ShardWeights.h), and it exchanges rows with the other chips through `collective`.
struct TensorParallel {
  Collective *collective = nullptr; // null: one chip, the whole model
  int vocab = 0;                    // the whole model's vocabulary
};

class Pipeline {
public:
  /// The buffers of a run of `positions` positions (start position + prompt + new tokens - 1)
  /// with cfg.numLayers layers; tiedHead: lm_head is the embedding; tensorParallel: cfg is a
  /// tensor-parallel chip's shard, whose decoder parts add their scratch rows.
  static HbmPlan hbmPlan(const Qwen3Config &cfg, int positions, bool deviceLookup, bool tiedHead,
                         const std::vector<int> &prefillSizes = {},
                         const rngd::TargetModel &target = rngd::defaultTarget(),
                         bool tensorParallel = false);

  /// Loads DIR/<stage>.rngd for the six decode stages of a step (with deviceLookup, token_lookup
  /// instead of embedding) and, for each prefill block size T in prefillSizes, the multi-token
  /// stages of prefillStages() as DIR/<stage>_t<T>.rngd; allocates the buffers (a KV pool for
  /// `positions` positions) and uploads the weights.
  /// With tp.collective, the weights are this chip's shard and the stages
  /// tensorParallelStages()' (and the prefill stages of prefillStages() at the prefill sizes;
  /// no device lookup).
  Pipeline(const std::string &dir, const Weights &weights, int positions,
           bool deviceLookup = false, const std::vector<int> &prefillSizes = {},
           const TensorParallel &tp = {});
  /// The KV chunks a run of `positions` positions takes (at least one).
  static int kvChunks(int positions);
  /// The decode stages a run loads.
  static std::vector<int> stagesUsed(bool deviceLookup);
  /// The prefill stages a single-chip run loads at each block size: prefill_projection,
  /// prefill_attention (earlier chunks) and prefill_attention_decoder, and with withPartial
  /// prefill_attention_partial (optional: a prompt that continues a sequence mid-chunk).
  static std::vector<int> prefillStagesUsed(bool withPartial = false);
  /// The stages a chip of a tensor-parallel group runs, ChipLink included.
  static std::vector<int> tensorParallelStages();
  /// A stage's file stem: the stage's name, a prefill stage's with its block size
  /// ("prefill_decoder_t128").
  static std::string stageFile(int stage, int tokens);
  /// A batch stage's file stem at block size T: stageFile's, with the pool it was placed for
  /// for the stages that address the pool ("batch_kv_store_t16_p9").
  static std::string batchStageFile(int stage, int tokens, int poolChunks);
  /// The block sizes a prompt of n tokens is prefilled in, each block starting a KV chunk:
  /// whole chunks while more than a chunk remains, then the smallest block size (of `sizes`,
  /// the generator's, ascending, the largest a chunk) that covers the rest: 9 -> {16},
  /// 600 -> {512, 128}.
  static std::vector<int> prefillBlocks(int n, const std::vector<int> &sizes);
  /// Whether this pipeline runs stage s (a prefill stage: at any block size).
  bool uses(int s) const;

  /// One token at `pos`; when wantLogits, runs final_layer and fills logits [W] (float).
  /// In a tensor-parallel group rank 0 calls it (and sends the step to the other ranks, which
  /// run it in followSteps()); its logits are the whole vocabulary's, gathered.
  void step(int token, int pos, bool wantLogits, std::vector<float> &logits);
  /// A tensor-parallel rank other than 0: runs the steps rank 0 sends until it calls
  /// endFollowers().
  void followSteps();
  /// Rank 0: ends the other ranks' followSteps().
  void endFollowers();

  /// 1..size tokens at positions start.. in a block of `size` tokens (a loaded prefill size,
  /// padded with zero rows); its rows start % kChunk .. + size must lie in one KV chunk, and
  /// every position before `start` must be filled. Per layer prefill_projection (writes the
  /// block's K/V rows), prefill_attention over each earlier chunk, prefill_attention_partial
  /// over the rows of the block's chunk before it (when start is not at a chunk's start), and
  /// prefill_attention_first over the block's own keys, then prefill_decoder; when wantLogits,
  /// final_layer on the last token's row.
  void prefill(const std::vector<int> &tokens, int start, int size, bool wantLogits,
               std::vector<float> &logits);
  /// The prefill stages this pipeline loads at each block size: prefillStagesUsed() (and
  /// prefill_attention_partial when loaded); a tensor-parallel chip's: prefill_projection,
  /// prefill_attention_first and the decoder's two parts, for blocks in the first KV chunk.
  std::vector<int> prefillStages() const;
  /// One piece of a prompt: `count` tokens from position `start` as one prefill block of
  /// `size` tokens, or (size 0) one decode step, where no block fits the rows left in the chunk.
  struct PrefillPiece {
    int start = 0, count = 0, size = 0;
  };
  /// How a prompt of n tokens at positions start.. runs: blocks that each stay in one chunk,
  /// the smallest size (of `sizes`, ascending, the largest a chunk) that covers what is left of
  /// the chunk, or the largest that fits; decode steps where fewer than sizes[0] rows are left.
  /// Without prefill_attention_partial (partialLoaded false) a block must start a chunk.
  static std::vector<PrefillPiece> prefillPlan(int start, int n, const std::vector<int> &sizes,
                                               bool partialLoaded = true);
  /// The prefill block sizes loaded, ascending.
  std::vector<int> prefillSizes() const;
  /// Whether prefill_attention_partial was loaded (its files were in DIR).
  bool partialPrefill() const { return partialLoaded_; }

  /// Loads the batched decode step's kernels for each block size T in `sizes` (the generator's
  /// batchTokenCounts()) from DIR (DIR/batch_kv_store_t<T>.rngd placed for this pipeline's
  /// pool: kvCache().capacity() chunks) and allocates their buffers; takes one chunk of the
  /// pool for the padding tokens' K/V rows.
  void enableBatch(const std::string &dir, const std::vector<int> &sizes);
  /// The block sizes enableBatch loaded (ascending); empty when it was not called.
  const std::vector<int> &batchSizes() const { return batchSizes_; }
  /// One decode step of B = tokens.size() sequences (1..the largest batch size), each at its
  /// own position with its own chunks (reserved here up to the position): the weights stream
  /// once for all of them, attention runs per sequence over its chunks. logits[b]: token b's
  /// [W] (float). A sequence's logits do not depend on B or on the other sequences. Returns
  /// the step's device cycles.
  int64_t stepBatch(const std::vector<BatchToken> &tokens, std::vector<std::vector<float>> &logits);
  /// Gives `to` (holding no chunk yet) the KV rows of `from`'s positions [0, positions): the
  /// whole chunks shared, the rest of the last copied into a chunk of its own by kv_copy (so
  /// `to` may write its next rows). Needs enableBatch.
  void forkPrefix(const KvSequence &from, int positions, KvSequence &to);
  /// Runs step() and prefill() on `sequence`'s chunks from now on (nullptr: the pipeline's own
  /// sequence).
  void useSequence(KvSequence *sequence) { active_ = sequence ? sequence : seq_.get(); }

  /// Fills the KV rows of positions 0..length-1 of layer L with the given bf16 rows
  /// ([length][kvDim]); takes the chunks they need.
  void preloadCache(int layer, int length, const std::vector<uint16_t> &k,
                    const std::vector<uint16_t> &v);

  /// --check: compare every boundary of every layer with the host oracle (a BoundaryCheck
  /// observer).
  void checkBoundaries();
  /// The reference rule over all of a stage's checked elements, and its failing launches.
  const oracle::RuleCount &boundaryCheck(int s) const;
  int failedLaunches(int s) const;
  /// Calls `observer` around every launch from now on (it must outlive the pipeline's runs).
  void observe(PipelineObserver *observer) { observers_.push_back(observer); }

  // What observers read.
  const Qwen3Config &config() const { return cfg_; }
  const Weights &weights() const { return w_; }
  /// A device buffer's contents (the names Pipeline.cpp gives them: "x", "q", ...).
  template <typename T> std::vector<T> readBuffer(const std::string &name) const {
    return read<T>(*buffers_.at(name));
  }
  /// Layer L's keys or values of the active sequence's chunk `index` ([T, N, D] bf16): `rows`
  /// rows from row `first` (-1: to the chunk's end).
  std::vector<uint16_t> readChunk(int layer, char kind, int index, int first = 0,
                                  int rows = -1) const;
  const PrefillLayouts &prefillLayouts(int size) const { return prefill_.at(size); }

  const StageStats &stats(int s) const { return stats_[s]; }
  const rngd::Device &device() const { return device_; }
  const KvCache &kvCache() const { return *kv_; }
  KvCache &kvCache() { return *kv_; }

private:
  /// The four multi-token stages at one block size, and where the host's data sits in them.
  struct PrefillSet : PrefillLayouts {
    std::unique_ptr<rngd::Kernel> kernels[8]; // PrefillProjection .. PrefillAttentionDecoder
    ScheduleInfo schedules[8];
  };
  /// The batched step's kernels at one block size (BatchProjection .. BatchFinalLayer).
  struct BatchSet {
    std::unique_ptr<rngd::Kernel> kernels[NumStages];
    ScheduleInfo schedules[NumStages];
    HbmLayout x, rope, logits; // [T, H], [T, F], [T, Wp]
  };
  void selectBatch(int size);
  void runStep(int token, int pos, bool wantLogits, std::vector<float> &logits);
  void sendStep(int token, int pos, bool wantLogits);
  void runPrefill(const std::vector<int> &tokens, int start, int size, bool wantLogits,
                  std::vector<float> &logits);
  void sendPrefill(const std::vector<int> &tokens, int start, int size, bool wantLogits);
  /// Tensor parallel: a prefill block's embedding rows (each from the chip that holds it), and
  /// a layer's prefill decoder in two parts from `x` into `y`.
  std::vector<uint16_t> shardEmbeddingRows(const std::vector<int> &tokens);
  void tensorParallelPrefillDecoder(int layer, rngd::Buffer &x, rngd::Buffer &y);
  void setUpTensorParallelPrefill();
  /// Tensor parallel: the decoder stages' buffers and bindings; a layer's decoder in two parts
  /// with the all-reduces; the token's embedding row from the chip that holds it; the logits
  /// gathered on rank 0.
  void setUpTensorParallel();
  void tensorParallelDecoder(int layer, const LaunchInfo &at);
  std::vector<uint16_t> shardEmbeddingRow(int token);
  void gatherLogits(std::vector<float> &logits);
  /// Reads `b` ([H] bf16, or its first `values`), sums it over the chips and counts the link's
  /// time.
  std::vector<uint16_t> allReduce(rngd::Buffer &b, size_t values = 0);
  /// Adds a transfer's modelled cycles to ChipLink's counters.
  void countLink(int64_t cycles);
  /// The multi-token projections' weights (q, k and v rows in one tensor laid out as
  /// `qkvArg` says, and the heads' norm weights), once; a later kernel must read the same
  /// layout.
  void uploadPrefillWeights(const rngd::ArgInfo &qkvArg);
  /// The MLP's weights zero-padded to the prefill decoder's intermediate when its stage pads
  /// L (gate_weight's rows; docs/placement.md), once per layer; nothing when it does not.
  /// The arguments' axes are L and H with `axisPrefix` before them.
  void uploadPaddedMlp(const rngd::ArgInfo &gateArg, const rngd::ArgInfo &downArg,
                       const std::string &axisPrefix);
  /// bindLayer for a prefill decoder stage: gate/up/down from the padded copies, if any.
  void bindPrefillDecoder(int s, int layer,
                          const std::vector<std::pair<const char *, const char *>> &args);
  /// The batch's embedding rows, RoPE rows and K/V slots; per-sequence chunks reserved.
  void writeBatchInputs(const std::vector<BatchToken> &tokens, int T, const BatchSet &set);
  /// Attention of every sequence over its keys, a page of S keys of every sequence a launch
  /// (the page table and masks written per page).
  void batchAttention(int layer, const std::vector<BatchToken> &tokens, int T);
  void loadStage(const std::string &dir, const std::string &file, const char *name,
                 std::unique_ptr<rngd::Kernel> &kernel, ScheduleInfo &schedule);
  /// Points the prefill stages at block size T's kernels.
  void selectBlock(int size);
  void setUpPrefill(const std::vector<int> &sizes);
  /// The selected block size's RoPE tables of positions first.., and its causal masks.
  void writeRopeTables(const PrefillSet &set, size_t first, size_t rows);
  void writeMasks();
  /// Throws unless `token` is a vocabulary id.
  void checkToken(int token) const;
  /// final_layer on `x`: fills logits [W] (float), checked under --check.
  void finalLogits(std::vector<float> &logits);
  rngd::Buffer &buffer(const std::string &name, uint64_t bytes);
  rngd::Buffer &weight(const std::string &name);
  /// Binds `arg` of stage s to layer L's keys ('k') or values ('v') of the sequence's chunk
  /// `index` (taken from the pool on first use), from its row `row`.
  void bindChunk(int s, const char *arg, int layer, char kind, int index, int row = 0);
  void bind(int s, const char *arg, rngd::Buffer &b);
  /// Binds `arg` to the first bytes of `b` (a prefill block's part of a buffer sized for the
  /// largest block).
  void bindView(int s, const char *arg, rngd::Buffer &b);
  void bindLayer(int s, int layer, const std::vector<std::pair<const char *, const char *>> &args);
  /// Launches stage s (`info` for the observers; its stage is set here).
  void launch(int s, LaunchInfo info = {});
  template <typename T> std::vector<T> read(const rngd::Buffer &b) const {
    std::vector<T> v(b.bytes() / sizeof(T));
    check(b.read(v.data(), v.size() * sizeof(T)), "reading " + b.name());
    return v;
  }
  template <typename T> void write(rngd::Buffer &b, const std::vector<T> &v) {
    check(b.write(v.data(), v.size() * sizeof(T)), "writing " + b.name());
  }

  const Weights &w_;
  const Qwen3Config &cfg_;
  const TensorParallel tp_;
  const bool deviceLookup_;
  uint64_t paddedVocab_ = 0; // Wp: the LM head's rows, final_layer's lm_head_weight
  rngd::Device device_; // declared before the kernels: bound buffers outlive them
  std::unique_ptr<KvCache> kv_;
  std::unique_ptr<KvSequence> seq_; // the pipeline's own sequence
  KvSequence *active_ = nullptr;     // the sequence step() and prefill() run on
  bool prefillWeights_ = false;      // prefill.qkv_weight / head_rms_weight uploaded
  std::string prefillWeightLayout_;  // the qkv_weight layout they were uploaded in
  bool partialLoaded_ = false;       // prefill_attention_partial at every prefill size
  bool chunkLoaded_ = false;         // prefill_attention at every prefill size
  bool paddedMlp_ = false;           // prefill.<layer>.mlp.*: the MLP padded (uploadPaddedMlp)
  std::map<int, BatchSet> batch_;    // by block size
  std::unique_ptr<rngd::Kernel> kvCopy_; // kv_copy at the largest batch size
  ScheduleInfo kvCopySched_;
  std::vector<int> batchSizes_;
  int paddingChunk_ = -1; // the pool chunk the padding tokens' K/V rows go to
  std::unique_ptr<rngd::Kernel> decode_[NumStages]; // the decode stages' kernels
  ScheduleInfo decodeSched_[NumStages];
  std::map<int, PrefillSet> prefill_; // by block size
  rngd::Kernel *k_[NumStages] = {};   // what each stage launches now
  const ScheduleInfo *sched_[NumStages] = {};
  StageStats stats_[NumStages];
  std::vector<PipelineObserver *> observers_;
  std::unique_ptr<PipelineObserver> checker_; // checkBoundaries()'s BoundaryCheck
  std::map<std::string, rngd::Buffer *> buffers_;
};

} // namespace rngd::qwen3
