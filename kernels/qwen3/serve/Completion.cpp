#include "qwen3/serve/Completion.h"

#include "qwen3/host/TextStream.h"
#include "qwen3/serve/Connection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <memory>
#include <mutex>
#include <random>

namespace rngd::qwen3::serve {

namespace {

using nlohmann::json;
constexpr auto kPoll = std::chrono::milliseconds(100); // how often a waiting handler looks
                                                       // for a hung-up client

/// What the engine thread hands the HTTP thread of one request.
struct Channel {
  std::mutex mutex;
  std::condition_variable changed;
  std::string text;       // text not yet sent
  bool finished = false;  // the request ended (result is set)
  BatchResult result;
  bool stopString = false; // it ended at a stop string
  std::atomic<bool> hungUp{false};
};

/// One request in flight: its parameters, its channel, its handle.
struct Call {
  ApiRequest request;
  std::vector<int> prompt;
  std::shared_ptr<Channel> channel = std::make_shared<Channel>();
  Engine::Handle handle = 0;
  std::string id;
  std::time_t created = std::time(nullptr);
};

std::string requestId(ApiEndpoint endpoint) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t salt = std::random_device{}();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s-%08llx%08llx",
                endpoint == ApiEndpoint::ChatCompletions ? "chatcmpl" : "cmpl",
                (unsigned long long)(salt & 0xffffffffu), (unsigned long long)(counter++));
  return buf;
}

/// The prompt's token ids: the chat template's text, or the completion's text or ids.
bool encodePrompt(const ApiRequest &r, const ModelText &text, std::vector<int> &ids,
                  ApiError &error) {
  if (r.promptIsIds) {
    ids = r.promptIds;
    for (size_t i = 0; i < ids.size(); ++i)
      if (!text.tokenizer->has(ids[i])) {
        error = {400, "prompt[" + std::to_string(i) + "] is " + std::to_string(ids[i]) +
                          ", not a token id of the model's tokenizer",
                 "invalid_request_error", "prompt", ""};
        return false;
      }
    return true;
  }
  const std::string prompt = r.endpoint == ApiEndpoint::ChatCompletions
                                 ? applyChatTemplate(r.messages, true, r.think)
                                 : r.prompt;
  std::string why;
  if (!text.tokenizer->encode(prompt, ids, why)) {
    error = {400, "the prompt cannot be encoded: " + why, "invalid_request_error",
             r.endpoint == ApiEndpoint::ChatCompletions ? "messages" : "prompt", ""};
    return false;
  }
  if (ids.empty()) {
    error = {400, "the prompt encodes to no tokens", "invalid_request_error", "prompt", ""};
    return false;
  }
  return true;
}

/// The batch request of a call, or a 400 when it cannot fit a sequence's share of the pool.
bool batchRequest(const Call &c, const ModelText &text, const ServerOptions &o,
                  BatchRequest &out, ApiError &error) {
  const int prompt = int(c.prompt.size());
  const int room = o.maxPositions - prompt + 1; // tokens that still fit after the prompt
  const int wanted = c.request.maxTokens.value_or(std::min(o.defaultMaxTokens, room));
  if (room < 1 || wanted > room) {
    error = {400, "this server holds " + std::to_string(o.maxPositions + 1) +
                      " tokens a request; the prompt has " + std::to_string(prompt) +
                      (c.request.maxTokens ? " and max_tokens is " + std::to_string(wanted)
                                           : std::string()),
             "invalid_request_error", c.request.maxTokens ? "max_tokens" : "messages",
             "context_length_exceeded"};
    return false;
  }
  out.prompt = c.prompt;
  out.maxNewTokens = wanted;
  out.sampling = c.request.sampling;
  if (!c.request.seeded)
    out.sampling.seed = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  out.stopIds = text.endIds;
  return true;
}

