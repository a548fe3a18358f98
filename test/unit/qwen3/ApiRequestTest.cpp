// The server's request reader: OpenAI's chat and completion bodies to parameters, and each
// refusal a 400 naming the parameter (limits at the edge, one past it, a normal case).
#include "Helpers.h"

#include "qwen3/host/ApiRequest.h"

using namespace rngd::qwen3;

namespace {

bool read(ApiEndpoint e, const std::string &body, ApiRequest &r, ApiError &err) {
  return readApiRequest(e, body, ApiLimits(), r, err);
}

/// The parameter a chat body with `field` is refused for ("" when accepted).
std::string refusedParam(const std::string &field) {
  ApiRequest r;
  ApiError e;
  const std::string body =
      R"({"messages": [{"role": "user", "content": "x"}])" + (field.empty() ? "" : ", " + field) + "}";
  if (read(ApiEndpoint::ChatCompletions, body, r, e))
    return "";
  CHECK(e.status == 400);
  return e.param.empty() ? "(none)" : e.param;
}

} // namespace

TEST_CASE("api request: a chat body", "[qwen3][api]") {
  ApiRequest r;
  ApiError e;
  REQUIRE(read(ApiEndpoint::ChatCompletions, R"({
    "model": "m", "messages": [{"role": "system", "content": "S"},
                               {"role": "user", "content": [{"type": "text", "text": "a"},
                                                            {"type": "text", "text": "b"}]}],
    "max_tokens": 7, "temperature": 0, "top_p": 0.5, "top_k": -1, "seed": -3,
    "stop": "x", "stream": true, "stream_options": {"include_usage": true},
    "chat_template_kwargs": {"enable_thinking": false}, "user": "ignored"})", r, e));
  CHECK(r.model == "m");
  REQUIRE(r.messages.size() == 2);
  CHECK(r.messages[1].content == "ab");
  CHECK(r.maxTokens == 7);
  CHECK(r.sampling.temperature == 0);
  CHECK(r.sampling.topP == 0.5);
  CHECK(r.sampling.topK == 0);
  CHECK(r.sampling.seed == uint64_t(-3));
  CHECK(r.seeded);
  CHECK(r.stop == std::vector<std::string>{"x"});
  CHECK(r.stream);
  CHECK(r.includeUsage);
  CHECK_FALSE(r.think);
  CHECK(r.sampling.temperature == 0);
  // Defaults: OpenAI's temperature 1, no seed.
  REQUIRE(read(ApiEndpoint::ChatCompletions, R"({"messages": [{"role": "user", "content": ""}]})",
               r, e));
  CHECK(r.sampling.temperature == 1);
  CHECK_FALSE(r.seeded);
  CHECK_FALSE(r.maxTokens);
}

TEST_CASE("api request: ranges at the limit and one past it", "[qwen3][api]") {
  CHECK(refusedParam("\"temperature\": 2") == "");
  CHECK(refusedParam("\"temperature\": 2.0001") == "temperature");
  CHECK(refusedParam("\"temperature\": -0.0001") == "temperature");
  CHECK(refusedParam("\"top_p\": 1") == "");
  CHECK(refusedParam("\"top_p\": 0") == "top_p");
  CHECK(refusedParam("\"max_tokens\": 1") == "");
  CHECK(refusedParam("\"max_tokens\": 0") == "max_tokens");
  CHECK(refusedParam("\"max_tokens\": 2.5") == "max_tokens");
  CHECK(refusedParam("\"max_tokens\": \"3\"") == "max_tokens");
  CHECK(refusedParam("\"presence_penalty\": -2") == "");
  CHECK(refusedParam("\"presence_penalty\": -2.5") == "presence_penalty");
  CHECK(refusedParam("\"top_k\": -2") == "top_k");
  CHECK(refusedParam("\"stop\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\", "
                     "\"j\", \"k\", \"l\", \"m\", \"n\", \"o\", \"p\"]") == "");
  CHECK(refusedParam("\"stop\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\", "
                     "\"j\", \"k\", \"l\", \"m\", \"n\", \"o\", \"p\", \"q\"]") == "stop");
  CHECK(refusedParam("\"stop\": \"\"") == "stop");
  CHECK(refusedParam("\"n\": 2") == "n");
  CHECK(refusedParam("\"tools\": []") == "tools");
  CHECK(refusedParam("\"logprobs\": true") == "logprobs");
  CHECK(refusedParam("\"stream\": 1") == "stream");
}

TEST_CASE("api request: messages and prompts that are refused", "[qwen3][api]") {
  ApiRequest r;
  ApiError e;
  CHECK_FALSE(read(ApiEndpoint::ChatCompletions, "{}", r, e));
  CHECK(e.param == "messages");
  CHECK_FALSE(read(ApiEndpoint::ChatCompletions, "[1]", r, e));
  CHECK(e.message.find("JSON object") != std::string::npos);
  CHECK_FALSE(read(ApiEndpoint::ChatCompletions, "{\"messages\": [", r, e));
  CHECK(e.message.find("not valid JSON") != std::string::npos);
  CHECK_FALSE(read(ApiEndpoint::ChatCompletions,
                   R"({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]})", r, e));
  CHECK(e.param == "messages[0].content[0]");
  CHECK_FALSE(read(ApiEndpoint::ChatCompletions, R"({"messages": [{"role": "user"}]})", r, e));
  CHECK(e.param == "messages[0].content");
  // Completions: a string, one string in an array, or token ids.
  REQUIRE(read(ApiEndpoint::Completions, R"({"prompt": ["hi"]})", r, e));
  CHECK(r.prompt == "hi");
  REQUIRE(read(ApiEndpoint::Completions, R"({"prompt": [1, 2, 3]})", r, e));
  CHECK(r.promptIsIds);
  CHECK(r.promptIds == std::vector<int>{1, 2, 3});
  CHECK_FALSE(read(ApiEndpoint::Completions, R"({"prompt": ["a", "b"]})", r, e));
  CHECK(e.param == "prompt");
  CHECK_FALSE(read(ApiEndpoint::Completions, R"({"prompt": [-1]})", r, e));
  CHECK_FALSE(read(ApiEndpoint::Completions, R"({"prompt": ""})", r, e));
}
