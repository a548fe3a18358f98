// `rngd-qwen3 serve` (docs/serving.md): OpenAI's /v1/models, /v1/chat/completions and
// /v1/completions over HTTP (Debian's cpp-httplib), on an Engine that batches the requests it
// is given as they come. Every refusal is an OpenAI error object: 400 (a bad body or
// parameter), 401 (--api-key and a missing or wrong bearer token), 404 (an unknown model or
// path), 413 (a body over the limit), 429 (the queue is full), 503 (the engine failed).
#pragma once

#include "qwen3/host/Engine.h"
#include "qwen3/host/Tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace httplib {
class Server;
}

namespace rngd::qwen3::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8000;          // 0: any free port (Server::port() tells which)
  std::string apiKey;       // "": no authentication
  std::string modelName;    // the id /v1/models lists and requests must name
  size_t maxBodyBytes = 1 << 20;
  int defaultMaxTokens = 256; // a request without max_tokens generates at most this many
  int maxPositions = 0;       // a request's prompt + max_tokens - 1 (the KV pool's share)
  int threads = 16;           // HTTP worker threads
  bool log = true;            // a stderr line per request
};

/// What a request needs besides its body: the tokenizer, the model's end ids.
struct ModelText {
  const Tokenizer *tokenizer = nullptr;
  std::vector<int> endIds;
};

class Server {
public:
  Server(Engine &engine, ModelText text, ServerOptions options);
  ~Server();
  /// Binds host:port; false with `error` (the address and the system's reason).
  bool bind(std::string &error);
  int port() const { return port_; }
  /// Serves until stop() (from another thread or a signal watcher).
  void run();
  void stop();

private:
  void routes();
  Engine &engine_;
  ModelText text_;
  ServerOptions options_;
  std::unique_ptr<httplib::Server> http_;
  int port_ = 0;
};

} // namespace rngd::qwen3::serve
