// Safetensors container and HF checkpoint loading: a tiny model round trip (tied and untied),
// layer truncation, and every loader error (missing tensor, shape, dtype, truncation, header
// JSON, offsets, config fields, eps).
#include "Helpers.h"

#include "qwen3/host/HfModel.h"
#include "qwen3/host/Safetensors.h"
#include "qwen3/host/SeededWeights.h"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;
using json = nlohmann::json;

namespace {

// A checkpoint directory holding `weights` (HF layout) and their config.json.
void writeCheckpoint(const ScratchDir &dir, const Weights &weights) {
  std::string error;
  REQUIRE(writeSafetensors(dir.file("model.safetensors"), weights, error));
  writeText(dir.file("config.json"), hfConfigJson(weights.config()));
}

std::map<std::string, RawTensor> rawTensors(const Weights &weights) {
  std::map<std::string, RawTensor> raw;
  for (const auto &[name, t] : weights.tensors())
    raw[name] = rawFromBf16(*t);
  return raw;
}

// Loads dir with the tiny config as the supported shapes; returns the error ("" on success).
std::string loadError(const ScratchDir &dir, std::unique_ptr<Weights> *out = nullptr,
                      int maxLayers = 0) {
  LoadOptions options;
  options.maxLayers = maxLayers;
  std::unique_ptr<Weights> w;
  std::string error;
  bool ok = loadHfModel(dir.str(), options, w, error);
  if (ok && out)
    *out = std::move(w);
  return ok ? "" : error;
}

// Writes a file from a header text and data bytes, header length as given.
void writeRaw(const std::string &path, const std::string &header, const std::string &data,
              uint64_t headerLength) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[i] = char(headerLength >> (8 * i));
  writeText(path, bytes + header + data);
}

} // namespace

