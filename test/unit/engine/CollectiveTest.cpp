// The tensor-parallel group's host side (Collective.h, ShardWeights.h): the all-reduce's order
// and rounding, the PCIe link model against worked examples, and how a shard cuts the weights.
#include "qwen3/host/Bf16.h"
#include "qwen3/host/Collective.h"
#include "qwen3/host/SeededWeights.h"
#include "qwen3/host/ShardWeights.h"

#include "../qwen3/Helpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace rngd::qwen3;

namespace {

/// Rank `me` of a group whose other ranks' contributions are given: allGather returns them in
/// rank order with this rank's own in its place.
class FixedGroup : public Collective {
public:
  FixedGroup(int me, std::vector<std::vector<uint16_t>> parts) : me_(me), parts_(std::move(parts)) {}
  int rank() const override { return me_; }
  int size() const override { return int(parts_.size()); }
  void broadcast(void *, size_t, int) override {}
  void allGather(const void *mine, size_t bytes, void *all) override {
    for (size_t r = 0; r < parts_.size(); ++r)
      std::memcpy(static_cast<char *>(all) + r * bytes,
                  int(r) == me_ ? mine : static_cast<const void *>(parts_[r].data()), bytes);
  }
  void gather(const void *mine, size_t bytes, void *all) override { allGather(mine, bytes, all); }

private:
  int me_;
  std::vector<std::vector<uint16_t>> parts_;
};

} // namespace

TEST_CASE("all-reduce: f32 sums in rank order, rounded to bf16 once", "[tp]") {
  // 1 + 2^-8 + 2^-8: rounding after each add would lose both small terms (1 + 2^-8 is a tie
  // that rounds to even, 1); summed in f32 and rounded once it is 1 + 2^-7, a bf16.
  const uint16_t one = floatToBf16(1.0f), small = floatToBf16(1.0f / 256);
  std::vector<uint16_t> mine = {one, floatToBf16(3.0f)};
  FixedGroup group(0, {{}, {small, floatToBf16(-1.0f)}, {small, floatToBf16(0.5f)}});
  allReduceBf16(group, mine);
  CHECK(bf16ToFloat(mine[0]) == 1.0f + 1.0f / 128);
  CHECK(bf16ToFloat(mine[1]) == 2.5f);
}

TEST_CASE("PCIe link model: worked examples", "[tp]") {
  const rngd::TargetModel &t = rngd::defaultTarget();
  // One chip moves nothing.
  CHECK(allReduceCycles(t, 1, 2048) == 0);
  CHECK(gatherCycles(t, 1, 1000) == 0);
  // Hidden 1024 in bf16 (2048 bytes) over 2 chips: 2 transfers of 1024 bytes, each
  // 500 + ceil(1024 / 30) = 535 cycles.
  CHECK(allReduceCycles(t, 2, 2048) == 2 * 535);
  // Hidden 5120 (10,240 bytes) over 4 chips: 6 transfers of 2,560 bytes: 6 x (500 + 86).
  CHECK(allReduceCycles(t, 4, 10240) == 6 * 586);
  // 151,936 logits over 8 chips: blocks of 18,992 bf16; chip 0 receives 7 of them through its
  // link after one start-up: 500 + ceil(7 x 37,984 / 30) = 500 + 8,863.
  CHECK(gatherCycles(t, 8, 37984) == 500 + 8863);
}

TEST_CASE("shard: heads, MLP and vocabulary split; norms whole", "[tp]") {
  Qwen3Config cfg = test::tinyConfig();
  cfg.vocabSize = 7; // 2 chips: blocks of 4, the second padded with one zero row
  const Qwen3Config shard = shardConfig(cfg, 2);
  CHECK(shard.numHeads == cfg.numHeads / 2);
  CHECK(shard.numKvHeads == cfg.numKvHeads / 2);
  CHECK(shard.intermediateSize == cfg.intermediateSize / 2);
  CHECK(shard.vocabSize == 4);
  const Weights full = seededWeights(cfg, 7);
  std::unique_ptr<Weights> second = seededShard(cfg, 7, 1, 2);
  const int64_t H = cfg.hiddenSize, L = cfg.intermediateSize, Q = cfg.qDim(), P = cfg.kvDim();
  // Element (r, c) of chip 1's block is element (row0 + r, col0 + c) of the whole tensor.
  auto same = [&](const char *suffix, int64_t row0, int64_t col0) {
    const Bf16Tensor &whole = full.layer(1, suffix), &part = second->layer(1, suffix);
    const int64_t width = whole.shape.back(), rows = part.shape[0], cols = part.shape[1];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        if (part.data[size_t(r * cols + c)] != whole.data[size_t((row0 + r) * width + col0 + c)])
          return false;
    return true;
  };
  CHECK(second->layer(1, "self_attn.q_proj.weight").shape == std::vector<int64_t>{Q / 2, H});
  CHECK(same("self_attn.q_proj.weight", Q / 2, 0));
  CHECK(same("self_attn.k_proj.weight", P / 2, 0));
  CHECK(same("self_attn.v_proj.weight", P / 2, 0));
  CHECK(second->layer(1, "self_attn.o_proj.weight").shape == std::vector<int64_t>{H, Q / 2});
  CHECK(same("self_attn.o_proj.weight", 0, Q / 2));
  CHECK(same("mlp.gate_proj.weight", L / 2, 0));
  CHECK(same("mlp.up_proj.weight", L / 2, 0));
  CHECK(same("mlp.down_proj.weight", 0, L / 2));
  CHECK(second->layer(1, "input_layernorm.weight").data ==
        full.layer(1, "input_layernorm.weight").data);
  // The vocabulary: rows 4..6 of 7, then a zero row.
  const Bf16Tensor &emb = second->get("model.embed_tokens.weight"),
                   &whole = full.get("model.embed_tokens.weight");
  CHECK(std::equal(emb.data.begin(), emb.data.begin() + 3 * H, whole.data.begin() + 4 * H));
  CHECK(std::all_of(emb.data.begin() + 3 * H, emb.data.end(), [](uint16_t v) { return v == 0; }));
}
