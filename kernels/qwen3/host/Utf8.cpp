#include "qwen3/host/Utf8.h"

namespace rngd::qwen3 {

namespace {

// Number of continuation bytes a lead byte announces, or -1 for a byte that cannot start one.
int continuationBytes(unsigned char c) {
  if (c < 0x80)
    return 0;
  if (c >= 0xC2 && c <= 0xDF)
    return 1;
  if (c >= 0xE0 && c <= 0xEF)
    return 2;
  if (c >= 0xF0 && c <= 0xF4)
    return 3;
  return -1;
}

// The allowed range of the second byte after lead byte c (RFC 3629's table), which excludes
// overlong forms, surrogates and code points past U+10FFFF.
void secondByteRange(unsigned char c, unsigned char &lo, unsigned char &hi) {
  lo = 0x80;
  hi = 0xBF;
  if (c == 0xE0)
    lo = 0xA0;
  else if (c == 0xED)
    hi = 0x9F;
  else if (c == 0xF0)
    lo = 0x90;
  else if (c == 0xF4)
    hi = 0x8F;
}

// 1: a complete sequence of `length` bytes at i; 0: valid so far but cut off by the end of s;
// -1: malformed.
int sequenceAt(const std::string &s, size_t i, size_t &length, uint32_t &cp) {
  unsigned char c = s[i];
  int extra = continuationBytes(c);
  if (extra < 0)
    return -1;
  cp = extra == 0 ? c : c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    if (i + k >= s.size())
      return 0;
    unsigned char cc = s[i + k], lo = 0x80, hi = 0xBF;
    if (k == 1)
      secondByteRange(c, lo, hi);
    if (cc < lo || cc > hi)
      return -1;
    cp = (cp << 6) | (cc & 0x3F);
  }
  length = size_t(extra) + 1;
  return 1;
}

} // namespace

bool nextCodepoint(const std::string &s, size_t &i, uint32_t &cp) {
  size_t length = 0;
  if (i >= s.size() || sequenceAt(s, i, length, cp) != 1)
    return false;
  i += length;
  return true;
}

size_t firstInvalidUtf8(const std::string &s) {
  size_t i = 0;
  uint32_t cp;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    if (!nextCodepoint(s, i, cp))
      return i;
  }
  return std::string::npos;
}

size_t completeUtf8Prefix(const std::string &s) {
  size_t i = 0, length = 0;
  uint32_t cp;
  while (i < s.size()) {
    int r = sequenceAt(s, i, length, cp);
    if (r == 0)
      return i;
    i += r == 1 ? length : 1; // a malformed byte is passed on as it is
  }
  return i;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

} // namespace rngd::qwen3
