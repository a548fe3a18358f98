// Qwen3 model description for the host program: the configuration (defaults = Qwen3-0.6B, the
// shapes of docs/hardware.md section 7.1) and the bf16 weights, held by Hugging Face tensor
// name with PyTorch [out, in] row-major layout. Every tensor stored is checked against the
// configuration.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct Qwen3Config {
  int hiddenSize = 1024;        // H
  int numHeads = 16;            // q heads (N * G)
  int numKvHeads = 8;           // N
  int headDim = 128;            // D
  int intermediateSize = 3072;  // L
  int vocabSize = 151936;       // W
  int numLayers = 28;
  double ropeTheta = 1e6;
  double rmsNormEps = 1e-6;     // project decision (the reference's PyTorch uses 6.25e-8)
  bool tieWordEmbeddings = true; // Qwen3-0.6B ties lm_head to the embedding
  int maxPositionEmbeddings = 40960; // the context the model was trained for (config.json)

  int qDim() const { return numHeads * headDim; }    // Q
  int kvDim() const { return numKvHeads * headDim; } // P
  int groups() const { return numHeads / numKvHeads; } // G
  /// GQA: kv head n serves q heads n*G .. n*G + G-1.
  int kvHeadOf(int qHead) const { return qHead / groups(); }

  /// Positive sizes, even head dim, heads divisible by kv heads, eps/theta > 0.
  bool validate(std::string &error) const;
};

/// How seeded initialisation treats a tensor.
enum class TensorKind { Embedding, Matrix, Norm };

struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  TensorKind kind;
};

/// "model.layers.{layer}.{suffix}", e.g. layerTensorName(3, "mlp.up_proj.weight").
std::string layerTensorName(int layer, const std::string &suffix);

/// The per-layer suffixes, in checkpoint order.
const std::vector<std::string> &layerTensorSuffixes();

/// Every tensor the model needs (lm_head.weight included even when tied), in a fixed order.
std::vector<TensorSpec> expectedTensors(const Qwen3Config &config);

/// The spec for one name, or nullptr when the model has no such tensor.
const TensorSpec *findSpec(const std::vector<TensorSpec> &specs, const std::string &name);

struct Bf16Tensor {
  std::vector<int64_t> shape;
  std::vector<uint16_t> data; // row-major bf16 bit patterns
  size_t numel() const;
};

std::string shapeString(const std::vector<int64_t> &shape); // "[2048, 1024]"

/// The weights of one model. Tensors are shared (a tied lm_head is the embedding itself).
class Weights {
public:
  explicit Weights(const Qwen3Config &config);

  const Qwen3Config &config() const { return config_; }

  /// Stores a tensor after checking its name belongs to the model and its shape and element
  /// count match; on failure nothing is stored and the error names the tensor.
  bool set(const std::string &name, std::shared_ptr<const Bf16Tensor> tensor, std::string &error);
  bool set(const std::string &name, Bf16Tensor tensor, std::string &error);

  const Bf16Tensor *find(const std::string &name) const;
  /// Throws std::out_of_range naming the tensor when it is absent.
  const Bf16Tensor &get(const std::string &name) const;
  const Bf16Tensor &layer(int layer, const std::string &suffix) const;
  std::shared_ptr<const Bf16Tensor> shared(const std::string &name) const;

  /// True when every expected tensor is present; otherwise the error names the first missing.
  bool complete(std::string &error) const;
  size_t size() const { return tensors_.size(); }
  const std::map<std::string, std::shared_ptr<const Bf16Tensor>> &tensors() const { return tensors_; }

private:
  Qwen3Config config_;
  std::vector<TensorSpec> specs_;
  std::map<std::string, std::shared_ptr<const Bf16Tensor>> tensors_;
};

} // namespace rngd::qwen3
