// rngd-qwen3: Qwen3 on the RNGD simulator (docs/qwen3.md). The options (CliOptions.h) and the
// runs (CliRun.h: one prompt, or --prompts' requests batched; CliTensorParallel.h: one prompt
// over several chips, one MPI rank each) are in the host library's tool files; this is main.
#include "qwen3/host/CliOptions.h"
#include "qwen3/host/CliRun.h"
#include "qwen3/host/CliTensorParallel.h"
#include "qwen3/host/MpiGroup.h"

#include <cstdio>
#include <exception>
#include <new>

namespace {

/// --tensor-parallel: this process is one rank of an mpirun. An error on any rank ends them all
/// (MpiGroup), with the message of the rank that failed.
int runRank(const rngd::qwen3::cli::Options &opt, int argc, char **argv) {
  rngd::qwen3::MpiGroup group(&argc, &argv);
  try {
    int code = rngd::qwen3::cli::runTensorParallel(opt, group);
    group.finish();
    return code;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "rngd-qwen3: error: rank %d: out of memory\n", group.rank());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rngd-qwen3: error: rank %d: %s\n", group.rank(), e.what());
  }
  std::fflush(stderr);
  group.abort(1);
}

} // namespace

int main(int argc, char **argv) {
  try {
    rngd::qwen3::cli::Options opt = rngd::qwen3::cli::parseArgs(argc, argv);
    if (opt.tensorParallel > 0)
      return runRank(opt, argc, argv);
    return rngd::qwen3::cli::run(std::move(opt));
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "rngd-qwen3: error: out of memory\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rngd-qwen3: error: %s\n", e.what());
  }
  return 1;
}
