// Generated tokens as text, as they arrive: each character once it is complete (Utf8Stream),
// and, with stop strings, the text up to the first stop string (which is not part of it).
// Text that may still turn out to start a stop string is held back until it does not.
#pragma once

#include "qwen3/host/Tokenizer.h"
#include "qwen3/host/Utf8Stream.h"

#include <string>
#include <vector>

namespace rngd::qwen3 {

class TextStream {
public:
  TextStream(const Tokenizer &tokenizer, std::vector<std::string> stops = {});
  /// The token's text that can now be shown ("" while held back); nothing once stopped.
  std::string push(int id);
  /// The end: what was held back (none of it a stop string).
  std::string finish();
  /// A stop string appeared: the text ends before it.
  bool stopped() const { return stopped_; }
  /// The text so far (shown and held back).
  const std::string &text() const { return text_; }
  /// Tokens pushed, up to and including the one that completed a stop string.
  int tokens() const { return tokens_; }

private:
  /// Emits text_ from shown_ up to `end`.
  std::string emitTo(size_t end);
  const Tokenizer &tokenizer_;
  std::vector<std::string> stops_;
  Utf8Stream utf8_;
  std::string text_;
  size_t shown_ = 0;
  bool stopped_ = false;
  int tokens_ = 0;
};

} // namespace rngd::qwen3
