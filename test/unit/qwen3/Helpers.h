// Shared helpers for the Qwen3 host tests: a tiny model configuration, a tokenizer from JSON
// text and scratch directories.
#pragma once

#include "qwen3/host/Model.h"
#include "qwen3/host/Tokenizer.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace rngd::qwen3::test {

/// hidden 64, 4 q heads / 2 kv heads of dim 16, intermediate 96, vocab 100, 2 layers.
inline Qwen3Config tinyConfig(bool tied = false) {
  Qwen3Config c;
  c.hiddenSize = 64;
  c.numHeads = 4;
  c.numKvHeads = 2;
  c.headDim = 16;
  c.intermediateSize = 96;
  c.vocabSize = 100;
  c.numLayers = 2;
  c.tieWordEmbeddings = tied;
  return c;
}

/// A tokenizer from a tokenizer.json text the test writes (which must load).
inline Tokenizer tokenizerFrom(const std::string &json) {
  Tokenizer t;
  std::string error;
  REQUIRE(t.loadJson(json, error));
  return t;
}

/// A fresh directory under the system temp dir, removed when the object goes away.
class ScratchDir {
public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("rngd-qwen3-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

inline void writeText(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

inline std::string readBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

} // namespace rngd::qwen3::test
