// Streaming text output: generated tokens arrive one at a time as raw bytes (a byte-level BPE
// token can end inside a multi-byte UTF-8 character), and the terminal should see each
// character once, when it is complete, never a broken half.
#pragma once

#include <string>

namespace rngd::qwen3 {

class Utf8Stream {
public:
  /// Appends bytes and returns the text that is now complete: every complete well-formed
  /// sequence as it is, every malformed stretch as U+FFFD. A sequence that the next bytes may
  /// still complete is held back. The output is always valid UTF-8.
  std::string push(const std::string &bytes);
  /// End of the stream: a held-back incomplete sequence becomes one U+FFFD.
  std::string finish();
  /// Bytes held back (at most 3).
  size_t pending() const { return pending_.size(); }

private:
  std::string pending_;
};

/// The whole-string form of Utf8Stream (push everything, then finish): `bytes` with each
/// maximal malformed subpart replaced by U+FFFD, as Rust's String::from_utf8_lossy and
/// Python's errors="replace" do.
std::string utf8Lossy(const std::string &bytes);

} // namespace rngd::qwen3
