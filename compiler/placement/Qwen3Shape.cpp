#include "compiler/placement/Qwen3Shape.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace rngd::placement {

std::string Qwen3Shape::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "hidden " << hidden << ", intermediate " << intermediate << ", heads " << heads << " / "
     << kvHeads << ", head_dim " << headDim << ", vocab " << vocab;
  return text;
}

namespace {

bool readSize(const llvm::json::Object &config, llvm::StringRef field, int64_t &out,
              std::string &error) {
  const llvm::json::Value *value = config.get(field);
  if (!value) {
    error = "config.json: `" + field.str() + "` is missing";
    return false;
  }
  std::optional<int64_t> n = value->getAsInteger();
  if (!n || *n <= 0) {
    std::string shown;
    llvm::raw_string_ostream os(shown);
    os << *value;
    error = "config.json: `" + field.str() + "` must be a positive integer, got " + shown;
    return false;
  }
  out = *n;
  return true;
}

bool readPositive(const llvm::json::Object &config, llvm::StringRef field, double &out,
                  std::string &error) {
  const llvm::json::Value *value = config.get(field);
  if (!value)
    return true; // the default stands
  std::optional<double> x = value->getAsNumber();
  if (!x || !(*x > 0)) {
    error = "config.json: `" + field.str() + "` must be a positive number";
    return false;
  }
  out = *x;
  return true;
}

} // namespace

bool parseQwen3Config(const std::string &json, Qwen3Shape &shape, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = "config.json is not valid JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *config = parsed->getAsObject();
  if (!config) {
    error = "config.json is not a JSON object";
    return false;
  }
  std::optional<llvm::StringRef> type = config->getString("model_type");
  if (!type || *type != "qwen3") {
    error = "config.json: model_type is " + (type ? "\"" + type->str() + "\"" : "missing") +
            "; rngdc places Qwen3 dense models (model_type \"qwen3\") only";
    return false;
  }
  Qwen3Shape s;
  if (!readSize(*config, "hidden_size", s.hidden, error) ||
      !readSize(*config, "intermediate_size", s.intermediate, error) ||
      !readSize(*config, "num_attention_heads", s.heads, error) ||
      !readSize(*config, "num_key_value_heads", s.kvHeads, error) ||
      !readSize(*config, "vocab_size", s.vocab, error) ||
      !readSize(*config, "num_hidden_layers", s.layers, error) ||
      !readPositive(*config, "rms_norm_eps", s.rmsNormEps, error) ||
      !readPositive(*config, "rope_theta", s.ropeTheta, error))
    return false;
  // head_dim is optional in older configs: hidden / heads then.
  if (config->get("head_dim")) {
    if (!readSize(*config, "head_dim", s.headDim, error))
      return false;
  } else {
    s.headDim = s.hidden / s.heads;
  }
  if (std::optional<bool> tied = config->getBoolean("tie_word_embeddings"))
    s.tied = *tied;
  if (s.heads % s.kvHeads != 0) {
    error = "config.json: num_attention_heads " + std::to_string(s.heads) +
            " is not a multiple of num_key_value_heads " + std::to_string(s.kvHeads);
    return false;
  }
  if (s.headDim % 2 != 0) {
    error = "config.json: head_dim " + std::to_string(s.headDim) +
            " is odd; rotary embeddings rotate pairs of halves";
    return false;
  }
  shape = s;
  return true;
}

bool shardQwen3(const Qwen3Shape &shape, int64_t chips, Qwen3Shape &shard, std::string &error) {
  auto refuse = [&](const std::string &what, int64_t size) {
    error = "tensor parallel over " + std::to_string(chips) + " chips: " + what + " " +
            std::to_string(size) + " do not split evenly over " + std::to_string(chips) +
            " chips";
    return false;
  };
  if (chips < 1) {
    error = "tensor parallel over " + std::to_string(chips) + " chips: at least 1";
    return false;
  }
  if (shape.kvHeads % chips != 0)
    return refuse("the kv heads (num_key_value_heads)", shape.kvHeads);
  if (shape.intermediate % chips != 0)
    return refuse("the intermediate size (intermediate_size)", shape.intermediate);
  shard = shape;
  shard.heads = shape.heads / chips;
  shard.kvHeads = shape.kvHeads / chips;
  shard.intermediate = shape.intermediate / chips;
  shard.vocab = (shape.vocab + chips - 1) / chips;
  return true;
}

} // namespace rngd::placement
