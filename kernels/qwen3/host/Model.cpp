#include "qwen3/host/Model.h"

#include <stdexcept>

namespace rngd::qwen3 {

bool Qwen3Config::validate(std::string &error) const {
  auto fail = [&](const std::string &m) {
    error = "invalid Qwen3 config: " + m;
    return false;
  };
  if (hiddenSize <= 0 || numHeads <= 0 || numKvHeads <= 0 || headDim <= 0 ||
      intermediateSize <= 0 || vocabSize <= 0 || numLayers <= 0)
    return fail("all sizes must be positive");
  if (headDim % 2 != 0)
    return fail("head_dim " + std::to_string(headDim) + " must be even (RoPE pairs halves)");
  if (numHeads % numKvHeads != 0)
    return fail("num_attention_heads " + std::to_string(numHeads) +
                " not divisible by num_key_value_heads " + std::to_string(numKvHeads));
  if (!(rmsNormEps > 0) || !(ropeTheta > 0))
    return fail("rms_norm_eps and rope_theta must be positive");
  return true;
}

std::string layerTensorName(int layer, const std::string &suffix) {
  return "model.layers." + std::to_string(layer) + "." + suffix;
}

const std::vector<std::string> &layerTensorSuffixes() {
  static const std::vector<std::string> s = {
      "input_layernorm.weight",       "self_attn.q_proj.weight", "self_attn.k_proj.weight",
      "self_attn.v_proj.weight",      "self_attn.q_norm.weight", "self_attn.k_norm.weight",
      "self_attn.o_proj.weight",      "post_attention_layernorm.weight",
      "mlp.gate_proj.weight",         "mlp.up_proj.weight",      "mlp.down_proj.weight"};
  return s;
}

std::vector<TensorSpec> expectedTensors(const Qwen3Config &c) {
  const int64_t H = c.hiddenSize, Q = c.qDim(), P = c.kvDim(), D = c.headDim,
                L = c.intermediateSize, W = c.vocabSize;
  std::vector<TensorSpec> specs;
  specs.push_back({"model.embed_tokens.weight", {W, H}, TensorKind::Embedding});
  for (int i = 0; i < c.numLayers; ++i) {
    auto add = [&](const char *suffix, std::vector<int64_t> shape, TensorKind kind) {
      specs.push_back({layerTensorName(i, suffix), std::move(shape), kind});
    };
    add("input_layernorm.weight", {H}, TensorKind::Norm);
    add("self_attn.q_proj.weight", {Q, H}, TensorKind::Matrix);
    add("self_attn.k_proj.weight", {P, H}, TensorKind::Matrix);
    add("self_attn.v_proj.weight", {P, H}, TensorKind::Matrix);
    add("self_attn.q_norm.weight", {D}, TensorKind::Norm);
    add("self_attn.k_norm.weight", {D}, TensorKind::Norm);
    add("self_attn.o_proj.weight", {H, Q}, TensorKind::Matrix);
    add("post_attention_layernorm.weight", {H}, TensorKind::Norm);
    add("mlp.gate_proj.weight", {L, H}, TensorKind::Matrix);
    add("mlp.up_proj.weight", {L, H}, TensorKind::Matrix);
    add("mlp.down_proj.weight", {H, L}, TensorKind::Matrix);
  }
  specs.push_back({"model.norm.weight", {H}, TensorKind::Norm});
  specs.push_back({"lm_head.weight", {W, H}, TensorKind::Matrix});
  return specs;
}

const TensorSpec *findSpec(const std::vector<TensorSpec> &specs, const std::string &name) {
  for (const auto &s : specs)
    if (s.name == name)
      return &s;
  return nullptr;
}

size_t Bf16Tensor::numel() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= size_t(d);
  return n;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Weights::Weights(const Qwen3Config &config) : config_(config), specs_(expectedTensors(config)) {}

bool Weights::set(const std::string &name, std::shared_ptr<const Bf16Tensor> t, std::string &error) {
  const TensorSpec *spec = findSpec(specs_, name);
  if (!spec) {
    error = "tensor '" + name + "' is not part of the model";
    return false;
  }
  if (!t) {
    error = "tensor '" + name + "' is null";
    return false;
  }
  if (t->shape != spec->shape) {
    error = "tensor '" + name + "' has shape " + shapeString(t->shape) + ", expected " +
            shapeString(spec->shape);
    return false;
  }
  if (t->data.size() != t->numel()) {
    error = "tensor '" + name + "' holds " + std::to_string(t->data.size()) +
            " elements, its shape needs " + std::to_string(t->numel());
    return false;
  }
  tensors_[name] = std::move(t);
  return true;
}

bool Weights::set(const std::string &name, Bf16Tensor t, std::string &error) {
  return set(name, std::make_shared<const Bf16Tensor>(std::move(t)), error);
}

const Bf16Tensor *Weights::find(const std::string &name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : it->second.get();
}

const Bf16Tensor &Weights::get(const std::string &name) const {
  const Bf16Tensor *t = find(name);
  if (!t)
    throw std::out_of_range("missing weight tensor '" + name + "'");
  return *t;
}

const Bf16Tensor &Weights::layer(int layer, const std::string &suffix) const {
  return get(layerTensorName(layer, suffix));
}

std::shared_ptr<const Bf16Tensor> Weights::shared(const std::string &name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : it->second;
}

bool Weights::complete(std::string &error) const {
  for (const auto &s : specs_)
    if (!tensors_.count(s.name)) {
      error = "missing weight tensor '" + s.name + "' (shape " + shapeString(s.shape) + ")";
      return false;
    }
  return true;
}

} // namespace rngd::qwen3
