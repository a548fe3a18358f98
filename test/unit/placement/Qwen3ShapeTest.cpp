// parseQwen3Config: the sizes of each Qwen3 dense config, and what it refuses.
#include "compiler/placement/Qwen3Shape.h"

#include <catch2/catch.hpp>

using rngd::placement::parseQwen3Config;
using rngd::placement::Qwen3Shape;

namespace {

std::string config(int hidden, int inter, int heads, int kv, bool tied, const char *extra = "") {
  return "{\"model_type\": \"qwen3\", \"hidden_size\": " + std::to_string(hidden) +
         ", \"intermediate_size\": " + std::to_string(inter) +
         ", \"num_attention_heads\": " + std::to_string(heads) +
         ", \"num_key_value_heads\": " + std::to_string(kv) +
         ", \"head_dim\": 128, \"vocab_size\": 151936, \"num_hidden_layers\": 36"
         ", \"rms_norm_eps\": 1e-06, \"rope_theta\": 1000000, \"tie_word_embeddings\": " +
         (tied ? "true" : "false") + extra + "}";
}

} // namespace

TEST_CASE("Qwen3 4B: q heads x head_dim differs from hidden") {
  Qwen3Shape s;
  std::string error;
  REQUIRE(parseQwen3Config(config(2560, 9728, 32, 8, true), s, error));
  CHECK(s.hidden == 2560);
  CHECK(s.intermediate == 9728);
  CHECK(s.qDim() == 4096);
  CHECK(s.kvDim() == 1024);
  CHECK(s.groups() == 4);
  CHECK(s.layers == 36);
  CHECK(s.tied);
  CHECK(s.describe() == "hidden 2560, intermediate 9728, heads 32 / 8, head_dim 128, vocab 151936");
}

TEST_CASE("Qwen3 14B: untied, 40 q heads") {
  Qwen3Shape s;
  std::string error;
  REQUIRE(parseQwen3Config(config(5120, 17408, 40, 8, false), s, error));
  CHECK(s.qDim() == 5120);
  CHECK(s.groups() == 5);
  CHECK_FALSE(s.tied);
  CHECK(s.rmsNormEps == 1e-6);
  CHECK(s.ropeTheta == 1e6);
}

TEST_CASE("head_dim defaults to hidden / heads") {
  Qwen3Shape s;
  std::string error;
  std::string text = "{\"model_type\": \"qwen3\", \"hidden_size\": 512, \"intermediate_size\": "
                     "1024, \"num_attention_heads\": 8, \"num_key_value_heads\": 4, "
                     "\"vocab_size\": 1000, \"num_hidden_layers\": 2}";
  REQUIRE(parseQwen3Config(text, s, error));
  CHECK(s.headDim == 64);
}

TEST_CASE("refusals name the field") {
  Qwen3Shape s;
  std::string error;
  CHECK_FALSE(parseQwen3Config(config(1024, 3072, 16, 8, true, ", \"rope_theta\": 0"), s, error));
  CHECK(error == "config.json: `rope_theta` must be a positive number");
  CHECK_FALSE(parseQwen3Config(config(1024, 3072, 16, 6, true), s, error));
  CHECK(error == "config.json: num_attention_heads 16 is not a multiple of num_key_value_heads 6");
  CHECK_FALSE(parseQwen3Config("{\"model_type\": \"qwen3\"}", s, error));
  CHECK(error == "config.json: `hidden_size` is missing");
  CHECK_FALSE(parseQwen3Config("[1, 2]", s, error));
  CHECK(error == "config.json is not a JSON object");
}
