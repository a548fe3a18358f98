#include "qwen3/host/ChatTemplate.h"

namespace rngd::qwen3 {

std::string applyChatTemplate(const ChatPrompt &prompt) {
  std::string text;
  if (!prompt.system.empty())
    text += "<|im_start|>system\n" + prompt.system + "<|im_end|>\n";
  text += "<|im_start|>user\n" + prompt.user + "<|im_end|>\n<|im_start|>assistant\n";
  if (!prompt.think)
    text += "<think>\n\n</think>\n\n";
  return text;
}

} // namespace rngd::qwen3
