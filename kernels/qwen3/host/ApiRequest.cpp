#include "qwen3/host/ApiRequest.h"

#include "qwen3/host/JsonSnippet.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace rngd::qwen3 {

namespace {

using nlohmann::json;

/// A refusal: thrown inside the reader, turned into ApiError at its boundary.
struct Refusal : std::runtime_error {
  Refusal(const std::string &message, std::string param)
      : std::runtime_error(message), param(std::move(param)) {}
  std::string param;
};

/// A value in a message: scalars as JSON, arrays and objects by size (a deep one would
/// overflow dump()'s recursion).
std::string shown(const json &v) { return jsonSnippet(v, 60); }

const json *field(const json &body, const char *name) {
  auto it = body.find(name);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

double number(const json &body, const char *name, double lo, double hi, double otherwise) {
  const json *v = field(body, name);
  if (!v)
    return otherwise;
  if (!v->is_number())
    throw Refusal(std::string(name) + " must be a number, got " + shown(*v), name);
  const double x = v->get<double>();
  if (!(x >= lo && x <= hi))
    throw Refusal(std::string(name) + " must be in [" + shown(lo) + ", " + shown(hi) + "], got " +
                      shown(*v),
                  name);
  return x;
}

std::optional<int64_t> integer(const json &body, const char *name, int64_t lo, int64_t hi) {
  const json *v = field(body, name);
  if (!v)
    return std::nullopt;
  if (!v->is_number_integer() && !(v->is_number_float() && std::nearbyint(v->get<double>()) ==
                                                               v->get<double>()))
    throw Refusal(std::string(name) + " must be an integer, got " + shown(*v), name);
  const double x = v->get<double>();
  if (!(x >= double(lo) && x <= double(hi)))
    throw Refusal(std::string(name) + " must be in [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "], got " + shown(*v),
                  name);
  return v->is_number_unsigned() ? int64_t(v->get<uint64_t>()) : v->get<int64_t>();
}

bool boolean(const json &body, const char *name, bool otherwise) {
  const json *v = field(body, name);
  if (!v)
    return otherwise;
  if (!v->is_boolean())
    throw Refusal(std::string(name) + " must be true or false, got " + shown(*v), name);
  return v->get<bool>();
}

/// A message's content: a string, or an array of {"type": "text", "text": ...} parts.
std::string content(const json &v, const std::string &param) {
  if (v.is_string())
    return v.get<std::string>();
  if (!v.is_array())
    throw Refusal(param + " must be a string or an array of text parts, got " + shown(v), param);
  std::string text;
  for (size_t i = 0; i < v.size(); ++i) {
    const json &part = v[i];
    const std::string p = param + "[" + std::to_string(i) + "]";
    if (!part.is_object() || part.value("type", json()) != "text" || !part.contains("text") ||
        !part["text"].is_string())
      throw Refusal(p + " must be {\"type\": \"text\", \"text\": STRING} (only text is "
                        "supported), got " + shown(part),
                    p);
    text += part["text"].get<std::string>();
  }
  return text;
}

ChatMessage message(const json &m, size_t i) {
  const std::string p = "messages[" + std::to_string(i) + "]";
  if (!m.is_object())
    throw Refusal(p + " must be an object, got " + shown(m), p);
  const json *role = field(m, "role");
  if (!role || !role->is_string() || !knownChatRole(role->get<std::string>()))
    throw Refusal(p + ".role must be one of system, user, assistant, tool, got " +
                      (role ? shown(*role) : std::string("none")),
                  p + ".role");
  if (field(m, "tool_calls"))
    throw Refusal(p + ".tool_calls: tool calls are not supported", p + ".tool_calls");
  ChatMessage out{role->get<std::string>(), "", std::nullopt};
  const json *c = field(m, "content");
  if (!c)
    throw Refusal(p + ".content is required", p + ".content");
  out.content = content(*c, p + ".content");
  if (const json *r = field(m, "reasoning_content"))
    out.reasoning = content(*r, p + ".reasoning_content");
  return out;
}

void readMessages(const json &body, const ApiLimits &limits, ApiRequest &r) {
  const json *m = field(body, "messages");
  if (!m)
    throw Refusal("messages is required", "messages");
  if (!m->is_array() || m->empty())
    throw Refusal("messages must be a non-empty array, got " + shown(*m), "messages");
  if (m->size() > size_t(limits.maxMessages))
    throw Refusal("messages holds " + std::to_string(m->size()) + " messages, at most " +
                      std::to_string(limits.maxMessages),
                  "messages");
  for (size_t i = 0; i < m->size(); ++i)
    r.messages.push_back(message((*m)[i], i));
  if (const json *k = field(body, "chat_template_kwargs")) {
    if (!k->is_object())
      throw Refusal("chat_template_kwargs must be an object, got " + shown(*k),
                    "chat_template_kwargs");
    r.think = boolean(*k, "enable_thinking", true);
  }
}

void readPrompt(const json &body, ApiRequest &r) {
  const json *p = field(body, "prompt");
  if (!p)
    throw Refusal("prompt is required", "prompt");
  const json *one = p;
  if (p->is_array() && p->size() == 1 && (*p)[0].is_string())
    one = &(*p)[0];
  if (one->is_string()) {
    r.prompt = one->get<std::string>();
    if (r.prompt.empty())
      throw Refusal("prompt is empty", "prompt");
    return;
  }
  if (!p->is_array() || p->empty())
    throw Refusal("prompt must be a string or a non-empty array of token ids, got " + shown(*p),
                  "prompt");
  r.promptIsIds = true;
  for (size_t i = 0; i < p->size(); ++i) {
    const json &v = (*p)[i];
    if (!v.is_number_integer() || v.get<int64_t>() < 0 ||
        v.get<int64_t>() > std::numeric_limits<int>::max())
      throw Refusal("prompt[" + std::to_string(i) + "] must be a token id, got " + shown(v) +
                        " (one prompt per request)",
                    "prompt");
    r.promptIds.push_back(int(v.get<int64_t>()));
  }
}

void readStop(const json &body, const ApiLimits &limits, ApiRequest &r) {
  const json *s = field(body, "stop");
  if (!s)
    return;
  std::vector<json> items = s->is_array() ? std::vector<json>(s->begin(), s->end())
                                          : std::vector<json>{*s};
  if (items.size() > size_t(limits.maxStops))
    throw Refusal("stop holds " + std::to_string(items.size()) + " strings, at most " +
                      std::to_string(limits.maxStops),
                  "stop");
  for (const json &v : items) {
    if (!v.is_string() || v.get<std::string>().empty())
      throw Refusal("stop must be a non-empty string or an array of them, got " + shown(*s),
                    "stop");
    r.stop.push_back(v.get<std::string>());
  }
}

/// Parameters this server does not implement: refused when set to anything but their default.
void refuseUnsupported(const json &body) {
  for (const char *name : {"tools", "tool_choice", "functions", "function_call", "logit_bias",
                           "suffix"})
    if (field(body, name))
      throw Refusal(std::string(name) + " is not supported", name);
  if (boolean(body, "logprobs", false) || field(body, "top_logprobs"))
    throw Refusal("logprobs are not supported", "logprobs");
  if (boolean(body, "echo", false))
    throw Refusal("echo is not supported", "echo");
  if (integer(body, "n", 1, 1).value_or(1) != 1 || integer(body, "best_of", 1, 1).value_or(1) != 1)
    throw Refusal("n must be 1", "n");
  if (const json *f = field(body, "response_format"))
    if (!f->is_object() || f->value("type", json()) != "text")
      throw Refusal("response_format: only {\"type\": \"text\"} is supported", "response_format");
}

void readSampling(const json &body, const ApiLimits &limits, ApiRequest &r) {
  SamplingOptions &s = r.sampling;
  s.temperature = number(body, "temperature", 0, 2, 1);
  s.topP = number(body, "top_p", std::numeric_limits<double>::min(), 1, 1);
  const int64_t topK = integer(body, "top_k", -1, std::numeric_limits<int>::max()).value_or(0);
  s.topK = topK < 0 ? 0 : int(topK);
  s.minP = number(body, "min_p", 0, 1, 0);
  s.presencePenalty = number(body, "presence_penalty", -2, 2, 0);
  s.frequencyPenalty = number(body, "frequency_penalty", -2, 2, 0);
  s.repetitionPenalty = number(body, "repetition_penalty", 0.01, 100, 1);
  if (auto seed = integer(body, "seed", std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max())) {
    s.seed = uint64_t(*seed);
    r.seeded = true;
  }
  std::optional<int64_t> max = integer(body, "max_completion_tokens", 1, limits.maxTokens);
  if (!max)
    max = integer(body, "max_tokens", 1, limits.maxTokens);
  if (max)
    r.maxTokens = int(*max);
}

void readBody(ApiEndpoint endpoint, const json &body, const ApiLimits &limits, ApiRequest &r) {
  if (!body.is_object())
    throw Refusal("the request body must be a JSON object, got " + shown(body), "");
  r.endpoint = endpoint;
  if (const json *m = field(body, "model")) {
    if (!m->is_string())
      throw Refusal("model must be a string, got " + shown(*m), "model");
    r.model = m->get<std::string>();
  }
  if (endpoint == ApiEndpoint::ChatCompletions)
    readMessages(body, limits, r);
  else
    readPrompt(body, r);
  refuseUnsupported(body);
  readSampling(body, limits, r);
  readStop(body, limits, r);
  r.stream = boolean(body, "stream", false);
  if (const json *o = field(body, "stream_options")) {
    if (!o->is_object())
      throw Refusal("stream_options must be an object, got " + shown(*o), "stream_options");
    r.includeUsage = boolean(*o, "include_usage", false);
  }
}

} // namespace

bool readApiRequest(ApiEndpoint endpoint, const std::string &body, const ApiLimits &limits,
                    ApiRequest &request, ApiError &error) {
  json parsed;
  try {
    parsed = json::parse(body);
  } catch (const json::exception &e) { // a syntax error, or a number past a double's range
    error = {400, std::string("the request body is not valid JSON: ") + e.what(),
             "invalid_request_error", "", ""};
    return false;
  }
  request = ApiRequest();
  try {
    readBody(endpoint, parsed, limits, request);
  } catch (const Refusal &r) {
    error = {400, r.what(), "invalid_request_error", r.param, ""};
    return false;
  }
  return true;
}

} // namespace rngd::qwen3
