#include "qwen3/host/BpeEncoder.h"

#include "qwen3/host/ByteLevel.h"
#include "qwen3/host/JsonSnippet.h"
#include "qwen3/host/Nfc.h"
#include "qwen3/host/Utf8.h"

#include <algorithm>
#include <queue>

namespace rngd::qwen3 {

namespace {

using json = nlohmann::json;

constexpr size_t kCacheEntries = 1 << 16;
constexpr size_t kCachedPieceBytes = 256;

uint64_t pairKey(int left, int right) { return (uint64_t(uint32_t(left)) << 32) | uint32_t(right); }

bool fail(std::string &error, const std::string &message) {
  error = "tokenizer: " + message;
  return false;
}

// The pre-tokenizers the encoder implements: Split(Regex, Isolated, not inverted) followed by
// ByteLevel without its own regex and without a prefix space (Qwen2/Qwen3's), either alone or
// in a Sequence. Returns the regex.
bool readPreTokenizer(const json &pt, std::string &regex, std::string &error) {
  if (!pt.is_object() || !pt.contains("type") || !pt["type"].is_string())
    return fail(error, "'pre_tokenizer' has no type");
  std::vector<json> steps;
  if (pt["type"] == "Sequence") {
    if (!pt.contains("pretokenizers") || !pt["pretokenizers"].is_array())
      return fail(error, "pre_tokenizer Sequence without 'pretokenizers'");
    for (const json &s : pt["pretokenizers"])
      steps.push_back(s);
  } else {
    steps.push_back(pt);
  }
  bool byteLevel = false;
  for (const json &s : steps) {
    std::string type = s.is_object() && s.contains("type") && s["type"].is_string() ? s["type"].get<std::string>() : "";
    if (type == "Split") {
      if (!regex.empty())
        return fail(error, "pre_tokenizer: more than one Split is not supported");
      const json *pattern = s.contains("pattern") ? &s["pattern"] : nullptr;
      if (!pattern || !pattern->is_object() || !pattern->contains("Regex") || !(*pattern)["Regex"].is_string())
        return fail(error, "pre_tokenizer Split: only a 'Regex' pattern is supported");
      if (s.value("behavior", json("")) != "Isolated" || s.value("invert", json(false)) != false)
        return fail(error, "pre_tokenizer Split: only behavior Isolated, invert false is supported");
      regex = (*pattern)["Regex"].get<std::string>();
      if (regex.empty())
        return fail(error, "pre_tokenizer Split: empty regex");
    } else if (type == "ByteLevel") {
      if (s.value("add_prefix_space", json(false)) != false || s.value("use_regex", json(true)) != false)
        return fail(error, "pre_tokenizer ByteLevel: only add_prefix_space false, use_regex false is supported");
      byteLevel = true;
    } else {
      return fail(error, "pre_tokenizer " + json(type).dump() + " is not supported");
    }
  }
  if (regex.empty() || !byteLevel)
    return fail(error, "pre_tokenizer: a Split regex followed by ByteLevel is required");
  return true;
}

} // namespace

bool BpeEncoder::load(const json &j, std::string &error) {
  const json &model = j["model"];
  // Normaliser: none or NFC.
  if (j.contains("normalizer") && !j["normalizer"].is_null()) {
    const json &n = j["normalizer"];
    if (!n.is_object() || n.value("type", json("")) != "NFC")
      return fail(error, "normalizer " +
                             (n.is_object() && n.contains("type") ? "of type " + jsonSnippet(n["type"])
                                                                  : jsonSnippet(n)) +
                             " is not supported (only NFC)");
    nfc_ = true;
  }
  if (!j.contains("pre_tokenizer") || j["pre_tokenizer"].is_null())
    return fail(error, "no 'pre_tokenizer'");
  std::string regex;
  if (!readPreTokenizer(j["pre_tokenizer"], regex, error) || !split_.compile(regex, error))
    return false;

  for (const auto &[token, id] : model["vocab"].items())
    vocab_.emplace(token, id.get<int>());
  for (int b = 0; b < 256; ++b) {
    auto it = vocab_.find(byteSymbol(static_cast<unsigned char>(b)));
    if (it == vocab_.end())
      return fail(error, "model.vocab lacks the byte-level token of byte " + std::to_string(b));
    byteIds_[b] = it->second;
  }
  if (!model.contains("merges") || !model["merges"].is_array())
    return fail(error, "no 'model.merges' array");
  const json &merges = model["merges"];
  merges_.reserve(merges.size());
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    const json &m = merges[rank];
    std::string left, right;
    if (m.is_string()) { // "left right"
      const std::string &s = m.get_ref<const std::string &>();
      size_t space = s.find(' ', 1);
      if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos)
        return fail(error, "model.merges[" + std::to_string(rank) + "] " + m.dump() + " is not two tokens");
      left = s.substr(0, space);
      right = s.substr(space + 1);
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      left = m[0].get<std::string>();
      right = m[1].get<std::string>();
    } else {
      return fail(error, "model.merges[" + std::to_string(rank) + "] is neither \"a b\" nor [\"a\", \"b\"]");
    }
    auto l = vocab_.find(left), r = vocab_.find(right), result = vocab_.find(left + right);
    if (l == vocab_.end() || r == vocab_.end() || result == vocab_.end())
      return fail(error, "model.merges[" + std::to_string(rank) + "] " + m.dump() +
                             ": a token or the merged token is not in model.vocab");
    merges_.emplace(pairKey(l->second, r->second), Merge{int(rank), result->second});
  }

  if (j.contains("added_tokens") && j["added_tokens"].is_array()) {
    for (const json &a : j["added_tokens"]) {
      std::string content = a["content"].get<std::string>();
      for (const char *flag : {"lstrip", "rstrip", "single_word"})
        if (a.value(flag, json(false)) == true)
          return fail(error, "added token " + json(content).dump() + ": '" + flag + "' is not supported");
      if (content.empty())
        return fail(error, "an added token is empty");
      added_.push_back({content, a["id"].get<int>()});
      addedFirstByte_[static_cast<unsigned char>(content[0])] = true;
    }
    std::stable_sort(added_.begin(), added_.end(),
                     [](const Added &a, const Added &b) { return a.content.size() > b.content.size(); });
  }
  return true;
}