TEST_CASE("safetensors: container round trip and layout", "[qwen3][safetensors]") {
  ScratchDir dir;
  std::map<std::string, RawTensor> raw;
  raw["a"] = RawTensor{"BF16", {2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
  raw["b"] = RawTensor{"F32", {1}, {0, 0, 128, 63}};
  std::string error;
  REQUIRE(writeSafetensors(dir.file("t.safetensors"), raw, error));
  std::string bytes = readBytes(dir.file("t.safetensors"));
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= uint64_t(uint8_t(bytes[i])) << (8 * i);
  CHECK(n % 8 == 0);
  CHECK(bytes.size() == 8 + n + 16);
  json header = json::parse(bytes.substr(8, n));
  CHECK(header["a"]["data_offsets"] == json({0, 12}));
  CHECK(header["b"]["data_offsets"] == json({12, 16}));
  CHECK(header["b"]["dtype"] == "F32");

  SafetensorsFile f;
  REQUIRE(f.open(dir.file("t.safetensors"), error));
  CHECK(f.entries().size() == 2);
  RawTensor a;
  REQUIRE(f.read("a", a, error));
  CHECK(a.bytes == raw["a"].bytes);
  CHECK(a.shape == std::vector<int64_t>{2, 3});
  Bf16Tensor abf;
  REQUIRE(f.readBf16("a", abf, error));
  CHECK(abf.data[0] == 0x0201); // little-endian
  CHECK_FALSE(f.readBf16("b", abf, error));
  CHECK_THAT(error, Catch::Contains("'b'") && Catch::Contains("F32"));
  CHECK_FALSE(f.read("c", a, error));
  CHECK_THAT(error, Catch::Contains("'c'"));
}

TEST_CASE("safetensors: tiny Qwen3 checkpoint round trip", "[qwen3][safetensors]") {
  for (bool tied : {false, true}) {
    ScratchDir dir;
    Weights w = seededWeights(tinyConfig(tied), 11);
    writeCheckpoint(dir, w);
    SafetensorsFile f;
    std::string error;
    REQUIRE(f.open(dir.file("model.safetensors"), error));
    CHECK((f.find("lm_head.weight") != nullptr) == !tied); // tied: left out, as HF saves it

    std::unique_ptr<Weights> loaded;
    REQUIRE(loadError(dir, &loaded) == "");
    CHECK(loaded->config().tieWordEmbeddings == tied);
    CHECK(loaded->config().numLayers == 2);
    REQUIRE(loaded->complete(error));
    for (const auto &[name, t] : w.tensors()) {
      INFO(name);
      CHECK(loaded->get(name).shape == t->shape);
      CHECK(loaded->get(name).data == t->data);
    }
    if (tied)
      CHECK(loaded->shared("lm_head.weight") == loaded->shared("model.embed_tokens.weight"));
  }
}

TEST_CASE("safetensors: loading fewer layers", "[qwen3][safetensors]") {
  ScratchDir dir;
  Weights w = seededWeights(tinyConfig(), 5);
  writeCheckpoint(dir, w);
  std::unique_ptr<Weights> loaded;
  REQUIRE(loadError(dir, &loaded, 1) == "");
  CHECK(loaded->config().numLayers == 1);
  CHECK(loaded->find("model.layers.1.mlp.up_proj.weight") == nullptr);
  CHECK(loaded->get("model.layers.0.mlp.up_proj.weight").data ==
        w.get("model.layers.0.mlp.up_proj.weight").data);
}

TEST_CASE("safetensors: missing, misshapen and mistyped tensors", "[qwen3][safetensors]") {
  Weights w = seededWeights(tinyConfig(), 5);
  std::string error;
  SECTION("missing tensor") {
    ScratchDir dir;
    auto raw = rawTensors(w);
    raw.erase("model.layers.1.mlp.up_proj.weight");
    REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
    writeText(dir.file("config.json"), hfConfigJson(w.config()));
    CHECK_THAT(loadError(dir), Catch::Contains("missing tensor 'model.layers.1.mlp.up_proj.weight'"));
  }
  SECTION("missing lm_head without tying") {
    ScratchDir dir;
    auto raw = rawTensors(w);
    raw.erase("lm_head.weight");
    REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
    writeText(dir.file("config.json"), hfConfigJson(w.config()));
    CHECK_THAT(loadError(dir), Catch::Contains("'lm_head.weight'") &&
                                   Catch::Contains("tie_word_embeddings is false"));
  }
  SECTION("wrong shape") {
    ScratchDir dir;
    auto raw = rawTensors(w);
    raw["model.layers.0.self_attn.k_proj.weight"].shape = {64, 32}; // same bytes, transposed
    REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
    writeText(dir.file("config.json"), hfConfigJson(w.config()));
    CHECK_THAT(loadError(dir), Catch::Contains("'model.layers.0.self_attn.k_proj.weight'") &&
                                   Catch::Contains("[64, 32]") && Catch::Contains("[32, 64]"));
  }
  SECTION("wrong dtype") {
    ScratchDir dir;
    auto raw = rawTensors(w);
    RawTensor &t = raw["model.norm.weight"];
    t.dtype = "F32";
    t.bytes.resize(t.bytes.size() * 2);
    REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
    writeText(dir.file("config.json"), hfConfigJson(w.config()));
    CHECK_THAT(loadError(dir), Catch::Contains("'model.norm.weight'") &&
                                   Catch::Contains("dtype F32") && Catch::Contains("BF16"));
  }
}

TEST_CASE("safetensors: malformed files", "[qwen3][safetensors]") {
  ScratchDir dir;
  Weights w = seededWeights(tinyConfig(), 5);
  writeCheckpoint(dir, w);
  const std::string path = dir.file("model.safetensors");
  const std::string good = readBytes(path);
  std::string error;
  SafetensorsFile f;

  SECTION("truncated data") {
    writeText(path, good.substr(0, good.size() - 10));
    CHECK_FALSE(f.open(path, error));
    // The last tensor in name order is the one cut short.
    CHECK_THAT(error, Catch::Contains("'model.norm.weight'") && Catch::Contains("past the end"));
    CHECK_THAT(loadError(dir), Catch::Contains("past the end"));
  }
  SECTION("truncated header") {
    writeText(path, good.substr(0, 40));
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("header length"));
  }
  SECTION("shorter than the length field") {
    writeText(path, good.substr(0, 5));
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("too short"));
  }
  SECTION("missing file") {
    CHECK_FALSE(f.open(dir.file("nope.safetensors"), error));
    CHECK_THAT(error, Catch::Contains("cannot open"));
  }
  SECTION("header is not JSON") {
    std::string h = "{\"a\": {\"dtype\": \"BF16\", ";
    writeRaw(path, h, "", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("not valid JSON"));
    CHECK_THAT(loadError(dir), Catch::Contains("not valid JSON"));
  }
  SECTION("header is not an object") {
    writeRaw(path, "[1, 2]  ", "", 8);
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("not a JSON object"));
  }
  SECTION("offsets out of range") {
    std::string h = R"({"x":{"dtype":"BF16","shape":[4],"data_offsets":[0,8]}})";
    writeRaw(path, h, "1234", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("'x'") && Catch::Contains("past the end"));
  }
  SECTION("offsets do not match the shape") {
    std::string h = R"({"x":{"dtype":"BF16","shape":[3],"data_offsets":[0,8]}})";
    writeRaw(path, h, "12345678", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("'x'") && Catch::Contains("needs 6"));
  }
  SECTION("reversed offsets") {
    std::string h = R"({"x":{"dtype":"BF16","shape":[0],"data_offsets":[4,0]}})";
    writeRaw(path, h, "12345678", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("reversed"));
  }
  SECTION("negative offsets, unknown dtype, bad shape") {
    std::string h = R"({"x":{"dtype":"BF16","shape":[2],"data_offsets":[-4,0]}})";
    writeRaw(path, h, "1234", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("data_offsets"));
    h = R"({"x":{"dtype":"Q4","shape":[2],"data_offsets":[0,4]}})";
    writeRaw(path, h, "1234", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("unknown dtype 'Q4'"));
    h = R"({"x":{"dtype":"BF16","shape":[-2],"data_offsets":[0,4]}})";
    writeRaw(path, h, "1234", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("negative"));
    h = R"({"x":{"dtype":"BF16","data_offsets":[0,4]}})";
    writeRaw(path, h, "1234", h.size());
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("'shape'"));
  }
  SECTION("huge header length") {
    writeRaw(path, "{}", "", ~uint64_t(0));
    CHECK_FALSE(f.open(path, error));
    CHECK_THAT(error, Catch::Contains("header length"));
  }
}

