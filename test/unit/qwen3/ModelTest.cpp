// Model description: the Qwen3-0.6B tensor list and shapes, and the Weights container's checks.
#include "Helpers.h"

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;

TEST_CASE("model: Qwen3-0.6B tensor list", "[qwen3][model]") {
  Qwen3Config c;
  CHECK(c.qDim() == 2048);
  CHECK(c.kvDim() == 1024);
  CHECK(c.groups() == 2);
  std::vector<TensorSpec> specs = expectedTensors(c);
  CHECK(specs.size() == 1 + 28 * 11 + 2);
  uint64_t params = 0;
  for (const auto &s : specs)
    if (s.name != "lm_head.weight") {
      uint64_t n = 1;
      for (int64_t d : s.shape)
        n *= uint64_t(d);
      params += n;
    }
  CHECK(params == 596049920ull); // docs/hardware.md section 8: embedding counted, lm_head tied
  auto shape = [&](const std::string &name) {
    const TensorSpec *s = findSpec(specs, name);
    REQUIRE(s != nullptr);
    return s->shape;
  };
  CHECK(shape("model.embed_tokens.weight") == std::vector<int64_t>{151936, 1024});
  CHECK(shape("model.layers.0.self_attn.q_proj.weight") == std::vector<int64_t>{2048, 1024});
  CHECK(shape("model.layers.27.self_attn.k_proj.weight") == std::vector<int64_t>{1024, 1024});
  CHECK(shape("model.layers.5.self_attn.o_proj.weight") == std::vector<int64_t>{1024, 2048});
  CHECK(shape("model.layers.5.self_attn.q_norm.weight") == std::vector<int64_t>{128});
  CHECK(shape("model.layers.5.mlp.down_proj.weight") == std::vector<int64_t>{1024, 3072});
  CHECK(shape("model.layers.5.mlp.gate_proj.weight") == std::vector<int64_t>{3072, 1024});
  CHECK(shape("lm_head.weight") == std::vector<int64_t>{151936, 1024});
  CHECK(findSpec(specs, "model.layers.28.mlp.up_proj.weight") == nullptr);
}

TEST_CASE("model: GQA head mapping", "[qwen3][model]") {
  Qwen3Config c;
  for (int h = 0; h < c.numHeads; ++h)
    CHECK(c.kvHeadOf(h) == h / 2);
  CHECK(c.kvHeadOf(0) == 0);
  CHECK(c.kvHeadOf(1) == 0);
  CHECK(c.kvHeadOf(2) == 1);
  CHECK(c.kvHeadOf(15) == 7);
}

TEST_CASE("model: config validation", "[qwen3][model]") {
  std::string error;
  CHECK(Qwen3Config().validate(error));
  Qwen3Config c = tinyConfig();
  c.numKvHeads = 3;
  CHECK_FALSE(c.validate(error));
  CHECK_THAT(error, Catch::Contains("num_key_value_heads 3"));
  c = tinyConfig();
  c.headDim = 15;
  CHECK_FALSE(c.validate(error));
  CHECK_THAT(error, Catch::Contains("even"));
  c = tinyConfig();
  c.numLayers = 0;
  CHECK_FALSE(c.validate(error));
}

TEST_CASE("model: Weights checks names and shapes", "[qwen3][model]") {
  Weights w(tinyConfig());
  std::string error;
  Bf16Tensor good{{64}, std::vector<uint16_t>(64, 0x3f80)};
  CHECK(w.set("model.norm.weight", good, error));
  CHECK(w.find("model.norm.weight") != nullptr);
  CHECK(w.get("model.norm.weight").data[3] == 0x3f80);

  CHECK_FALSE(w.set("model.layers.0.self_attn.k_proj.weight",
                    Bf16Tensor{{64, 64}, std::vector<uint16_t>(64 * 64)}, error));
  CHECK_THAT(error, Catch::Contains("model.layers.0.self_attn.k_proj.weight") &&
                        Catch::Contains("shape [64, 64], expected [32, 64]"));
  CHECK_FALSE(w.set("model.layers.2.mlp.up_proj.weight",
                    Bf16Tensor{{96, 64}, std::vector<uint16_t>(96 * 64)}, error));
  CHECK_THAT(error, Catch::Contains("not part of the model"));
  CHECK_FALSE(w.set("model.norm.weight", Bf16Tensor{{64}, std::vector<uint16_t>(63)}, error));
  CHECK_THAT(error, Catch::Contains("63"));

  CHECK_FALSE(w.complete(error));
  CHECK_THAT(error, Catch::Contains("model.embed_tokens.weight"));
  CHECK_THROWS_AS(w.get("lm_head.weight"), std::out_of_range);
}
