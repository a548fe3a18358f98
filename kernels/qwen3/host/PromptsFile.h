// `rngd-qwen3 --prompts FILE.jsonl`: one request per line, as JSON:
//   {"prompt": "text"} or {"token_ids": [1, 2, 3]}
//   optional: "max_new_tokens" (>= 1), "temperature" (>= 0), "top_k" (>= 0), "top_p" (0, 1],
//   "seed" (>= 0)
// Blank lines are skipped. Fields not given take the command line's values. Any other key,
// a wrong type or a value out of range is an error naming FILE:LINE and the field.
#pragma once

#include "qwen3/host/BatchScheduler.h"
#include "qwen3/host/Tokenizer.h"

#include <functional>
#include <string>
#include <vector>

namespace rngd::qwen3 {

/// Turns a "prompt" text into token ids (the tool applies its chat template); false with an
/// error message when it cannot.
using PromptEncoder =
    std::function<bool(const std::string &text, std::vector<int> &ids, std::string &error)>;

/// Parses `text` (the file's bytes, `name` for messages). `defaults` gives every field a line
/// leaves out (its prompt is ignored); `vocab` bounds token ids. False with `error` at the
/// first bad line.
bool parsePromptsFile(const std::string &text, const std::string &name,
                      const BatchRequest &defaults, int vocab, const PromptEncoder &encode,
                      std::vector<BatchRequest> &out, std::string &error);

} // namespace rngd::qwen3