TEST_CASE("safetensors: sizes past 64 bits and overlapping tensors (fuzz findings)",
          "[qwen3][safetensors]") {
  // In-memory files through readHeader, as test/fuzz/SafetensorsHeaderFuzz.cpp drives it.
  auto headerError = [](const json &header, size_t dataBytes) {
    std::string text = header.dump(), bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
      bytes[i] = char(uint64_t(text.size()) >> (8 * i));
    bytes += text + std::string(dataBytes, '\0');
    std::istringstream in(bytes);
    SafetensorsFile f;
    std::string error;
    return f.readHeader(in, bytes.size(), "mem", error) ? std::string() : error;
  };
  // 2^62 F64 elements are 2^65 bytes, which wrapped to 0 and matched data_offsets [0, 0].
  CHECK(headerError({{"x", {{"dtype", "F64"}, {"shape", {uint64_t(1) << 62}}, {"data_offsets", {0, 0}}}}},
                    0) ==
        "safetensors: tensor 'x': dtype F64 shape [4611686018427387904] needs more than the 0 "
        "bytes of data in the file");
  CHECK(headerError({{"a", {{"dtype", "BF16"}, {"shape", {2}}, {"data_offsets", {0, 4}}}},
                     {"b", {{"dtype", "BF16"}, {"shape", {2}}, {"data_offsets", {2, 6}}}}},
                    6) ==
        "safetensors: tensors 'a' (data_offsets [0, 4]) and 'b' ([2, 6]) overlap");
  // Adjacent tensors and empty ones at the same offset are fine.
  CHECK(headerError({{"a", {{"dtype", "BF16"}, {"shape", {2}}, {"data_offsets", {0, 4}}}},
                     {"b", {{"dtype", "BF16"}, {"shape", {1}}, {"data_offsets", {4, 6}}}},
                     {"e", {{"dtype", "F32"}, {"shape", {0}}, {"data_offsets", {4, 4}}}}},
                    6) == "");
}

