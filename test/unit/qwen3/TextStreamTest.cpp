// TextStream: generated tokens as text shown as it comes, with stop strings: the text ends
// before the first stop string, and text that may still start one is held back until it cannot.
#include "Helpers.h"

#include "qwen3/host/TextStream.h"

using namespace rngd::qwen3;

namespace {

// Byte-level tokens: "Ã" and "©" are the bytes C3 and A9 ("é" split across two tokens).
const char *kTokenizerJson = R"({
  "version": "1.0",
  "decoder": {"type": "ByteLevel"},
  "model": {"type": "BPE",
            "vocab": {"He": 0, "llo": 1, "Ġwor": 2, "ld": 3, "!": 4, "Ã": 5, "©": 6, "EN": 7,
                      "D": 8, "E": 9}}
})";

Tokenizer load() { return test::tokenizerFrom(kTokenizerJson); }

} // namespace

TEST_CASE("text stream: without stop strings, text as soon as its characters are whole",
          "[qwen3][textstream]") {
  Tokenizer t = load();
  TextStream s(t);
  CHECK(s.push(0) == "He");
  CHECK(s.push(5) == ""); // the first byte of "é"
  CHECK(s.push(6) == "\xC3\xA9");
  CHECK(s.push(5) == "");
  CHECK(s.finish() == "\xEF\xBF\xBD"); // an unfinished character ends as U+FFFD
  CHECK(s.text() == "He\xC3\xA9\xEF\xBF\xBD");
  CHECK_FALSE(s.stopped());
}

TEST_CASE("text stream: a stop string across tokens ends the text before it",
          "[qwen3][textstream]") {
  Tokenizer t = load();
  TextStream s(t, {"world!", "END"});
  CHECK(s.push(0) == "He");
  CHECK(s.push(1) == "llo");
  CHECK(s.push(2) == " "); // " wor" may start "world!": "wor" waits
  CHECK(s.push(3) == "");  // "world" still may
  CHECK(s.push(4) == "");  // "world!": stop, nothing of it shown
  CHECK(s.stopped());
  CHECK(s.text() == "Hello ");
  CHECK(s.tokens() == 5);
  CHECK(s.push(0) == ""); // nothing after the stop
  CHECK(s.tokens() == 5);
  CHECK(s.finish() == "");
}

TEST_CASE("text stream: held-back text that turns out not to stop is shown",
          "[qwen3][textstream]") {
  Tokenizer t = load();
  TextStream s(t, {"END"});
  CHECK(s.push(9) == "");   // "E" may start "END"
  CHECK(s.push(9) == "E");  // "EE": the first E cannot, the second may
  CHECK(s.push(4) == "E!"); // "E!" cannot
  CHECK(s.push(9) == "");
  CHECK(s.finish() == "E"); // the end: held-back text that never stopped
  CHECK(s.text() == "EE!E");
  TextStream u(t, {"END"});
  CHECK(u.push(7) == "");
  CHECK(u.push(8) == ""); // "END" from two tokens
  CHECK(u.stopped());
  CHECK(u.text().empty());
  TextStream v(t, {""}); // an empty stop string is none
  CHECK(v.push(0) == "He");
}
