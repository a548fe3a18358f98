#include "qwen3/host/HfModel.h"

#include "qwen3/host/JsonSnippet.h"
#include "qwen3/host/Safetensors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace rngd::qwen3 {

namespace {

using json = nlohmann::json;

bool readText(const std::string &path, std::string &out, std::string &error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = "cannot open " + path;
    return false;
  }
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

} // namespace

bool parseHfConfig(const std::string &text, Qwen3Config &out, std::string &error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception &e) {
    error = std::string("config.json is not valid JSON: ") + e.what();
    return false;
  }
  if (!j.is_object()) {
    error = "config.json is not a JSON object";
    return false;
  }
  auto fail = [&](const std::string &m) {
    error = "config.json: " + m;
    return false;
  };
  auto intField = [&](const char *key, int &dst) {
    if (!j.contains(key))
      return fail(std::string("missing field '") + key + "'");
    if (!j[key].is_number_integer() || j[key].get<int64_t>() <= 0 ||
        j[key].get<int64_t>() > (int64_t(1) << 30))
      return fail(std::string("field '") + key + "' must be an integer in 1.." +
                  std::to_string(int64_t(1) << 30) + ", got " + jsonSnippet(j[key]));
    dst = int(j[key].get<int64_t>());
    return true;
  };
  auto numField = [&](const char *key, double &dst) {
    if (!j.contains(key))
      return fail(std::string("missing field '") + key + "'");
    if (!j[key].is_number())
      return fail(std::string("field '") + key + "' must be a number");
    dst = j[key].get<double>();
    return true;
  };
  Qwen3Config c;
  if (j.contains("model_type") && j["model_type"] != "qwen3")
    return fail("model_type " + jsonSnippet(j["model_type"]) + " is not \"qwen3\"");
  if (!intField("hidden_size", c.hiddenSize) || !intField("num_attention_heads", c.numHeads) ||
      !intField("num_key_value_heads", c.numKvHeads) ||
      !intField("intermediate_size", c.intermediateSize) || !intField("vocab_size", c.vocabSize) ||
      !intField("num_hidden_layers", c.numLayers) || !numField("rope_theta", c.ropeTheta) ||
      !numField("rms_norm_eps", c.rmsNormEps))
    return false;
  if (j.contains("head_dim") && !j["head_dim"].is_null()) {
    if (!intField("head_dim", c.headDim))
      return false;
  } else {
    c.headDim = c.hiddenSize / c.numHeads;
  }
  // Optional (older configs lack it): the model's context; the driver's position limit is the
  // smaller of it and the KV cache's.
  if (j.contains("max_position_embeddings") && !j["max_position_embeddings"].is_null() &&
      !intField("max_position_embeddings", c.maxPositionEmbeddings))
    return false;
  c.tieWordEmbeddings = false;
  if (j.contains("tie_word_embeddings")) {
    if (!j["tie_word_embeddings"].is_boolean())
      return fail("field 'tie_word_embeddings' must be a boolean");
    c.tieWordEmbeddings = j["tie_word_embeddings"].get<bool>();
  }
  if (j.contains("hidden_act") && j["hidden_act"] != "silu")
    return fail("hidden_act " + jsonSnippet(j["hidden_act"]) + " is not supported (only \"silu\")");
  if (j.contains("attention_bias") && j["attention_bias"] != false)
    return fail("attention_bias must be false");
  if (j.contains("rope_scaling") && !j["rope_scaling"].is_null())
    return fail("rope_scaling is not supported (must be null)");
  if (j.contains("use_sliding_window") && j["use_sliding_window"] == true)
    return fail("use_sliding_window is not supported");
  if (!c.validate(error)) {
    error = "config.json: " + error;
    return false;
  }
  out = c;
  return true;
}