TEST_CASE("hf config: parsing and supported shapes", "[qwen3][safetensors]") {
  // The Qwen3-0.6B config.json as published (fields the loader reads or checks).
  const std::string qwen06 = R"({
    "architectures": ["Qwen3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
    "bos_token_id": 151643, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
    "hidden_size": 1024, "initializer_range": 0.02, "intermediate_size": 3072,
    "max_position_embeddings": 40960, "max_window_layers": 28, "model_type": "qwen3",
    "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 8,
    "rms_norm_eps": 1e-06, "rope_scaling": null, "rope_theta": 1000000,
    "sliding_window": null, "tie_word_embeddings": true, "torch_dtype": "bfloat16",
    "use_cache": true, "use_sliding_window": false, "vocab_size": 151936})";
  Qwen3Config c;
  std::string error;
  REQUIRE(parseHfConfig(qwen06, c, error));
  CHECK(c.hiddenSize == 1024);
  CHECK(c.numHeads == 16);
  CHECK(c.numKvHeads == 8);
  CHECK(c.headDim == 128);
  CHECK(c.intermediateSize == 3072);
  CHECK(c.vocabSize == 151936);
  CHECK(c.numLayers == 28);
  CHECK(c.ropeTheta == 1e6);
  CHECK(c.rmsNormEps == 1e-6);
  CHECK(c.tieWordEmbeddings);

  auto variant = [&](const char *key, json value) {
    json j = json::parse(qwen06);
    if (value.is_discarded())
      j.erase(key);
    else
      j[key] = value;
    Qwen3Config out;
    bool ok = parseHfConfig(j.dump(), out, error);
    return ok ? std::string() : error;
  };
  // Other sizes and numerics parse: whether the stages can be placed for them is the stage
  // generator's question (rngd-qwen3 asks it next).
  CHECK(variant("rms_norm_eps", 6.25e-8).empty());
  CHECK(variant("hidden_size", 2048).empty());
  CHECK(variant("num_key_value_heads", 4).empty());
  CHECK(variant("vocab_size", 151643).empty());
  CHECK(variant("rope_theta", 10000).empty());
  CHECK_THAT(variant("num_key_value_heads", 5), Catch::Contains("num_key_value_heads"));
  CHECK_THAT(variant("hidden_act", "gelu"), Catch::Contains("hidden_act"));
  CHECK_THAT(variant("rope_scaling", json{{"type", "yarn"}}), Catch::Contains("rope_scaling"));
  CHECK_THAT(variant("model_type", "llama"), Catch::Contains("model_type"));
  CHECK_THAT(variant("hidden_size", json(json::value_t::discarded)), Catch::Contains("missing field 'hidden_size'"));
  CHECK_THAT(variant("hidden_size", "1024"),
             Catch::Contains("'hidden_size' must be an integer in 1..1073741824, got \"1024\""));
  CHECK_THAT(variant("num_hidden_layers", int64_t(1) << 31),
             Catch::Contains("'num_hidden_layers' must be an integer in 1..1073741824, got 2147483648"));
  CHECK_THAT(variant("max_position_embeddings", 0),
             Catch::Contains("'max_position_embeddings' must be an integer in 1..1073741824, got 0"));
  {
    json j = json::parse(qwen06);
    j["max_position_embeddings"] = 4096;
    Qwen3Config out;
    REQUIRE(parseHfConfig(j.dump(), out, error));
    CHECK(out.maxPositionEmbeddings == 4096);
    j.erase("max_position_embeddings");
    REQUIRE(parseHfConfig(j.dump(), out, error));
    CHECK(out.maxPositionEmbeddings == 40960); // Qwen3's, when the config does not say
  }
  CHECK(variant("num_hidden_layers", 4) == ""); // the layer count is free
  CHECK_THAT(variant("hidden_act", json::array({1, 2})),
             Catch::Contains("hidden_act an array of 2 elements is not supported"));
  // A value nested 100,000 deep is named by kind: dumping it recursed once per level and
  // overflowed the stack (test/fuzz/regressions/hf_config/deep-array-in-error-message.json).
  {
    std::string deep = "{\"hidden_size\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    Qwen3Config out;
    CHECK_FALSE(parseHfConfig(deep, out, error));
    CHECK(error == "config.json: field 'hidden_size' must be an integer in 1..1073741824, got an "
                   "array of 1 element");
  }
  CHECK_FALSE(parseHfConfig("{not json", c, error));
  CHECK_THAT(error, Catch::Contains("not valid JSON"));
}

TEST_CASE("hf model: config errors surface from loadHfModel", "[qwen3][safetensors]") {
  ScratchDir dir;
  Weights w = seededWeights(tinyConfig(), 5);
  writeCheckpoint(dir, w);
  SECTION("another eps loads (the stages take it from the config)") {
    Qwen3Config c = tinyConfig();
    c.rmsNormEps = 6.25e-8;
    writeText(dir.file("config.json"), hfConfigJson(c));
    CHECK(loadError(dir).empty());
  }
  SECTION("a config whose sizes the tensors do not have") {
    Qwen3Config c = tinyConfig();
    c.intermediateSize = 128;
    writeText(dir.file("config.json"), hfConfigJson(c));
    CHECK_THAT(loadError(dir),
               Catch::Contains("tensor 'model.layers.0.mlp.gate_proj.weight' has shape [96, 64], "
                               "expected [128, 64]"));
  }
  SECTION("missing config.json") {
    std::filesystem::remove(dir.file("config.json"));
    CHECK_THAT(loadError(dir), Catch::Contains("config.json"));
  }
  SECTION("missing model.safetensors") {
    std::filesystem::remove(dir.file("model.safetensors"));
    CHECK_THAT(loadError(dir), Catch::Contains("cannot open") && Catch::Contains("model.safetensors"));
  }
}

