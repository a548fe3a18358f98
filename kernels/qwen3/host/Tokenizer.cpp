#include "qwen3/host/Tokenizer.h"

#include "qwen3/host/BpeEncoder.h"
#include "qwen3/host/ByteLevel.h"
#include "qwen3/host/JsonSnippet.h"
#include "qwen3/host/Utf8.h"

#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rngd::qwen3 {

namespace {

using json = nlohmann::json;

// The tables are indexed by id, so the largest id sets their size (2^20: 32 MB of strings at
// most; Qwen3's ids end at 151,668). A 30-byte file with an id near 2^24 used to cost 0.5 GB.
constexpr int64_t kMaxTokenIds = int64_t(1) << 20;

// HF ByteLevel decoding of one token.
std::string tokenBytes(const std::string &token) {
  std::string bytes;
  size_t i = 0;
  while (i < token.size()) {
    uint32_t cp;
    if (!nextCodepoint(token, i, cp))
      return token;
    int b = codepointToByte(cp);
    if (b < 0)
      return token;
    bytes += char(b);
  }
  return bytes;
}

} // namespace

int Tokenizer::byteToCodepoint(unsigned char byte) { return rngd::qwen3::byteToCodepoint(byte); }

bool Tokenizer::loadFile(const std::string &path, std::string &error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = "tokenizer: cannot open " + path;
    return false;
  }
  std::ostringstream s;
  s << f.rdbuf();
  if (!loadJson(s.str(), error)) {
    error += " (" + path + ")";
    return false;
  }
  return true;
}

bool Tokenizer::loadJson(const std::string &text, std::string &error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception &e) {
    error = std::string("tokenizer: not valid JSON: ") + e.what();
    return false;
  }
  auto fail = [&](const std::string &m) {
    error = "tokenizer: " + m;
    return false;
  };
  if (!j.is_object() || !j.contains("model") || !j["model"].is_object())
    return fail("no 'model' object");
  const json &model = j["model"];
  if (model.contains("type") && model["type"] != "BPE")
    return fail("model type " + jsonSnippet(model["type"]) + " is not BPE");
  if (!model.contains("vocab") || !model["vocab"].is_object())
    return fail("no 'model.vocab' object");

  std::vector<std::string> tokens;
  std::vector<bool> present, special;
  auto add = [&](const std::string &token, const json &idValue, bool isSpecial,
                 bool allowSame) -> bool {
    if (!idValue.is_number_integer() || idValue.get<int64_t>() < 0 ||
        idValue.get<int64_t>() >= kMaxTokenIds)
      return fail("token " + json(token).dump() + " has an invalid id " + jsonSnippet(idValue) +
                  " (ids are integers in 0.." + std::to_string(kMaxTokenIds - 1) + ")");
    size_t id = idValue.get<size_t>();
    if (id >= tokens.size()) {
      tokens.resize(id + 1);
      present.resize(id + 1, false);
      special.resize(id + 1, false);
    }
    if (present[id] && !(allowSame && tokens[id] == token))
      return fail("id " + std::to_string(id) + " is used by both " + json(tokens[id]).dump() +
                  " and " + json(token).dump());
    tokens[id] = token;
    present[id] = true;
    special[id] = isSpecial;
    return true;
  };
  for (const auto &[token, id] : model["vocab"].items())
    if (!add(token, id, false, false))
      return false;
  if (j.contains("added_tokens") && !j["added_tokens"].is_null()) {
    if (!j["added_tokens"].is_array())
      return fail("'added_tokens' is not an array");
    for (const json &a : j["added_tokens"]) {
      if (!a.is_object() || !a.contains("id") || !a.contains("content") || !a["content"].is_string())
        return fail("an added token lacks 'id' or 'content'");
      bool sp = a.contains("special") && a["special"].is_boolean() && a["special"].get<bool>();
      if (!add(a["content"].get<std::string>(), a["id"], sp, true))
        return false;
    }
  }
  tokens_ = std::move(tokens);
  present_ = std::move(present);
  special_ = std::move(special);
  auto encoder = std::make_shared<BpeEncoder>();
  encoderError_.clear();
  encoder_.reset();
  try {
    if (encoder->load(j, encoderError_))
      encoder_ = std::move(encoder);
  } catch (const json::exception &e) {
    encoderError_ = std::string("tokenizer: malformed field for encoding: ") + e.what();
  }
  return true;
}

bool Tokenizer::encode(const std::string &text, std::vector<int> &ids, std::string &error) const {
  if (!encoder_) {
    error = encoderError_.empty() ? "tokenizer: not loaded" : encoderError_;
    return false;
  }
  // The pre-tokenizer regex can fail on a text (PCRE2's match limit, for a pattern that
  // backtracks exponentially); that is an error for this text, as the header promises.
  const size_t before = ids.size();
  try {
    return encoder_->encode(text, ids, error);
  } catch (const std::exception &e) {
    error = std::string("tokenizer: ") + e.what();
    ids.resize(before);
    return false;
  }
}

int Tokenizer::idOf(const std::string &token) const {
  for (int id = 0; id < size(); ++id)
    if (present_[id] && tokens_[id] == token)
      return id;
  return -1;
}

bool Tokenizer::has(int id) const { return id >= 0 && id < size() && present_[id]; }

bool Tokenizer::isSpecial(int id) const { return has(id) && special_[id]; }

const std::string &Tokenizer::tokenString(int id) const {
  static const std::string empty;
  return has(id) ? tokens_[id] : empty;
}

bool Tokenizer::decode(const std::vector<int> &ids, std::string &out, std::string &error,
                       bool skipSpecial) const {
  std::string text;
  for (int id : ids) {
    if (!has(id)) {
      error = "tokenizer: unknown token id " + std::to_string(id);
      return false;
    }
    if (skipSpecial && special_[id])
      continue;
    text += tokenBytes(tokens_[id]);
  }
  out = std::move(text);
  return true;
}

} // namespace rngd::qwen3
