// Qwen3's chat template (the Jinja template of Qwen3's tokenizer_config.json), written out as
// plain string building over a conversation: an optional leading system turn, user turns,
// assistant turns (their thinking dropped before the last user turn, as the template does) and
// tool results; then, optionally, the opened assistant turn, with the empty think block the
// template emits for enable_thinking=false. Tool definitions and tool calls are not rendered.
// The text is meant for Tokenizer::encode, which turns the markers into their special ids.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct ChatMessage {
  std::string role; // "system", "user", "assistant" or "tool"
  std::string content;
  std::optional<std::string> reasoning; // an assistant turn's reasoning_content, when given
};

/// True for the roles the template renders.
bool knownChatRole(const std::string &role);

/// The conversation in Qwen3's template; `addGenerationPrompt` opens the assistant's answer
/// (with the empty think block when `think` is false).
std::string applyChatTemplate(const std::vector<ChatMessage> &messages,
                              bool addGenerationPrompt = true, bool think = true);

/// One user turn after an optional system turn (an empty system text is a system turn, as
/// Hugging Face renders it), the answer opened.
struct ChatPrompt {
  std::optional<std::string> system;
  std::string user;
  bool think = true; // false: "<think>\n\n</think>\n\n" opens the answer
};
std::string applyChatTemplate(const ChatPrompt &prompt);

/// Whether a tokenizer_config.json's chat_template is Qwen3's (the one rendered here),
/// compared with whitespace ignored.
bool isQwen3ChatTemplate(const std::string &jinja);

} // namespace rngd::qwen3
