// Fuzz target: the server's request reader (readApiRequest: a JSON body of /v1/chat/completions
// or /v1/completions to validated parameters). The first byte picks the endpoint (even: chat).
// A refusal is a 400 with a message; an accepted request's parameters are in their ranges, and
// its conversation renders through the chat template.
#include "FuzzCheck.h"

#include "qwen3/host/ApiRequest.h"

#include <string>

using namespace rngd::qwen3;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  const ApiEndpoint endpoint = data[0] % 2 ? ApiEndpoint::Completions : ApiEndpoint::ChatCompletions;
  const std::string body(reinterpret_cast<const char *>(data + 1), size - 1);
  ApiLimits limits;
  ApiRequest r;
  ApiError e;
  if (!readApiRequest(endpoint, body, limits, r, e)) {
    RNGD_FUZZ_CHECK(e.status == 400 && !e.message.empty(), "refused without a 400 and a message");
    return 0;
  }
  const SamplingOptions &s = r.sampling;
  RNGD_FUZZ_CHECK(s.temperature >= 0 && s.temperature <= 2, "temperature %g", s.temperature);
  RNGD_FUZZ_CHECK(s.topP > 0 && s.topP <= 1, "top_p %g", s.topP);
  RNGD_FUZZ_CHECK(s.topK >= 0 && s.minP >= 0 && s.minP <= 1, "top_k %d min_p %g", s.topK, s.minP);
  RNGD_FUZZ_CHECK(s.repetitionPenalty > 0, "repetition_penalty %g", s.repetitionPenalty);
  RNGD_FUZZ_CHECK(!r.maxTokens || (*r.maxTokens >= 1 && *r.maxTokens <= limits.maxTokens),
                  "max_tokens %d", r.maxTokens.value_or(0));
  RNGD_FUZZ_CHECK(int(r.stop.size()) <= limits.maxStops, "%zu stop strings", r.stop.size());
  for (const std::string &stop : r.stop)
    RNGD_FUZZ_CHECK(!stop.empty(), "an empty stop string");
  if (endpoint == ApiEndpoint::ChatCompletions) {
    RNGD_FUZZ_CHECK(!r.messages.empty(), "a chat request without messages");
    for (const ChatMessage &m : r.messages)
      RNGD_FUZZ_CHECK(knownChatRole(m.role), "role %s", m.role.c_str());
    RNGD_FUZZ_CHECK(!applyChatTemplate(r.messages, true, r.think).empty(), "an empty prompt");
  } else {
    RNGD_FUZZ_CHECK(r.promptIsIds ? !r.promptIds.empty() : !r.prompt.empty(), "no prompt");
  }
  return 0;
}
