// The OpenAI-style request reader of `rngd-qwen3 serve` (docs/serving.md): a JSON body of
// /v1/chat/completions or /v1/completions to validated parameters and messages, or the
// OpenAI error object's fields (status 400, the message naming the parameter and its value).
// Plain C++ and JSON, no HTTP: the fuzz target api_request reads bodies through it.
#pragma once

#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/Sampler.h"

#include <optional>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct ApiError {
  int status = 400;
  std::string message;
  std::string type = "invalid_request_error";
  std::string param; // "" : none
  std::string code;  // "" : none
};

enum class ApiEndpoint { ChatCompletions, Completions };

struct ApiRequest {
  ApiEndpoint endpoint = ApiEndpoint::ChatCompletions;
  std::string model;                 // "" when the body names none
  std::vector<ChatMessage> messages; // chat
  bool think = true;                 // chat_template_kwargs.enable_thinking
  std::string prompt;                // completions: text
  std::vector<int> promptIds;        // completions: token ids (then prompt is unused)
  bool promptIsIds = false;
  std::optional<int> maxTokens;      // max_tokens / max_completion_tokens
  SamplingOptions sampling;          // temperature 1 unless given, as OpenAI's default
  bool seeded = false;               // "seed" was given
  std::vector<std::string> stop;
  bool stream = false, includeUsage = false;
};

/// Limits the reader enforces (the server's --max-* options may lower the first).
struct ApiLimits {
  int maxTokens = 1 << 20;
  int maxStops = 16;
  int maxMessages = 4096;
};

/// Parses `body` for `endpoint`; false with `error` (status 400) when it is not valid.
bool readApiRequest(ApiEndpoint endpoint, const std::string &body, const ApiLimits &limits,
                    ApiRequest &request, ApiError &error);

} // namespace rngd::qwen3
