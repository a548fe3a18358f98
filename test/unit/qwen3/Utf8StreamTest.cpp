// Utf8Stream: the generated text printed token by token, a character once all its bytes have
// arrived, malformed bytes as U+FFFD (one per maximal subpart, as Rust's from_utf8_lossy).
#include "qwen3/host/Utf8.h"
#include "qwen3/host/Utf8Stream.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rngd::qwen3;

namespace {
const std::string kFFFD = "\xEF\xBF\xBD";
}

TEST_CASE("utf8 stream: a character split across tokens is printed once complete",
          "[qwen3][utf8stream]") {
  Utf8Stream s;
  // "é" = C3 A9 in two tokens.
  CHECK(s.push("caf\xC3") == "caf");
  CHECK(s.pending() == 1);
  CHECK(s.push("\xA9!") == "\xC3\xA9!");
  CHECK(s.pending() == 0);
  // U+1F306 (city at dusk) = F0 9F 8C 86 in three pieces, the way byte-level tokens split it.
  CHECK(s.push("\xF0") == "");
  CHECK(s.push("\x9F\x8C") == "");
  CHECK(s.pending() == 3);
  CHECK(s.push("\x86 ok") == "\xF0\x9F\x8C\x86 ok");
  CHECK(s.finish() == "");
}

TEST_CASE("utf8 stream: malformed bytes become U+FFFD, the output stays valid",
          "[qwen3][utf8stream]") {
  Utf8Stream s;
  // A lead byte followed by a byte that cannot continue it: one U+FFFD, then the byte itself.
  CHECK(s.push("a\xC3") == "a");
  CHECK(s.push("b") == kFFFD + "b");
  // E2 82 is a truncated start of a 3-byte sequence: one U+FFFD for both bytes.
  CHECK(s.push("\xE2\x82" "A") == kFFFD + "A");
  // F0 80: 80 is not a valid second byte after F0 (overlong), so F0 alone, then 80 alone.
  CHECK(s.push("\xF0\x80") == kFFFD + kFFFD);
  // A stray continuation byte and a byte that never occurs in UTF-8.
  CHECK(s.push("\x80\xFF") == kFFFD + kFFFD);
  // Surrogates (ED A0 80) are not UTF-8: ED alone, then two stray continuation bytes.
  CHECK(s.push("\xED\xA0\x80") == kFFFD + kFFFD + kFFFD);
  // A sequence cut off by the end of the stream.
  CHECK(s.push("\xF0\x9F") == "");
  CHECK(s.finish() == kFFFD);
  CHECK(s.pending() == 0);
  CHECK(s.finish() == "");
}

TEST_CASE("utf8 stream: any split gives the same text as the whole, always valid",
          "[qwen3][utf8stream]") {
  const std::string text = "Hi \xED\x95\x9C\xEA\xB8\x80 \xE4\xB8\xAD \xF0\x9F\x8C\x86 e\xCC\x81"
                           "\xC3(\xE2\x82\xF0\x9F\x8C";
  const std::string whole = utf8Lossy(text);
  CHECK(whole == "Hi \xED\x95\x9C\xEA\xB8\x80 \xE4\xB8\xAD \xF0\x9F\x8C\x86 e\xCC\x81" + kFFFD +
                     "(" + kFFFD + kFFFD);
  CHECK(firstInvalidUtf8(whole) == std::string::npos);
  // Every cut into three pieces (the token boundaries) gives the same output.
  for (size_t a = 0; a <= text.size(); ++a)
    for (size_t b = a; b <= text.size(); ++b) {
      Utf8Stream s;
      std::string out = s.push(text.substr(0, a));
      CHECK(firstInvalidUtf8(out) == std::string::npos);
      out += s.push(text.substr(a, b - a));
      out += s.push(text.substr(b));
      out += s.finish();
      if (out != whole) {
        INFO("cut at " << a << ", " << b);
        CHECK(out == whole);
      }
    }
}