bool BpeEncoder::encode(const std::string &text, std::vector<int> &ids, std::string &error) const {
  size_t bad = firstInvalidUtf8(text);
  if (bad != std::string::npos) {
    error = "tokenizer: invalid UTF-8 at byte " + std::to_string(bad);
    return false;
  }
  // Added tokens first, matched on the raw text: leftmost, then longest.
  size_t sectionStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!addedFirstByte_[static_cast<unsigned char>(text[i])])
      continue;
    for (const Added &a : added_) {
      if (text.compare(i, a.content.size(), a.content) == 0) {
        encodeSection(text.substr(sectionStart, i - sectionStart), ids);
        ids.push_back(a.id);
        i += a.content.size() - 1;
        sectionStart = i + 1;
        break;
      }
    }
  }
  encodeSection(text.substr(sectionStart), ids);
  return true;
}

void BpeEncoder::encodeSection(const std::string &raw, std::vector<int> &ids) const {
  if (raw.empty())
    return;
  const std::string text = nfc_ ? nfc(raw) : raw;
  std::vector<std::pair<size_t, size_t>> pieces;
  split_.split(text, pieces);
  for (const auto &[begin, end] : pieces)
    encodePiece(text.substr(begin, end - begin), ids);
}

void BpeEncoder::encodePiece(const std::string &piece, std::vector<int> &ids) const {
  if (piece.size() <= kCachedPieceBytes) {
    std::lock_guard<std::mutex> lock(cacheMutex_);
    auto it = cache_.find(piece);
    if (it != cache_.end()) {
      ids.insert(ids.end(), it->second.begin(), it->second.end());
      return;
    }
  }
  // One symbol per byte, in a linked list; a heap of candidate merges (rank, position), stale
  // entries skipped when popped.
  const int n = int(piece.size());
  std::vector<int> symbol(n), next(n), prev(n);
  for (int i = 0; i < n; ++i) {
    symbol[i] = byteIds_[static_cast<unsigned char>(piece[i])];
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  struct Candidate {
    int rank, pos, left, right;
    bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
  auto consider = [&](int pos) {
    if (pos < 0 || next[pos] < 0)
      return;
    auto it = merges_.find(pairKey(symbol[pos], symbol[next[pos]]));
    if (it != merges_.end())
      heap.push({it->second.rank, pos, symbol[pos], symbol[next[pos]]});
  };
  for (int i = 0; i + 1 < n; ++i)
    consider(i);
  while (!heap.empty()) {
    Candidate c = heap.top();
    heap.pop();
    int r = next[c.pos];
    if (symbol[c.pos] != c.left || r < 0 || symbol[r] != c.right)
      continue; // stale
    symbol[c.pos] = merges_.at(pairKey(c.left, c.right)).result;
    symbol[r] = -1;
    next[c.pos] = next[r];
    if (next[r] >= 0)
      prev[next[r]] = c.pos;
    consider(prev[c.pos]);
    consider(c.pos);
  }
  std::vector<int> out;
  for (int i = n > 0 ? 0 : -1; i >= 0; i = next[i])
    out.push_back(symbol[i]);
  ids.insert(ids.end(), out.begin(), out.end());
  if (piece.size() <= kCachedPieceBytes) {
    std::lock_guard<std::mutex> lock(cacheMutex_);
    if (cache_.size() >= kCacheEntries)
      cache_.clear();
    cache_.emplace(piece, std::move(out));
  }
}

} // namespace rngd::qwen3