/// The listeners that feed the call's channel (they run on the engine thread).
Engine::Listener listener(const Call &c, const ModelText &text) {
  auto stream = std::make_shared<TextStream>(*text.tokenizer, c.request.stop);
  std::shared_ptr<Channel> ch = c.channel;
  const std::vector<int> ends = text.endIds;
  Engine::Listener l;
  l.token = [ch, stream, ends](BatchScheduler::Id, int token) {
    if (std::count(ends.begin(), ends.end(), token))
      return true; // the end id has no text
    std::string piece = stream->push(token);
    {
      std::lock_guard<std::mutex> lock(ch->mutex);
      ch->text += piece;
      ch->stopString = stream->stopped();
    }
    ch->changed.notify_all();
    return !stream->stopped() && !ch->hungUp;
  };
  l.finish = [ch, stream](BatchScheduler::Id, const BatchResult &r) {
    {
      std::lock_guard<std::mutex> lock(ch->mutex);
      ch->text += stream->finish();
      ch->result = r;
      ch->finished = true;
    }
    ch->changed.notify_all();
  };
  return l;
}

const char *finishReason(const Channel &ch) {
  if (ch.stopString || ch.result.reason == StopReason::EndId)
    return "stop";
  return "length";
}

json usage(const Call &c) {
  const int prompt = int(c.prompt.size()), completion = int(c.channel->result.generated.size());
  return {{"prompt_tokens", prompt},
          {"completion_tokens", completion},
          {"total_tokens", prompt + completion}};
}

json choice(const Call &c, const std::string &text, const char *reason, bool chunk) {
  json j = {{"index", 0}, {"logprobs", nullptr}, {"finish_reason", reason ? json(reason) : json()}};
  if (c.request.endpoint == ApiEndpoint::Completions)
    j["text"] = text;
  else if (chunk)
    j["delta"] = reason ? json::object() : json({{"content", text}});
  else
    j["message"] = {{"role", "assistant"}, {"content", text}};
  return j;
}

json envelope(const Call &c, const std::string &options, bool chunk, const json &choices) {
  const bool chat = c.request.endpoint == ApiEndpoint::ChatCompletions;
  return {{"id", c.id},
          {"object", chat ? (chunk ? "chat.completion.chunk" : "chat.completion")
                          : "text_completion"},
          {"created", c.created},
          {"model", options},
          {"choices", choices}};
}

/// Waits until the channel has news or `kPoll` passed; true when the client hung up.
bool waitOrHangUp(Channel &ch, std::unique_lock<std::mutex> &lock, const Connection &conn) {
  ch.changed.wait_for(lock, kPoll, [&] { return ch.finished || !ch.text.empty(); });
  if (!ch.finished && ch.text.empty() && conn.closed()) {
    ch.hungUp = true;
    return true;
  }
  return false;
}

