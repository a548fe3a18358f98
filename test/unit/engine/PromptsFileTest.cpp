// parsePromptsFile: --prompts FILE.jsonl's requests, defaults, and the errors a user gets.
#include "qwen3/host/PromptsFile.h"

#include <catch2/catch.hpp>

using namespace rngd::qwen3;

namespace {

/// A stand-in encoder: one id per byte (the text's bytes), refusing "bad".
bool byteEncoder(const std::string &text, std::vector<int> &ids, std::string &error) {
  if (text == "bad") {
    error = "cannot encode";
    return false;
  }
  for (unsigned char c : text)
    ids.push_back(int(c));
  return true;
}

BatchRequest defaults() {
  BatchRequest d;
  d.maxNewTokens = 5;
  d.sampling.temperature = 0.5;
  d.sampling.seed = 3;
  d.stopIds = {9};
  return d;
}

std::string parseError(const std::string &text) {
  std::vector<BatchRequest> out;
  std::string error;
  CHECK_FALSE(parsePromptsFile(text, "p.jsonl", defaults(), 100, byteEncoder, out, error));
  return error;
}

} // namespace

TEST_CASE("prompts file: requests with their fields, defaults for the rest", "[prompts]") {
  std::vector<BatchRequest> out;
  std::string error;
  const std::string text = "{\"token_ids\": [1, 2, 3], \"max_new_tokens\": 2}\n"
                           "\n"
                           "{\"prompt\": \"AB\", \"temperature\": 0, \"top_k\": 4, \"top_p\": 0.5,"
                           " \"seed\": 11}\n";
  REQUIRE(parsePromptsFile(text, "p.jsonl", defaults(), 100, byteEncoder, out, error));
  REQUIRE(out.size() == 2);
  CHECK(out[0].prompt == std::vector<int>{1, 2, 3});
  CHECK(out[0].maxNewTokens == 2);
  CHECK(out[0].sampling.temperature == 0.5);
  CHECK(out[0].sampling.seed == 3);
  CHECK(out[0].stopIds == std::vector<int>{9});
  CHECK(out[1].prompt == std::vector<int>{65, 66});
  CHECK(out[1].maxNewTokens == 5);
  CHECK(out[1].sampling.temperature == 0);
  CHECK(out[1].sampling.topK == 4);
  CHECK(out[1].sampling.topP == 0.5);
  CHECK(out[1].sampling.seed == 11);
}

TEST_CASE("prompts file: each error names the line and the field", "[prompts]") {
  CHECK(parseError("{\"token_ids\": [1]}\n{\"token_ids\": [1], \"colour\": 1}\n") ==
        "p.jsonl:2: unknown field \"colour\" (known: prompt, token_ids, max_new_tokens, "
        "temperature, top_k, top_p, seed)");
  CHECK(parseError("{\"token_ids\": [1, 100]}") ==
        "p.jsonl:1: \"token_ids\"[1] is 100, not a token id in 0..99");
  CHECK(parseError("{\"token_ids\": [-1]}") ==
        "p.jsonl:1: \"token_ids\"[0] is -1, not a token id in 0..99");
  CHECK(parseError("{\"token_ids\": []}") == "p.jsonl:1: the prompt has no tokens");
  CHECK(parseError("{\"prompt\": \"x\", \"token_ids\": [1]}") ==
        "p.jsonl:1: give exactly one of \"prompt\" and \"token_ids\"");
  CHECK(parseError("{\"max_new_tokens\": 3}") ==
        "p.jsonl:1: give exactly one of \"prompt\" and \"token_ids\"");
  CHECK(parseError("{\"prompt\": \"bad\"}") == "p.jsonl:1: \"prompt\": cannot encode");
  CHECK(parseError("{\"prompt\": 7}") == "p.jsonl:1: \"prompt\" must be a string, got 7");
  CHECK(parseError("{\"token_ids\": [1], \"max_new_tokens\": 0}") ==
        "p.jsonl:1: \"max_new_tokens\" is 0, outside 1..1048576");
  CHECK(parseError("{\"token_ids\": [1], \"max_new_tokens\": 1.5}") ==
        "p.jsonl:1: \"max_new_tokens\" must be an integer, got 1.5");
  CHECK(parseError("{\"token_ids\": [1], \"top_p\": 0}") ==
        "p.jsonl:1: \"top_p\" is 0, outside (0, 1]");
  CHECK(parseError("{\"token_ids\": [1], \"temperature\": -1}") ==
        "p.jsonl:1: \"temperature\" is -1, outside [0, 100]");
  CHECK(parseError("{\"token_ids\": [1]\n") == "p.jsonl:1: not valid JSON");
  CHECK(parseError("[1, 2]") == "p.jsonl:1: a request is a JSON object, got array");
  CHECK(parseError("\n  \n") == "p.jsonl: no requests (one JSON object per line)");
}
