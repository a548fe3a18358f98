// Qwen3's chat template (tokenizer_config.json's Jinja template) for one user turn, written out
// as plain string building: an optional system turn, the user turn, and the opened assistant
// turn; with thinking switched off, the empty think block Qwen3's template emits for
// enable_thinking=false.
#pragma once

#include <string>

namespace rngd::qwen3 {

struct ChatPrompt {
  std::string system; // empty: no system turn
  std::string user;
  bool think = true; // false: "<think>\n\n</think>\n\n" opens the answer
};

/// "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n"
/// (+ the empty think block). The text is meant for Tokenizer::encode, which turns the markers
/// into their special ids.
std::string applyChatTemplate(const ChatPrompt &prompt);

} // namespace rngd::qwen3
