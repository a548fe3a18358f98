// What rngd-qwen3 prints about a prompt and its progress: long prompts are summarised (their
// first and last ids, their count) rather than echoed whole, and a long prompt's decode reports
// tokens done and the rate.
#pragma once

#include <string>
#include <vector>

namespace rngd::qwen3 {

/// "a,b,c" for at most head + tail ids; longer lists become the first `head` ids, "...", the
/// last `tail` ids and the count: "151644,872,...,151668,271 (530 tokens)".
std::string summarizeIds(const std::vector<int> &ids, size_t head = 8, size_t tail = 8);

/// `text` when it has at most head + tail bytes; else its first ~head bytes, " ... ", its last
/// ~tail bytes and the length ("... (2,417 bytes)"). Cuts fall on UTF-8 character boundaries
/// (moved inwards), so valid UTF-8 stays valid.
std::string summarizeText(const std::string &text, size_t head = 120, size_t tail = 60);

/// The progress line of the prompt's steps: "prompt: 64/530 tokens, 1.85 tokens/s, ~4.2 min
/// left" (seconds = wall time since the first step; no rate or estimate before one second of
/// data or when done is 0). Once done == total: "prompt: 530/530 tokens in 286.4 s (1.85
/// tokens/s)".
std::string progressLine(int done, int total, double seconds);

/// 1234567 -> "1,234,567".
std::string groupThousands(long long value);

} // namespace rngd::qwen3