std::string hfConfigJson(const Qwen3Config &c) {
  json j = {{"architectures", {"Qwen3ForCausalLM"}},
            {"model_type", "qwen3"},
            {"hidden_act", "silu"},
            {"attention_bias", false},
            {"hidden_size", c.hiddenSize},
            {"num_attention_heads", c.numHeads},
            {"num_key_value_heads", c.numKvHeads},
            {"head_dim", c.headDim},
            {"intermediate_size", c.intermediateSize},
            {"vocab_size", c.vocabSize},
            {"num_hidden_layers", c.numLayers},
            {"max_position_embeddings", c.maxPositionEmbeddings},
            {"rope_theta", c.ropeTheta},
            {"rope_scaling", nullptr},
            {"rms_norm_eps", c.rmsNormEps},
            {"tie_word_embeddings", c.tieWordEmbeddings},
            {"use_sliding_window", false},
            {"torch_dtype", "bfloat16"}};
  return j.dump(2) + "\n";
}

bool readHfConfig(const std::string &dir, Qwen3Config &out, std::string &error) {
  std::string text;
  if (!readText(dir + "/config.json", text, error))
    return false;
  Qwen3Config config;
  if (!parseHfConfig(text, config, error))
    return false;
  out = config;
  return true;
}

namespace {

bool checkHfTensors(const HfCheckpoint &file, const Qwen3Config &config, std::string &error) {
  // Hugging Face ties the head to the embedding whenever the config says so (tie_weights), a
  // separate lm_head.weight in the file notwithstanding.
  auto tiedHead = [&](const std::string &name) {
    return name == "lm_head.weight" && config.tieWordEmbeddings;
  };
  // Every tensor's presence, dtype and shape from the header before any data is read (a wrong
  // last tensor would otherwise be found after ~1 GB of reading).
  // Missing tensors first (a checkpoint cut short), then dtypes and shapes.
  const std::vector<TensorSpec> specs = expectedTensors(config);
  for (const TensorSpec &spec : specs)
    if (!tiedHead(spec.name) && !file.find(spec.name)) {
      error = "model.safetensors: missing tensor '" + spec.name + "'" +
              (spec.name == "lm_head.weight" ? " (tie_word_embeddings is false)" : "");
      return false;
    }
  for (const TensorSpec &spec : specs) {
    if (tiedHead(spec.name))
      continue;
    const SafetensorsFile::Entry *entry = file.find(spec.name);
    if (entry->dtype != "BF16") {
      error = "safetensors: tensor '" + spec.name + "' has dtype " + entry->dtype +
              ", only BF16 is supported";
      return false;
    }
    if (entry->shape != spec.shape) {
      error = "model.safetensors: tensor '" + spec.name + "' has shape " +
              shapeString(entry->shape) + ", expected " + shapeString(spec.shape);
      return false;
    }
  }
  return true;
}

} // namespace

bool openHfCheckpoint(const std::string &dir, const LoadOptions &options, Qwen3Config &config,
                      HfCheckpoint &file, std::string &error) {
  if (!readHfConfig(dir, config, error))
    return false;
  if (options.maxLayers > 0 && options.maxLayers < config.numLayers)
    config.numLayers = options.maxLayers;
  return file.open(dir, error) && checkHfTensors(file, config, error);
}

bool loadHfModel(const std::string &dir, const LoadOptions &options, std::unique_ptr<Weights> &out,
                 std::string &error, LoadNotes *notes) {
  Qwen3Config config;
  HfCheckpoint file;
  if (!openHfCheckpoint(dir, options, config, file, error))
    return false;
  auto tiedHead = [&](const std::string &name) {
    return name == "lm_head.weight" && config.tieWordEmbeddings;
  };
  const std::vector<TensorSpec> specs = expectedTensors(config);
  if (notes)
    notes->ignoredLmHead = config.tieWordEmbeddings && file.find("lm_head.weight") != nullptr;
  auto weights = std::make_unique<Weights>(config);
  for (const TensorSpec &spec : specs) {
    const std::string &name = spec.name;
    if (tiedHead(name)) {
      if (!weights->set(name, weights->shared("model.embed_tokens.weight"), error))
        return false;
      continue;
    }
    Bf16Tensor t;
    if (!file.file(name)->readBf16(name, t, error))
      return false;
    if (!weights->set(name, std::move(t), error)) {
      error = "model.safetensors: " + error;
      return false;
    }
  }
  out = std::move(weights);
  return true;
}

} // namespace rngd::qwen3
