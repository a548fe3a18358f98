#include "compiler/placement/Qwen3Stages.h"

#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/BatchAttention.h"
#include "compiler/placement/qwen3/BatchKvStore.h"
#include "compiler/placement/qwen3/PrefillAttentionPartial.h"
#include "compiler/placement/qwen3/Stages.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace rngd::placement {

namespace {

using StageFn = llvm::Error (*)(StageBuilder &, const Qwen3Shape &, int64_t);

const std::map<std::string, StageFn> &stageBuilders() {
  static const std::map<std::string, StageFn> builders = {
      {"embedding", qwen3::buildEmbedding},
      {"token_lookup", qwen3::buildTokenLookup},
      {"projection", qwen3::buildProjection},
      {"attention_forward_first", qwen3::buildAttentionForwardFirst},
      {"attention_forward", qwen3::buildAttentionForward},
      {"decoder", qwen3::buildDecoder},
      {"decoder_out", qwen3::buildDecoderOut},
      {"decoder_mlp", qwen3::buildDecoderMlp},
      {"final_layer", qwen3::buildFinalLayer},
      {"prefill_projection", qwen3::buildPrefillProjection},
      {"prefill_attention_first", qwen3::buildPrefillAttentionFirst},
      {"prefill_attention", qwen3::buildPrefillAttention},
      {"prefill_attention_partial", qwen3::buildPrefillAttentionPartial},
      {"prefill_decoder", qwen3::buildPrefillDecoder},
      {"prefill_attention_decoder", qwen3::buildPrefillAttentionDecoder},
      {"prefill_decoder_out", qwen3::buildPrefillDecoderOut},
      {"prefill_decoder_mlp", qwen3::buildPrefillDecoderMlp},
      {"batch_projection", qwen3::buildBatchProjection},
      {"batch_kv_store", qwen3::buildBatchKvStore},
      {"batch_attention_norm", qwen3::buildBatchAttentionNorm},
      {"batch_final_layer", qwen3::buildBatchFinalLayer},
      {"kv_copy", qwen3::buildKvCopy},
      {"batch_attention_first", qwen3::buildBatchAttentionFirst},
      {"batch_attention", qwen3::buildBatchAttention},
  };
  return builders;
}

} // namespace

const std::vector<std::string> &decodeStageNames() {
  static const std::vector<std::string> names = {
      "embedding",         "token_lookup", "projection", "attention_forward_first",
      "attention_forward", "decoder",      "final_layer"};
  return names;
}

const std::vector<std::string> &tensorParallelStageNames() {
  static const std::vector<std::string> names = {
      "embedding",         "projection",  "attention_forward_first", "attention_forward",
      "decoder_out",       "decoder_mlp", "final_layer"};
  return names;
}

const std::vector<std::string> &tensorParallelPrefillStageNames() {
  static const std::vector<std::string> names = {"prefill_projection", "prefill_attention_first",
                                                 "prefill_decoder_out", "prefill_decoder_mlp",
                                                 "prefill_attention"};
  return names;
}

const std::vector<std::string> &prefillStageNames() {
  static const std::vector<std::string> names = {"prefill_projection", "prefill_attention_first",
                                                 "prefill_attention", "prefill_decoder",
                                                 "prefill_attention_decoder"};
  return names;
}

const std::vector<std::string> &extraPrefillStageNames() {
  static const std::vector<std::string> names = {"prefill_attention_partial",
                                                 "prefill_decoder_out", "prefill_decoder_mlp"};
  return names;
}

const std::vector<int64_t> &prefillTokenCounts() {
  static const std::vector<int64_t> counts = {16, 32, 64, 128, 256, 512};
  return counts;
}

const std::vector<std::string> &batchStageNames() {
  static const std::vector<std::string> names = {"batch_projection", "batch_kv_store",
                                                 "batch_attention_norm", "batch_final_layer",
                                                 "kv_copy",
                                                 "batch_attention_first", "batch_attention"};
  return names;
}

const std::vector<int64_t> &batchTokenCounts() {
  static const std::vector<int64_t> counts = {16, 32, 64};
  return counts;
}

std::string prefillStageName(const std::string &stage, int64_t tokens) {
  return stage + "_t" + std::to_string(tokens);
}

llvm::Expected<GeneratedStage> buildQwen3Stage(mlir::MLIRContext *context, const std::string &stage,
                                               const Qwen3Shape &shape, const TargetModel &target,
                                               int64_t tokens, int64_t poolChunks) {
  auto it = stageBuilders().find(stage);
  if (it == stageBuilders().end()) {
    std::vector<std::string> known;
    for (const auto &entry : stageBuilders())
      known.push_back(entry.first);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no stage `" + stage + "`; the generator builds " +
                                       llvm::join(known, ", "));
  }
  bool batch = llvm::is_contained(batchStageNames(), stage);
  bool prefill = batch || llvm::is_contained(prefillStageNames(), stage) ||
                 llvm::is_contained(extraPrefillStageNames(), stage);
  const std::vector<int64_t> &counts = batch ? batchTokenCounts() : prefillTokenCounts();
  if (prefill && !llvm::is_contained(counts, tokens)) {
    std::vector<std::string> allowed;
    for (int64_t c : counts)
      allowed.push_back(std::to_string(c));
    return placementError(stage, batch ? "batch block size" : "prefill block size",
                          "T = " + llvm::Twine(tokens) + " is not one of " +
                              llvm::join(allowed, ", "));
  }
  StageBuilder b(context, target, stage);
  // batch_kv_store and the batched attention also take the pool's size (the other stages'
  // builders do not).
  llvm::Error built =
      stage == "batch_kv_store" ? qwen3::buildBatchKvStorePool(b, shape, tokens, poolChunks)
      : stage == "batch_attention_first"
          ? qwen3::buildBatchAttentionFirstPool(b, shape, tokens, poolChunks)
      : stage == "batch_attention" ? qwen3::buildBatchAttentionPool(b, shape, tokens, poolChunks)
                                   : it->second(b, shape, prefill ? tokens : 1);
  if (built)
    return built;
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module = b.finish();
  if (!module)
    return module.takeError();
  GeneratedStage out;
  out.name = prefill ? prefillStageName(stage, tokens) : stage;
  out.header = "Generated by rngd-stagegen (compiler/placement) for " + target.name +
               " and a Qwen3 of\n" + shape.describe() + ". Regenerate, do not edit.\n\n" +
               b.header();
  out.module = std::move(*module);
  return out;
}

std::string printStage(GeneratedStage &stage) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(stage.header).split(lines, '\n');
  for (llvm::StringRef line : lines)
    os << (line.empty() ? "//" : "// " + line.str()) << "\n";
  stage.module->print(os, mlir::OpPrintingFlags());
  return text;
}

} // namespace rngd::placement
