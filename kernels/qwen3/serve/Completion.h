// One /v1/chat/completions or /v1/completions request, from its body to its response: read and
// check it (ApiRequest), render and encode the prompt, submit it to the engine, then answer
// once it ends, or stream server-sent events as its text comes. A client that hangs up is
// cancelled, which returns its KV chunks to the pool.
#pragma once

#include "qwen3/host/ApiRequest.h"
#include "qwen3/serve/Server.h"

#include <httplib.h>

namespace rngd::qwen3::serve {

/// The OpenAI error object as the response (status, JSON body).
void sendError(httplib::Response &res, const ApiError &error);

void handleCompletion(const httplib::Request &req, httplib::Response &res, ApiEndpoint endpoint,
                      Engine &engine, const ModelText &text, const ServerOptions &options);

} // namespace rngd::qwen3::serve
