#include "qwen3/host/ConsoleText.h"

#include <cstdio>

namespace rngd::qwen3 {

namespace {

std::string join(const std::vector<int> &ids, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i)
    s += (i > from ? "," : "") + std::to_string(ids[i]);
  return s;
}

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

std::string format(const char *fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "37 s", "4.2 min", "1.5 h".
std::string duration(double seconds) {
  if (seconds < 90)
    return format("%.0f s", seconds);
  if (seconds < 90 * 60)
    return format("%.1f min", seconds / 60);
  return format("%.1f h", seconds / 3600);
}

} // namespace

std::string groupThousands(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string summarizeIds(const std::vector<int> &ids, size_t head, size_t tail) {
  if (ids.size() <= head + tail)
    return join(ids, 0, ids.size());
  return join(ids, 0, head) + ",...," + join(ids, ids.size() - tail, ids.size()) + " (" +
         groupThousands((long long)ids.size()) + " tokens)";
}

std::string summarizeText(const std::string &text, size_t head, size_t tail) {
  if (text.size() <= head + tail)
    return text;
  size_t a = head, b = text.size() - tail;
  while (a > 0 && isContinuation(text[a]))
    --a;
  while (b < text.size() && isContinuation(text[b]))
    ++b;
  return text.substr(0, a) + " ... " + text.substr(b) + " (" +
         groupThousands((long long)text.size()) + " bytes)";
}

std::string progressLine(int done, int total, double seconds) {
  std::string s = "prompt: " + groupThousands(done) + "/" + groupThousands(total) + " tokens";
  if (done >= total && done > 0 && seconds > 0)
    return s + " in " + format("%.1f s", seconds) + " (" + format("%.2f", done / seconds) +
           " tokens/s)";
  if (done <= 0 || seconds < 1.0)
    return s;
  double rate = done / seconds;
  return s + ", " + format("%.2f", rate) + " tokens/s, ~" + duration((total - done) / rate) +
         " left";
}

} // namespace rngd::qwen3
