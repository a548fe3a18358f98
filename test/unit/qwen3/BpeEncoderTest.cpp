// The BPE encoder on a hand-made tokenizer.json: merges applied by rank (not left to right),
// added tokens split out before the regex, NFC, the round trip, and errors (invalid UTF-8,
// a merge of unknown tokens, an unsupported pre-tokenizer).
#include "Helpers.h"

#include "qwen3/host/ByteLevel.h"
#include "qwen3/host/Tokenizer.h"
#include "qwen3/host/Utf8.h"

#include <nlohmann/json.hpp>

#include <thread>

using namespace rngd::qwen3;
using json = nlohmann::json;

namespace {

// All 256 byte symbols (ids 0..255 = byte values), then merged tokens; Qwen3's pre-tokenizer.
json makeTokenizer() {
  json vocab = json::object();
  for (int b = 0; b < 256; ++b)
    vocab[byteSymbol(static_cast<unsigned char>(b))] = b;
  vocab["ab"] = 256;
  vocab["bc"] = 257;
  vocab["abc"] = 258;
  vocab["\xC3\x83\xC2\xA9"] = 259; // "é" as the byte-level symbols of C3 A9
  json j;
  j["added_tokens"] = json::array({{{"id", 300}, {"content", "<|im_end|>"}, {"special", true}},
                                   {{"id", 301}, {"content", "<|im"}, {"special", true}}});
  j["normalizer"] = {{"type", "NFC"}};
  j["pre_tokenizer"] = {
      {"type", "Sequence"},
      {"pretokenizers",
       json::array({{{"type", "Split"},
                     {"pattern", {{"Regex", "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"}}},
                     {"behavior", "Isolated"},
                     {"invert", false}},
                    {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}})}};
  // "b c" ranks before "a b": "abc" becomes a + bc, then no merge "a bc" exists.
  j["model"] = {{"type", "BPE"}, {"vocab", vocab},
                {"merges", json::array({"b c", json::array({"a", "b"}), "ab c", "Ã ©"})}};
  return j;
}

std::vector<int> encode(const Tokenizer &t, const std::string &s) {
  std::vector<int> ids;
  std::string error;
  INFO(error);
  REQUIRE(t.encode(s, ids, error));
  return ids;
}

Tokenizer load(const json &j) {
  Tokenizer t;
  std::string error;
  REQUIRE(t.loadJson(j.dump(), error));
  return t;
}

} // namespace

TEST_CASE("bpe: merges by rank", "[qwen3][tokenizer]") {
  Tokenizer t = load(makeTokenizer());
  REQUIRE(t.canEncode());
  CHECK(encode(t, "abc") == std::vector<int>{'a', 257});
  CHECK(encode(t, "ab") == std::vector<int>{256});
  CHECK(encode(t, "abab") == std::vector<int>{256, 256});
  // The regex makes " ab" one piece: the space is a byte of its own, "ab" still merges.
  CHECK(encode(t, "ab ab") == std::vector<int>{256, ' ', 256});
}

TEST_CASE("bpe: added tokens, NFC, round trip", "[qwen3][tokenizer]") {
  Tokenizer t = load(makeTokenizer());
  // Longest added token wins at a position; the text around is encoded on its own.
  CHECK(encode(t, "ab<|im_end|>ab") == std::vector<int>{256, 300, 256});
  CHECK(encode(t, "<|imab") == std::vector<int>{301, 256});
  // "e" + combining acute is NFC "é" (C3 A9), one merged token.
  CHECK(encode(t, "e\xCC\x81") == std::vector<int>{259});
  CHECK(encode(t, "\xC3\xA9") == std::vector<int>{259});
  for (std::string s : {"ab c\t\td  \n\n x", "abc's 'LL 12", "\xF0\x9F\x98\x80 \xE4\xB8\xAD"}) {
    std::string back, error;
    REQUIRE(t.decode(encode(t, s), back, error));
    CHECK(back == s);
  }
}