TEST_CASE("hf model: tie_word_embeddings true ties the head even when lm_head.weight is present",
          "[qwen3][safetensors]") {
  // Hugging Face's tie_weights makes the head the embedding whenever the config says so; a
  // separate lm_head.weight in the file is not used, and the loader says so.
  Weights untied = seededWeights(tinyConfig(false), 5); // has its own lm_head.weight
  REQUIRE(untied.get("lm_head.weight").data != untied.get("model.embed_tokens.weight").data);
  for (bool tied : {false, true}) {
    ScratchDir dir;
    std::string error;
    REQUIRE(writeSafetensors(dir.file("model.safetensors"), rawTensors(untied), error));
    writeText(dir.file("config.json"), hfConfigJson(tinyConfig(tied)));
    LoadOptions options;
    std::unique_ptr<Weights> w;
    LoadNotes notes;
    REQUIRE(loadHfModel(dir.str(), options, w, error, &notes));
    CHECK(notes.ignoredLmHead == tied);
    const auto &expected = untied.get(tied ? "model.embed_tokens.weight" : "lm_head.weight");
    CHECK(w->get("lm_head.weight").data == expected.data);
    if (tied)
      CHECK(w->shared("lm_head.weight") == w->shared("model.embed_tokens.weight"));
  }
  // Tied and no lm_head in the file (as HF saves a tied model): nothing to note.
  ScratchDir dir;
  Weights tiedWeights = seededWeights(tinyConfig(true), 5);
  writeCheckpoint(dir, tiedWeights);
  LoadOptions options;
  std::unique_ptr<Weights> w;
  LoadNotes notes;
  std::string error;
  REQUIRE(loadHfModel(dir.str(), options, w, error, &notes));
  CHECK_FALSE(notes.ignoredLmHead);
}

TEST_CASE("hf model: readHfConfig reads only config.json", "[qwen3][safetensors]") {
  ScratchDir dir;
  Qwen3Config c = tinyConfig();
  c.numLayers = 5;
  writeText(dir.file("config.json"), hfConfigJson(c)); // no model.safetensors at all
  Qwen3Config got;
  std::string error;
  REQUIRE(readHfConfig(dir.str(), got, error));
  CHECK(got.numLayers == 5);
  CHECK(got.intermediateSize == 96);
  writeText(dir.file("config.json"), "{\"model_type\": \"qwen3\"");
  CHECK_FALSE(readHfConfig(dir.str(), got, error));
  CHECK_THAT(error, Catch::Contains("config.json"));
}

TEST_CASE("hf model: a missing tensor is reported before any tensor is read",
          "[qwen3][safetensors]") {
  // The embedding is stored as F32 (reading it would fail on the dtype) and a layer-1 tensor is
  // missing: the missing tensor, found in the header, is the error.
  Weights w = seededWeights(tinyConfig(), 5);
  auto raw = rawTensors(w);
  RawTensor &e = raw["model.embed_tokens.weight"];
  e.dtype = "F32";
  e.bytes.resize(e.bytes.size() * 2);
  raw.erase("model.layers.1.mlp.down_proj.weight");
  ScratchDir dir;
  std::string error;
  REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
  writeText(dir.file("config.json"), hfConfigJson(w.config()));
  CHECK_THAT(loadError(dir), Catch::Contains("missing tensor 'model.layers.1.mlp.down_proj.weight'"));
  // With only the first layer wanted, the missing layer-1 tensor does not matter; the
  // embedding's dtype does.
  CHECK_THAT(loadError(dir, nullptr, 1), Catch::Contains("'model.embed_tokens.weight'") &&
                                             Catch::Contains("dtype F32"));
}

TEST_CASE("hf model: dtypes and shapes are checked from the header, before any data is read",
          "[qwen3][safetensors]") {
  // The last tensor the loader wants (model.norm.weight) has the wrong shape or dtype: found in
  // the header's pass over every tensor, with the messages reading would give.
  Weights w = seededWeights(tinyConfig(), 5);
  auto raw = rawTensors(w);
  raw["model.norm.weight"].shape = {32, 2}; // same bytes
  ScratchDir dir;
  std::string error;
  REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
  writeText(dir.file("config.json"), hfConfigJson(w.config()));
  CHECK(loadError(dir) ==
        "model.safetensors: tensor 'model.norm.weight' has shape [32, 2], expected [64]");
  raw["model.norm.weight"].shape = {64};
  raw["model.norm.weight"].dtype = "F16";
  REQUIRE(writeSafetensors(dir.file("model.safetensors"), raw, error));
  CHECK(loadError(dir) ==
        "safetensors: tensor 'model.norm.weight' has dtype F16, only BF16 is supported");
}
