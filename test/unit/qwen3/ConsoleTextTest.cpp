// What rngd-qwen3 prints about long prompts: ids and text summarised, the progress line.
#include "qwen3/host/ConsoleText.h"
#include "qwen3/host/Utf8.h"

#include <catch2/catch.hpp>

using namespace rngd::qwen3;

TEST_CASE("console text: short id lists are printed whole, long ones summarised",
          "[qwen3][console]") {
  CHECK(summarizeIds({}) == "");
  CHECK(summarizeIds({151644, 872, 198}) == "151644,872,198");
  std::vector<int> sixteen(16);
  for (int i = 0; i < 16; ++i)
    sixteen[i] = i;
  CHECK(summarizeIds(sixteen) == "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15");
  std::vector<int> many(530);
  for (int i = 0; i < 530; ++i)
    many[i] = 1000 + i;
  CHECK(summarizeIds(many) ==
        "1000,1001,1002,1003,1004,1005,1006,1007,...,1522,1523,1524,1525,1526,1527,1528,1529 "
        "(530 tokens)");
  CHECK(summarizeIds(many, 2, 1) == "1000,1001,...,1529 (530 tokens)");
}

TEST_CASE("console text: long text keeps its ends, cut on character boundaries",
          "[qwen3][console]") {
  CHECK(summarizeText("short", 3, 2) == "short");
  CHECK(summarizeText("abcdefghij", 3, 2) == "abc ... ij (10 bytes)");
  // "é" is 2 bytes, "中" 3: a cut inside one moves inwards to the character's start / end.
  std::string t = "a\xC3\xA9" "bcdefgh\xE4\xB8\xADz"; // a é b c d e f g h 中 z (14 bytes)
  CHECK(summarizeText(t, 2, 3) == "a ... z (14 bytes)");
  CHECK(summarizeText(t, 3, 4) == "a\xC3\xA9 ... \xE4\xB8\xADz (14 bytes)");
  std::string longText(5000, 'x');
  std::string s = summarizeText(longText);
  CHECK(s == std::string(120, 'x') + " ... " + std::string(60, 'x') + " (5,000 bytes)");
  CHECK(firstInvalidUtf8(summarizeText(t, 2, 3)) == std::string::npos);
}

TEST_CASE("console text: progress line", "[qwen3][console]") {
  CHECK(progressLine(0, 530, 0.0) == "prompt: 0/530 tokens");
  CHECK(progressLine(1, 530, 0.5) == "prompt: 1/530 tokens"); // under a second: no rate yet
  CHECK(progressLine(64, 530, 32.0) == "prompt: 64/530 tokens, 2.00 tokens/s, ~3.9 min left");
  CHECK(progressLine(500, 530, 250.0) == "prompt: 500/530 tokens, 2.00 tokens/s, ~15 s left");
  CHECK(progressLine(530, 530, 265.0) == "prompt: 530/530 tokens in 265.0 s (2.00 tokens/s)");
  CHECK(progressLine(9, 9, 0.25) == "prompt: 9/9 tokens in 0.2 s (36.00 tokens/s)");
  CHECK(progressLine(1000, 20000, 100.0) ==
        "prompt: 1,000/20,000 tokens, 10.00 tokens/s, ~31.7 min left");
  CHECK(progressLine(100, 100001, 100.0) ==
        "prompt: 100/100,001 tokens, 1.00 tokens/s, ~27.8 h left");
  CHECK(groupThousands(0) == "0");
  CHECK(groupThousands(999) == "999");
  CHECK(groupThousands(1234567) == "1,234,567");
  CHECK(groupThousands(-4200) == "-4,200");
}
