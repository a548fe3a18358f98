// Byte-level BPE encoding (text -> ids) as Hugging Face's tokenizers does it for Qwen3's
// tokenizer.json: added tokens split out first (leftmost, longest), NFC on the text between
// them, the Split pre-tokenizer's regex, GPT-2's byte-level alphabet, then merges by rank
// (lowest rank first, leftmost on ties) with a cache of encoded pieces. docs/tokenizer.md.
#pragma once

#include "qwen3/host/RegexSplit.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rngd::qwen3 {

class BpeEncoder {
public:
  /// Builds the encoder from a parsed tokenizer.json. False with `error` (naming the field)
  /// when the file is malformed or uses a feature the encoder does not implement.
  bool load(const nlohmann::json &tokenizer, std::string &error);

  /// Encodes UTF-8 text; false with `error` (and the byte offset) on invalid UTF-8.
  /// Thread-safe: the server's request threads encode at once, and the piece cache is locked.
  bool encode(const std::string &text, std::vector<int> &ids, std::string &error) const;

private:
  struct Merge {
    int rank, result;
  };
  struct Added {
    std::string content;
    int id;
  };
  void encodeSection(const std::string &text, std::vector<int> &ids) const;
  void encodePiece(const std::string &piece, std::vector<int> &ids) const;

  std::unordered_map<std::string, int> vocab_;
  std::unordered_map<uint64_t, Merge> merges_; // (left id << 32 | right id) -> merge
  int byteIds_[256] = {};
  std::vector<Added> added_; // longest first
  bool addedFirstByte_[256] = {};
  bool nfc_ = false;
  RegexSplit split_;
  mutable std::mutex cacheMutex_; // guards cache_
  mutable std::unordered_map<std::string, std::vector<int>> cache_;
};

} // namespace rngd::qwen3
