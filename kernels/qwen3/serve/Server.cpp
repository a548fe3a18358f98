#include "qwen3/serve/Server.h"

#include "qwen3/serve/Completion.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>

namespace rngd::qwen3::serve {

namespace {

ApiError statusError(int status) {
  switch (status) {
  case 404:
    return {404, "not found", "invalid_request_error", "", "not_found"};
  case 413:
    return {413, "the request body is larger than the server accepts", "invalid_request_error",
            "", "payload_too_large"};
  case 405:
    return {405, "method not allowed", "invalid_request_error", "", ""};
  default:
    return {status, "the request could not be read (HTTP " + std::to_string(status) + ")",
            "invalid_request_error", "", ""};
  }
}

bool authorized(const httplib::Request &req, const std::string &key) {
  return req.get_header_value("Authorization") == "Bearer " + key;
}

} // namespace

Server::Server(Engine &engine, ModelText text, ServerOptions options)
    : engine_(engine), text_(std::move(text)), options_(std::move(options)),
      http_(std::make_unique<httplib::Server>()) {
  const size_t threads = size_t(options_.threads);
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(options_.maxBodyBytes);
  http_->set_keep_alive_timeout(2);
  routes();
}

Server::~Server() = default;

bool Server::bind(std::string &error) {
  if (options_.port == 0)
    port_ = http_->bind_to_any_port(options_.host);
  else if (http_->bind_to_port(options_.host, options_.port))
    port_ = options_.port;
  if (port_ <= 0) {
    error = "cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
            " (in use, or not an address of this machine)";
    return false;
  }
  return true;
}

void Server::run() { http_->listen_after_bind(); }

void Server::stop() { http_->stop(); }

void Server::routes() {
  httplib::Server &h = *http_;
  h.set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
    if (options_.apiKey.empty() || req.path.rfind("/v1/", 0) != 0 ||
        authorized(req, options_.apiKey))
      return httplib::Server::HandlerResponse::Unhandled;
    sendError(res, {401, "a missing or wrong API key: send the header 'Authorization: Bearer "
                         "KEY' with the server's --api-key",
                    "invalid_request_error", "", "invalid_api_key"});
    return httplib::Server::HandlerResponse::Handled;
  });
  h.set_error_handler([](const httplib::Request &, httplib::Response &res) {
    if (res.body.empty()) // not one of ours: a route or a limit of cpp-httplib
      sendError(res, statusError(res.status));
  });
  h.set_exception_handler([](const httplib::Request &, httplib::Response &res,
                             std::exception_ptr ep) {
    std::string what = "unknown";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception &e) {
      what = e.what();
    } catch (...) {
    }
    sendError(res, {500, "internal error: " + what, "server_error", "", ""});
  });
  if (options_.log)
    h.set_logger([](const httplib::Request &req, const httplib::Response &res) {
      std::fprintf(stderr, "rngd-qwen3 serve: %s %s %d\n", req.method.c_str(), req.path.c_str(),
                   res.status);
    });
  const std::time_t created = std::time(nullptr);
  h.Get("/v1/models", [this, created](const httplib::Request &, httplib::Response &res) {
    nlohmann::json model = {{"id", options_.modelName}, {"object", "model"},
                            {"created", created},       {"owned_by", "rngd"}};
    res.set_content(nlohmann::json({{"object", "list"}, {"data", nlohmann::json::array({model})}}).dump(),
                    "application/json");
  });
  h.Get("/health", [this](const httplib::Request &, httplib::Response &res) {
    const EngineStats s = engine_.stats();
    nlohmann::json j = {{"status", s.failure.empty() ? "ok" : "failed"},
                        {"running", s.running},
                        {"waiting", s.waiting},
                        {"requests", s.requests},
                        {"cancelled", s.cancelled},
                        {"decode_steps", s.decodeSteps},
                        {"kv_chunks", {{"pool", s.kvChunks},
                                       {"in_use", s.kvInUse},
                                       {"prefix_cache", s.kvPrefixCache}}}};
    if (!s.failure.empty())
      j["failure"] = s.failure;
    res.status = s.failure.empty() ? 200 : 503;
    res.set_content(j.dump(), "application/json");
  });
  h.Post("/v1/chat/completions", [this](const httplib::Request &req, httplib::Response &res) {
    handleCompletion(req, res, ApiEndpoint::ChatCompletions, engine_, text_, options_);
  });
  h.Post("/v1/completions", [this](const httplib::Request &req, httplib::Response &res) {
    handleCompletion(req, res, ApiEndpoint::Completions, engine_, text_, options_);
  });
}

} // namespace rngd::qwen3::serve
