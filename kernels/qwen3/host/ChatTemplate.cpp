#include "qwen3/host/ChatTemplate.h"

#include <cctype>
#include <cstdint>

namespace rngd::qwen3 {

namespace {

// Python's str methods as the template uses them.
std::string lstripNewlines(const std::string &s) {
  size_t i = s.find_first_not_of('\n');
  return i == std::string::npos ? "" : s.substr(i);
}
std::string rstripNewlines(const std::string &s) {
  size_t i = s.find_last_not_of('\n');
  return i == std::string::npos ? "" : s.substr(0, i + 1);
}
/// s.split(sep)[0] and s.split(sep)[-1].
std::string beforeFirst(const std::string &s, const std::string &sep) {
  return s.substr(0, s.find(sep));
}
std::string afterLast(const std::string &s, const std::string &sep) {
  size_t i = s.rfind(sep);
  return i == std::string::npos ? s : s.substr(i + sep.size());
}
bool isToolResponse(const std::string &s) {
  const std::string open = "<tool_response>", close = "</tool_response>";
  return s.size() >= open.size() && s.compare(0, open.size(), open) == 0 &&
         s.size() >= close.size() && s.compare(s.size() - close.size(), close.size(), close) == 0;
}

/// The index of the last user turn that is not a tool response (the template's
/// ns.last_query_index), else the last index.
int lastQueryIndex(const std::vector<ChatMessage> &m) {
  for (int i = int(m.size()) - 1; i >= 0; --i)
    if (m[size_t(i)].role == "user" && !isToolResponse(m[size_t(i)].content))
      return i;
  return int(m.size()) - 1;
}

std::string assistantTurn(const ChatMessage &m, bool afterLastQuery, bool last) {
  std::string content = m.content, reasoning;
  if (m.reasoning) {
    reasoning = *m.reasoning;
  } else if (content.find("</think>") != std::string::npos) {
    content = lstripNewlines(afterLast(m.content, "</think>"));
    reasoning = lstripNewlines(afterLast(rstripNewlines(beforeFirst(m.content, "</think>")),
                                         "<think>"));
  }
  std::string text = "<|im_start|>assistant\n";
  if (afterLastQuery && (last || !reasoning.empty()))
    text += "<think>\n" + lstripNewlines(rstripNewlines(reasoning)) + "\n</think>\n\n" +
            lstripNewlines(content);
  else
    text += content;
  return text + "<|im_end|>\n";
}

} // namespace

bool knownChatRole(const std::string &role) {
  return role == "system" || role == "user" || role == "assistant" || role == "tool";
}

std::string applyChatTemplate(const std::vector<ChatMessage> &messages, bool addGenerationPrompt,
                              bool think) {
  std::string text;
  if (!messages.empty() && messages[0].role == "system")
    text += "<|im_start|>system\n" + messages[0].content + "<|im_end|>\n";
  const int lastQuery = lastQueryIndex(messages);
  const int n = int(messages.size());
  for (int i = 0; i < n; ++i) {
    const ChatMessage &m = messages[size_t(i)];
    if (m.role == "user" || (m.role == "system" && i > 0)) {
      text += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    } else if (m.role == "assistant") {
      text += assistantTurn(m, i > lastQuery, i == n - 1);
    } else if (m.role == "tool") {
      if (i == 0 || messages[size_t(i - 1)].role != "tool")
        text += "<|im_start|>user";
      text += "\n<tool_response>\n" + m.content + "\n</tool_response>";
      if (i == n - 1 || messages[size_t(i + 1)].role != "tool")
        text += "<|im_end|>\n";
    }
  }
  if (addGenerationPrompt) {
    text += "<|im_start|>assistant\n";
    if (!think)
      text += "<think>\n\n</think>\n\n";
  }
  return text;
}

std::string applyChatTemplate(const ChatPrompt &prompt) {
  std::vector<ChatMessage> messages;
  if (prompt.system)
    messages.push_back({"system", *prompt.system, std::nullopt});
  messages.push_back({"user", prompt.user, std::nullopt});
  return applyChatTemplate(messages, true, prompt.think);
}

bool isQwen3ChatTemplate(const std::string &jinja) {
  // FNV-1a (64 bits) of Qwen3's template (tokenizer_config.json of Qwen3-0.6B .. 14B) with
  // every whitespace character removed.
  constexpr uint64_t kQwen3TemplateFnv = 0x4629b26c31e7abf0ull;
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : jinja)
    if (!std::isspace(c)) {
      h ^= c;
      h *= 0x100000001b3ull;
    }
  return h == kQwen3TemplateFnv;
}

} // namespace rngd::qwen3
