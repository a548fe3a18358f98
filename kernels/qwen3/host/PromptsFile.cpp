#include "qwen3/host/PromptsFile.h"

#include "qwen3/host/JsonSnippet.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <sstream>

namespace rngd::qwen3 {

namespace {

using json = nlohmann::json;

/// An integer field in [lo, hi]; false with the reason.
bool intField(const json &j, const char *key, long long lo, long long hi, long long &out,
              std::string &why) {
  const json &v = j.at(key);
  if (!v.is_number_integer()) {
    why = std::string("\"") + key + "\" must be an integer, got " + jsonSnippet(v);
    return false;
  }
  out = v.get<long long>();
  if (out < lo || out > hi) {
    why = std::string("\"") + key + "\" is " + std::to_string(out) + ", outside " +
          std::to_string(lo) + ".." + std::to_string(hi);
    return false;
  }
  return true;
}

bool numberField(const json &j, const char *key, double lo, double hi, bool openLow,
                 double &out, std::string &why) {
  const json &v = j.at(key);
  if (!v.is_number()) {
    why = std::string("\"") + key + "\" must be a number, got " + jsonSnippet(v);
    return false;
  }
  out = v.get<double>();
  if (!(openLow ? out > lo : out >= lo) || !(out <= hi)) {
    std::ostringstream s;
    s << "\"" << key << "\" is " << out << ", outside " << (openLow ? "(" : "[") << lo << ", "
      << hi << "]";
    why = s.str();
    return false;
  }
  return true;
}

/// One line's request; false with the reason.
bool parseRequest(const json &j, const BatchRequest &defaults, int vocab,
                  const PromptEncoder &encode, BatchRequest &r, std::string &why) {
  if (!j.is_object()) {
    why = "a request is a JSON object, got " + std::string(j.type_name());
    return false;
  }
  static const char *const known[] = {"prompt", "token_ids", "max_new_tokens", "temperature",
                                      "top_k",  "top_p",     "seed"};
  for (const auto &[key, value] : j.items())
    if (std::find(std::begin(known), std::end(known), key) == std::end(known)) {
      why = "unknown field \"" + key + "\" (known: prompt, token_ids, max_new_tokens, "
            "temperature, top_k, top_p, seed)";
      return false;
    }
  if (j.contains("prompt") == j.contains("token_ids")) {
    why = "give exactly one of \"prompt\" and \"token_ids\"";
    return false;
  }
  r = defaults;
  r.prompt.clear();
  if (j.contains("prompt")) {
    if (!j["prompt"].is_string()) {
      why = "\"prompt\" must be a string, got " + jsonSnippet(j["prompt"]);
      return false;
    }
    std::string err;
    if (!encode(j["prompt"].get<std::string>(), r.prompt, err)) {
      why = "\"prompt\": " + err;
      return false;
    }
  } else {
    const json &ids = j["token_ids"];
    if (!ids.is_array()) {
      why = "\"token_ids\" must be an array of integers, got " + jsonSnippet(ids);
      return false;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!ids[i].is_number_integer() || ids[i].get<long long>() < 0 ||
          ids[i].get<long long>() >= vocab) {
        why = "\"token_ids\"[" + std::to_string(i) + "] is " + jsonSnippet(ids[i]) +
              ", not a token id in 0.." + std::to_string(vocab - 1);
        return false;
      }
      r.prompt.push_back(ids[i].get<int>());
    }
  }
  if (r.prompt.empty()) {
    why = "the prompt has no tokens";
    return false;
  }
  long long v = 0;
  double d = 0;
  if (j.contains("max_new_tokens")) {
    if (!intField(j, "max_new_tokens", 1, 1 << 20, v, why))
      return false;
    r.maxNewTokens = int(v);
  }
  if (j.contains("top_k")) {
    if (!intField(j, "top_k", 0, vocab, v, why))
      return false;
    r.sampling.topK = int(v);
  }
  if (j.contains("seed")) {
    if (!intField(j, "seed", 0, std::numeric_limits<long long>::max(), v, why))
      return false;
    r.sampling.seed = uint64_t(v);
  }
  if (j.contains("temperature")) {
    if (!numberField(j, "temperature", 0, 100, false, d, why))
      return false;
    r.sampling.temperature = d;
  }
  if (j.contains("top_p")) {
    if (!numberField(j, "top_p", 0, 1, true, d, why))
      return false;
    r.sampling.topP = d;
  }
  return true;
}

} // namespace

bool parsePromptsFile(const std::string &text, const std::string &name,
                      const BatchRequest &defaults, int vocab, const PromptEncoder &encode,
                      std::vector<BatchRequest> &out, std::string &error) {
  out.clear();
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json j = json::parse(line, nullptr, false);
    std::string why;
    BatchRequest r;
    if (j.is_discarded())
      why = "not valid JSON";
    else
      parseRequest(j, defaults, vocab, encode, r, why);
    if (!why.empty()) {
      error = name + ":" + std::to_string(number) + ": " + why;
      return false;
    }
    out.push_back(std::move(r));
  }
  if (out.empty()) {
    error = name + ": no requests (one JSON object per line)";
    return false;
  }
  return true;
}

} // namespace rngd::qwen3
