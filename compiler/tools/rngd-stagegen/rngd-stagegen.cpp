// rngd-stagegen: the Qwen3 stages for a model, placed from its config.json.
//
//   rngd-stagegen CONFIG.json -o DIR [--tokens T ...] [--stages a,b] [--target NAME]
//                 [--pool-chunks N] [--tensor-parallel N]
//
// Writes DIR/<stage>.mlir for every decode stage and, for each T, every prefill stage as
// DIR/<stage>_t<T>.mlir. A shape the generator cannot place is refused with the rule it fails.
// --pool-chunks sizes the KV pool of batch_kv_store, batch_attention_first and batch_attention
// (in KV chunks; the other stages ignore it). --tensor-parallel N writes one chip's decode stages
// for its shard of a group of N chips (docs/multichip.md), and with --tokens its prefill stages
// at those block sizes.
#include "compiler/placement/Qwen3Stages.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace rngd;

namespace {

llvm::cl::OptionCategory options("rngd-stagegen options");
llvm::cl::opt<std::string> configFile(llvm::cl::Positional, llvm::cl::desc("<config.json>"),
                                      llvm::cl::Required, llvm::cl::cat(options));
llvm::cl::opt<std::string> outputDir("o", llvm::cl::desc("directory to write the stages to"),
                                     llvm::cl::Required, llvm::cl::value_desc("dir"),
                                     llvm::cl::cat(options));
llvm::cl::list<int64_t> tokenCounts(
    "tokens", llvm::cl::desc("prefill block sizes to generate (default: 16 32 64 128 256 512)"),
    llvm::cl::value_desc("T"), llvm::cl::cat(options));
llvm::cl::list<std::string> stageNames(
    "stages", llvm::cl::CommaSeparated,
    llvm::cl::desc("generate only these stages (default: every decode and prefill stage)"),
    llvm::cl::value_desc("name,..."), llvm::cl::cat(options));
llvm::cl::opt<std::string> targetName("target",
                                      llvm::cl::desc("the machine to place for (default: the "
                                                     "default target)"),
                                      llvm::cl::value_desc("name"), llvm::cl::cat(options));

llvm::cl::opt<int64_t> poolChunks("pool-chunks",
                                  llvm::cl::desc("the KV pool of batch_kv_store and the batched "
                                                 "attention, in KV chunks (default 1)"),
                                  llvm::cl::init(1), llvm::cl::value_desc("N"),
                                  llvm::cl::cat(options));

llvm::cl::opt<int64_t> tensorParallel("tensor-parallel",
                                      llvm::cl::desc("one chip's decode stages for its shard of a "
                                                     "tensor-parallel group of N chips"),
                                      llvm::cl::init(0), llvm::cl::value_desc("N"),
                                      llvm::cl::cat(options));

int fail(const llvm::Twine &message) {
  llvm::errs() << "rngd-stagegen: error: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(options);
  llvm::cl::ParseCommandLineOptions(argc, argv, "Qwen3 stages placed from a model's config\n");

  const TargetModel *target = targetName.empty() ? &defaultTarget() : findTarget(targetName);
  if (!target)
    return fail("unknown target `" + targetName + "` (known: " + targetNames() + ")");
  auto buffer = llvm::MemoryBuffer::getFile(configFile);
  if (!buffer)
    return fail("cannot read " + configFile + ": " + buffer.getError().message());
  placement::Qwen3Shape shape;
  std::string error;
  if (!placement::parseQwen3Config((*buffer)->getBuffer().str(), shape, error))
    return fail(configFile + ": " + error);

  if (poolChunks < 1)
    return fail("--pool-chunks " + llvm::Twine(poolChunks) + ": the pool holds at least one chunk");
  std::vector<int64_t> counts(tokenCounts.begin(), tokenCounts.end());
  if (counts.empty())
    counts = placement::prefillTokenCounts();
  for (int64_t t : counts)
    if (!llvm::is_contained(placement::prefillTokenCounts(), t))
      return fail("--tokens " + llvm::Twine(t) + " is not a prefill block size (16, 32, 64, 128, "
                  "256 or 512)");

  // (stage, tokens, file stem) in output order.
  struct Job {
    std::string stage;
    int64_t tokens;
    std::string stem;
  };
  std::vector<Job> jobs;
  if (tensorParallel.getNumOccurrences()) {
    placement::Qwen3Shape shard;
    if (!placement::shardQwen3(shape, tensorParallel, shard, error))
      return fail(configFile + ": " + error);
    shape = shard;
    for (const std::string &s : placement::tensorParallelStageNames())
      jobs.push_back({s, 1, s});
    for (const std::string &s : placement::tensorParallelPrefillStageNames())
      for (int64_t t : tokenCounts)
        jobs.push_back({s, t, placement::prefillStageName(s, t)});
    counts.clear(); // the prefill stages only at --tokens' sizes
  } else {
    for (const std::string &s : placement::decodeStageNames())
      jobs.push_back({s, 1, s});
  }
  for (const std::string &s : placement::prefillStageNames())
    for (int64_t t : counts)
      jobs.push_back({s, t, placement::prefillStageName(s, t)});
  // The batched decode step's stages only when --stages names them (work in progress).
  for (const std::string &s : placement::batchStageNames())
    for (int64_t t : counts)
      if (llvm::is_contained(placement::batchTokenCounts(), t) &&
          llvm::is_contained(stageNames, s))
        jobs.push_back({s, t, placement::prefillStageName(s, t)});
  // Prefill stages outside the default set (prefill_attention_partial) likewise.
  for (const std::string &s : placement::extraPrefillStageNames())
    for (int64_t t : counts)
      if (llvm::is_contained(stageNames, s))
        jobs.push_back({s, t, placement::prefillStageName(s, t)});
  if (!stageNames.empty()) {
    for (const std::string &name : stageNames)
      if (!llvm::any_of(jobs, [&](const Job &j) { return j.stage == name || j.stem == name; }))
        return fail("--stages: no stage `" + name + "`");
    llvm::erase_if(jobs, [&](const Job &j) {
      return !llvm::is_contained(stageNames, j.stage) && !llvm::is_contained(stageNames, j.stem);
    });
  }

  // Every stage is built before any file is written: a shape refused at any stage leaves DIR
  // as it was.
  std::vector<std::pair<std::string, std::string>> files;
  for (const Job &job : jobs) {
    mlir::MLIRContext context; // one per stage: its type aliases are its own
    llvm::Expected<placement::GeneratedStage> stage =
        placement::buildQwen3Stage(&context, job.stage, shape, *target, job.tokens, poolChunks);
    if (!stage)
      return fail(llvm::toString(stage.takeError()));
    files.push_back({outputDir + "/" + job.stem + ".mlir", placement::printStage(*stage)});
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return fail("cannot create " + outputDir + ": " + ec.message());
  for (const auto &[path, text] : files) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write " + path + ": " + ec.message());
    os << text;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      return fail("cannot write " + path + ": " + why);
    }
  }
  return 0;
}