TEST_CASE("bpe: errors", "[qwen3][tokenizer]") {
  Tokenizer t = load(makeTokenizer());
  std::vector<int> ids;
  std::string error;
  CHECK_FALSE(t.encode("ok \xC3(", ids, error));
  CHECK(error.find("invalid UTF-8 at byte 3") != std::string::npos);
  CHECK_FALSE(t.encode("\xED\xA0\x80", ids, error)); // a surrogate
  CHECK(firstInvalidUtf8("\xF4\x90\x80\x80") == 0);   // past U+10FFFF

  json bad = makeTokenizer();
  bad["model"]["merges"].push_back("x zz");
  Tokenizer u = load(bad); // decoding still works
  CHECK_FALSE(u.canEncode());
  CHECK(u.encoderError().find("model.merges[4]") != std::string::npos);
  CHECK_FALSE(u.encode("ab", ids, error));

  json regex = makeTokenizer();
  regex["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "(unclosed";
  CHECK_FALSE(load(regex).canEncode());
  CHECK(load(regex).encoderError().find("pre-tokenizer regex") != std::string::npos);

  json other = makeTokenizer();
  other["pre_tokenizer"] = {{"type", "Whitespace"}};
  CHECK(load(other).encoderError().find("not supported") != std::string::npos);

  // A regex that backtracks exponentially hits PCRE2's match limit on a long run: an error for
  // that text (it threw out of encode before), not for the tokenizer.
  json slow = makeTokenizer();
  slow["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "(a|aa)*c";
  Tokenizer s = load(slow);
  REQUIRE(s.canEncode());
  ids = {7};
  CHECK_FALSE(s.encode(std::string(60, 'a') + "bc", ids, error));
  CHECK(error == "tokenizer: pre-tokenizer regex: match failed (PCRE2 error -47)");
  CHECK(ids == std::vector<int>{7});
  CHECK(encode(s, "ab") == std::vector<int>{256});

  // Unsupported normalisers are named by type; a nested value by kind (dumping it whole
  // recursed per level: regressions/tokenizer_json/deep-normalizer-in-error-message.json).
  json nfkc = makeTokenizer();
  nfkc["normalizer"] = {{"type", "NFKC"}};
  CHECK(load(nfkc).encoderError() == "tokenizer: normalizer of type \"NFKC\" is not supported (only NFC)");
  json nested = makeTokenizer();
  nested["normalizer"] = json::array({json::array({1})});
  CHECK(load(nested).encoderError() ==
        "tokenizer: normalizer an array of 1 element is not supported (only NFC)");
}

// The server's request threads encode with one tokenizer at once: the piece cache (cleared when
// it fills, at 65,536 pieces) must stay consistent. Four threads encode 24,000 distinct words
// each (96,000 pieces), so the cache fills and clears while the others read it; every result equals a fresh
// tokenizer's, encoding alone.
TEST_CASE("bpe: encoding from several threads at once", "[qwen3][tokenizer]") {
  const json j = makeTokenizer();
  Tokenizer shared = load(j), alone = load(j);
  constexpr int kThreads = 4, kWords = 24000;
  auto word = [](int t, int i) { // distinct words of letters (one piece each): n in base 26
    std::string w = "ab";
    for (int n = t * kWords + i; n > 0; n /= 26)
      w += char('a' + n % 26);
    return w + "bc";
  };
  std::vector<std::vector<std::vector<int>>> got(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < kWords; ++i) {
        std::vector<int> ids;
        if (!shared.encode(word(t, i), ids, errors[t]))
          return;
        got[t].push_back(std::move(ids));
      }
    });
  for (std::thread &th : pool)
    th.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t << ": " << errors[t]);
    REQUIRE(got[t].size() == size_t(kWords));
    for (int i = 0; i < kWords; i += 97) // a sample: encoding alone is the slow part here
      REQUIRE(got[t][size_t(i)] == encode(alone, word(t, i)));
  }
}
