// Unicode NFC normalisation (canonical decomposition, then canonical composition) with
// utf8proc, Debian's libutf8proc: the `NFC` normalizer of a Hugging Face tokenizer.json.
#pragma once

#include <string>

namespace rngd::qwen3 {

/// NFC of s, which must be valid UTF-8 (checked by the caller). ASCII text is returned as is.
std::string nfc(const std::string &s);

/// The Unicode version of the normalisation tables (utf8proc's).
std::string nfcUnicodeVersion();

} // namespace rngd::qwen3
