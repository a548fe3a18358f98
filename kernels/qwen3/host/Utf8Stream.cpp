#include "qwen3/host/Utf8Stream.h"

#include "qwen3/host/Utf8.h"

#include <cstdint>

namespace rngd::qwen3 {

namespace {

const char kReplacement[] = "\xEF\xBF\xBD"; // U+FFFD

// The length of the maximal subpart at i (Unicode's "U+FFFD substitution of maximal
// subparts"): the longest run of bytes that starts a well-formed sequence without completing
// one, or 1 for a byte that cannot start one. A prefix that completeUtf8Prefix leaves out whole
// is such a truncated start.
size_t maximalSubpart(const std::string &s, size_t i) {
  size_t best = 1;
  for (size_t k = 2; k <= 3 && i + k <= s.size(); ++k)
    if (completeUtf8Prefix(s.substr(i, k)) == 0)
      best = k;
  return best;
}

// Text of s[0, end) with malformed stretches replaced; end lies on a sequence boundary.
std::string replaceMalformed(const std::string &s, size_t end) {
  std::string out;
  out.reserve(end);
  size_t i = 0;
  while (i < end) {
    size_t start = i;
    uint32_t cp;
    if (nextCodepoint(s, i, cp) && i <= end) {
      out.append(s, start, i - start);
      continue;
    }
    i = start + maximalSubpart(s, start);
    out += kReplacement;
  }
  return out;
}

} // namespace

std::string Utf8Stream::push(const std::string &bytes) {
  pending_ += bytes;
  // completeUtf8Prefix stops only before a truncated but so far well-formed sequence at the end.
  size_t complete = completeUtf8Prefix(pending_);
  std::string out = replaceMalformed(pending_, complete);
  pending_.erase(0, complete);
  return out;
}

std::string Utf8Stream::finish() {
  std::string out = pending_.empty() ? "" : kReplacement;
  pending_.clear();
  return out;
}

std::string utf8Lossy(const std::string &bytes) {
  Utf8Stream s;
  std::string out = s.push(bytes);
  return out + s.finish();
}

} // namespace rngd::qwen3
