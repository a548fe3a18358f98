#include "qwen3/host/TextStream.h"

#include <algorithm>

namespace rngd::qwen3 {

TextStream::TextStream(const Tokenizer &tokenizer, std::vector<std::string> stops)
    : tokenizer_(tokenizer), stops_(std::move(stops)) {
  stops_.erase(std::remove(stops_.begin(), stops_.end(), std::string()), stops_.end());
}

std::string TextStream::emitTo(size_t end) {
  std::string out = text_.substr(shown_, end - shown_);
  shown_ = end;
  return out;
}

std::string TextStream::push(int id) {
  if (stopped_)
    return "";
  ++tokens_;
  std::string bytes, err;
  if (!tokenizer_.decode({id}, bytes, err))
    bytes = "\xEF\xBF\xBD"; // an id without text shows as U+FFFD
  text_ += utf8_.push(bytes);
  // The earliest stop string. None starts in the text shown: what ends the shown text and
  // starts a stop string is always held back.
  size_t first = std::string::npos;
  for (const std::string &s : stops_)
    first = std::min(first, text_.find(s, shown_));
  if (first != std::string::npos) {
    stopped_ = true;
    text_.resize(first);
    return emitTo(first);
  }
  // Hold back the longest end of the text that starts a stop string.
  size_t hold = 0;
  for (const std::string &s : stops_)
    for (size_t k = std::min(s.size() - 1, text_.size() - shown_); k > hold; --k)
      if (text_.compare(text_.size() - k, k, s, 0, k) == 0) {
        hold = k;
        break;
      }
  return emitTo(text_.size() - hold);
}

std::string TextStream::finish() {
  if (!stopped_)
    text_ += utf8_.finish();
  return emitTo(text_.size());
}

} // namespace rngd::qwen3
