// Pipeline::prefillPlan: how a prompt at any start position splits into prefill blocks that
// each stay in one KV chunk, and decode steps where no block fits.
#include "qwen3/host/Pipeline.h"

#include <catch2/catch.hpp>

using namespace rngd::qwen3;

namespace {

const std::vector<int> kSizes = {16, 32, 64, 128, 256, 512};

/// "start+count/size" per piece ("/0": a decode step).
std::string plan(int start, int n, bool partial = true,
                 const std::vector<int> &sizes = kSizes) {
  std::string out;
  for (const Pipeline::PrefillPiece &p : Pipeline::prefillPlan(start, n, sizes, partial))
    out += (out.empty() ? "" : " ") + std::to_string(p.start) + "+" + std::to_string(p.count) +
           "/" + std::to_string(p.size);
  return out;
}

} // namespace

TEST_CASE("prefill plan: from position 0, whole chunks then the smallest block that covers",
          "[prefill-plan]") {
  CHECK(plan(0, 9) == "0+9/16");
  CHECK(plan(0, 16) == "0+16/16");
  CHECK(plan(0, 17) == "0+17/32");
  CHECK(plan(0, 512) == "0+512/512");
  CHECK(plan(0, 600) == "0+512/512 512+88/128");
  CHECK(plan(0, 1030) == "0+512/512 512+512/512 1024+6/16");
  CHECK(Pipeline::prefillBlocks(600, kSizes) == std::vector<int>{512, 128});
  // Only the sizes a run loaded: the same blocks.
  CHECK(plan(0, 600, true, {128, 512}) == "0+512/512 512+88/128");
}

TEST_CASE("prefill plan: a continuation starts mid-chunk; blocks never cross a chunk",
          "[prefill-plan]") {
  CHECK(plan(5, 20) == "5+20/32");
  CHECK(plan(480, 40) == "480+32/32 512+8/16");
  CHECK(plan(300, 300) == "300+128/128 428+64/64 492+16/16 508+1/0 509+1/0 510+1/0 511+1/0 "
                          "512+88/128");
  // Fewer than 16 rows left in the chunk: decode steps up to its end.
  CHECK(plan(500, 14) == "500+1/0 501+1/0 502+1/0 503+1/0 504+1/0 505+1/0 506+1/0 507+1/0 "
                         "508+1/0 509+1/0 510+1/0 511+1/0 512+2/16");
  // Without prefill_attention_partial a block must start a chunk.
  CHECK(plan(510, 4, false) == "510+1/0 511+1/0 512+2/16");
  CHECK(plan(3, 2, false) == "3+1/0 4+1/0");
}
