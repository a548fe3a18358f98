#include "qwen3/host/ByteLevel.h"

#include "qwen3/host/Utf8.h"

#include <array>
#include <vector>

namespace rngd::qwen3 {

namespace {

bool printable(int b) { return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255); }

const std::array<int, 256> &byteTable() {
  static const std::array<int, 256> table = [] {
    std::array<int, 256> t{};
    int next = 256;
    for (int b = 0; b < 256; ++b)
      t[b] = printable(b) ? b : next++;
    return t;
  }();
  return table;
}

} // namespace

int byteToCodepoint(unsigned char byte) { return byteTable()[byte]; }

int codepointToByte(uint32_t cp) {
  static const std::vector<int> reverse = [] {
    std::vector<int> r(512, -1);
    for (int b = 0; b < 256; ++b)
      r[byteTable()[b]] = b;
    return r;
  }();
  return cp < reverse.size() ? reverse[cp] : -1;
}

const std::string &byteSymbol(unsigned char byte) {
  static const std::array<std::string, 256> symbols = [] {
    std::array<std::string, 256> s;
    for (int b = 0; b < 256; ++b)
      appendUtf8(s[b], uint32_t(byteTable()[b]));
    return s;
  }();
  return symbols[byte];
}

} // namespace rngd::qwen3
