// Strict UTF-8 reading and writing (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF), shared by the tokenizer's encoder and decoder and the streaming text output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rngd::qwen3 {

/// Reads the code point of s at byte offset i and advances i past it. False (i unchanged) when
/// the bytes at i are not a well-formed UTF-8 sequence.
bool nextCodepoint(const std::string &s, size_t &i, uint32_t &cp);

/// Byte offset of the first malformed sequence of s, or std::string::npos when s is valid.
size_t firstInvalidUtf8(const std::string &s);

/// Length of the longest prefix of s made of complete, well-formed sequences, given that more
/// bytes may follow: a truncated but so far valid sequence at the end is left out.
size_t completeUtf8Prefix(const std::string &s);

/// Appends the UTF-8 form of cp (cp <= 0x10FFFF, not a surrogate).
void appendUtf8(std::string &out, uint32_t cp);

} // namespace rngd::qwen3