void answer(Call &c, httplib::Response &res, Engine &engine, const Connection &conn,
            const ServerOptions &o) {
  Channel &ch = *c.channel;
  std::string text;
  std::unique_lock<std::mutex> lock(ch.mutex);
  while (!ch.finished) {
    text += ch.text;
    ch.text.clear();
    if (waitOrHangUp(ch, lock, conn)) {
      engine.cancel(c.handle);
      res.status = 499; // nobody reads it
      return;
    }
  }
  text += ch.text;
  if (ch.result.reason == StopReason::Refused || ch.result.reason == StopReason::Cancelled) {
    sendError(res, {ch.result.reason == StopReason::Refused ? 400 : 503,
                    ch.result.error.empty() ? "the request was cancelled" : ch.result.error,
                    "invalid_request_error", "", ""});
    return;
  }
  json body = envelope(c, o.modelName, false, json::array({choice(c, text, finishReason(ch), false)}));
  body["usage"] = usage(c);
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

std::string event(const json &j) {
  return "data: " + j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

/// Streams the call's text as server-sent events in OpenAI's chunk format.
void stream(std::shared_ptr<Call> c, httplib::Response &res, Engine &engine,
            std::shared_ptr<Connection> conn, const ServerOptions &o) {
  res.set_header("Cache-Control", "no-cache");
  const std::string model = o.modelName;
  auto first = std::make_shared<bool>(true);
  res.set_chunked_content_provider(
      "text/event-stream",
      [c, conn, first, model, &engine](size_t, httplib::DataSink &sink) {
        Channel &ch = *c->channel;
        std::string out;
        if (*first && c->request.endpoint == ApiEndpoint::ChatCompletions) {
          json role = choice(*c, "", nullptr, true);
          role["delta"] = {{"role", "assistant"}, {"content", ""}};
          out += event(envelope(*c, model, true, json::array({role})));
        }
        *first = false;
        std::unique_lock<std::mutex> lock(ch.mutex);
        if (ch.text.empty() && !ch.finished && waitOrHangUp(ch, lock, *conn)) {
          engine.cancel(c->handle);
          return false;
        }
        if (!ch.text.empty())
          out += event(envelope(*c, model, true, json::array({choice(*c, ch.text, nullptr, true)})));
        ch.text.clear();
        const bool finished = ch.finished;
        const StopReason reason = ch.result.reason;
        if (finished && (reason == StopReason::Refused || reason == StopReason::Cancelled)) {
          // Ended without an answer (the server is stopping): OpenAI's error event.
          out += event({{"error", {{"message", ch.result.error.empty() ? "the request was "
                                                 "cancelled" : ch.result.error},
                                   {"type", "server_error"}, {"param", nullptr},
                                   {"code", nullptr}}}});
          out += "data: [DONE]\n\n";
        } else if (finished) {
          json last = envelope(*c, model, true, json::array({choice(*c, "", finishReason(ch), true)}));
          last["usage"] = usage(*c);
          out += event(last);
          if (c->request.includeUsage) {
            json u = envelope(*c, model, true, json::array());
            u["usage"] = usage(*c);
            out += event(u);
          }
          out += "data: [DONE]\n\n";
        }
        lock.unlock();
        if (!out.empty() && !sink.write(out.data(), out.size())) {
          engine.cancel(c->handle);
          return false;
        }
        if (finished)
          sink.done();
        return true;
      },
      [c, &engine](bool success) {
        if (!success)
          engine.cancel(c->handle); // the client is gone: its chunks return to the pool
      });
}

} // namespace

void sendError(httplib::Response &res, const ApiError &e) {
  res.status = e.status;
  json err = {{"message", e.message},
              {"type", e.type},
              {"param", e.param.empty() ? json() : json(e.param)},
              {"code", e.code.empty() ? json() : json(e.code)}};
  res.set_content(json({{"error", err}}).dump(-1, ' ', false, json::error_handler_t::replace),
                  "application/json");
}

void handleCompletion(const httplib::Request &req, httplib::Response &res, ApiEndpoint endpoint,
                      Engine &engine, const ModelText &text, const ServerOptions &options) {
  auto c = std::make_shared<Call>();
  ApiLimits limits;
  ApiError error;
  BatchRequest batch;
  if (!readApiRequest(endpoint, req.body, limits, c->request, error) ||
      !encodePrompt(c->request, text, c->prompt, error) ||
      !batchRequest(*c, text, options, batch, error))
    return sendError(res, error);
  if (!c->request.model.empty() && c->request.model != options.modelName)
    return sendError(res, {404, "the model '" + c->request.model + "' does not exist; this "
                                "server serves '" + options.modelName + "'",
                           "invalid_request_error", "model", "model_not_found"});
  c->id = requestId(endpoint);
  if (!engine.submit(std::move(batch), listener(*c, text), c->handle)) {
    const EngineStats s = engine.stats();
    if (!s.failure.empty())
      return sendError(res, {503, "the engine has stopped: " + s.failure, "server_error", "", ""});
    return sendError(res, {429, "the queue is full (" + std::to_string(s.waiting) +
                                    " requests wait for a place in the batch); try again later",
                           "rate_limit_exceeded", "", "rate_limit_exceeded"});
  }
  auto conn = std::make_shared<Connection>(req.remote_addr, req.remote_port, req.local_port);
  if (c->request.stream)
    stream(c, res, engine, conn, options);
  else
    answer(*c, res, engine, *conn, options);
}

} // namespace rngd::qwen3::serve
