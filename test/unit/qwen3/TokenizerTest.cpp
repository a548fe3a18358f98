// Byte-level BPE decoding from a hand-made tokenizer.json: the GPT-2 byte table, 'Ġ' and 'Ċ',
// multi-byte characters split across tokens, added/special tokens and errors.
#include "Helpers.h"

#include "qwen3/host/Tokenizer.h"

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;

namespace {

// Ã (U+00C3) and © (U+00A9) are the byte-level forms of the bytes 0xC3 0xA9, i.e. "é".
const char *kTokenizerJson = R"({
  "version": "1.0",
  "added_tokens": [
    {"id": 9, "content": "<|im_end|>", "special": true},
    {"id": 10, "content": "plain text", "special": false}
  ],
  "decoder": {"type": "ByteLevel"},
  "model": {
    "type": "BPE",
    "vocab": {"H": 0, "ello": 1, "Ġworld": 2, "!": 3, "Ċ": 4, "Ã©": 5, "Ã": 6, "©": 7, "Ġ": 8,
              "ĉ": 11, "Ā": 12}
  }
})";

Tokenizer load() { return test::tokenizerFrom(kTokenizerJson); }

std::string decode(const Tokenizer &t, std::vector<int> ids, bool skip = false) {
  std::string out, error;
  REQUIRE(t.decode(ids, out, error, skip));
  return out;
}

} // namespace

TEST_CASE("tokenizer: GPT-2 byte table", "[qwen3][tokenizer]") {
  CHECK(Tokenizer::byteToCodepoint('A') == 'A');
  CHECK(Tokenizer::byteToCodepoint('~') == '~');
  CHECK(Tokenizer::byteToCodepoint(0xA9) == 0xA9);
  CHECK(Tokenizer::byteToCodepoint(' ') == 0x120); // 'Ġ'
  CHECK(Tokenizer::byteToCodepoint('\n') == 0x10A); // 'Ċ'
  CHECK(Tokenizer::byteToCodepoint('\t') == 0x109); // 'ĉ'
  CHECK(Tokenizer::byteToCodepoint(0) == 0x100);    // 'Ā'
  CHECK(Tokenizer::byteToCodepoint(127) == 0x121);
  CHECK(Tokenizer::byteToCodepoint(0xAD) == 0x143);
}

TEST_CASE("tokenizer: byte-level decode", "[qwen3][tokenizer]") {
  Tokenizer t = load();
  CHECK(t.size() == 13);
  CHECK(decode(t, {0, 1, 2, 3, 4}) == "Hello world!\n");
  CHECK(decode(t, {8, 8, 0}) == "  H");
  CHECK(decode(t, {5}) == "\xC3\xA9"); // é
  // A character split over two tokens: each token alone is one raw byte, together é.
  CHECK(decode(t, {6}) == "\xC3");
  CHECK(decode(t, {6}) + decode(t, {7}) == decode(t, {6, 7}));
  CHECK(decode(t, {6, 7}) == "\xC3\xA9");
  CHECK(decode(t, {11, 12}) == std::string("\t\0", 2));
  CHECK(t.tokenString(2) == "\xC4\xA0world"); // "Ġworld" as stored
  CHECK(decode(t, {}) == "");
}

TEST_CASE("tokenizer: added and special tokens", "[qwen3][tokenizer]") {
  Tokenizer t = load();
  CHECK(t.isSpecial(9));
  CHECK_FALSE(t.isSpecial(10));
  CHECK_FALSE(t.isSpecial(0));
  CHECK(decode(t, {0, 1, 9}) == "Hello<|im_end|>");
  CHECK(decode(t, {0, 1, 9}, true) == "Hello");
  // A token whose characters do not all map back to bytes (the space) is kept as written.
  CHECK(decode(t, {10, 3}) == "plain text!");
}

TEST_CASE("tokenizer: errors", "[qwen3][tokenizer]") {
  Tokenizer t = load();
  std::string out = "unchanged", error;
  CHECK_FALSE(t.decode({0, 13}, out, error));
  CHECK_THAT(error, Catch::Contains("unknown token id 13"));
  CHECK(out == "unchanged");
  CHECK_FALSE(t.decode({-1}, out, error));
  CHECK_FALSE(t.has(99));

  Tokenizer bad;
  CHECK_FALSE(bad.loadJson("{\"model\": ", error));
  CHECK_THAT(error, Catch::Contains("not valid JSON"));
  CHECK_FALSE(bad.loadJson(R"({"model": {"type": "BPE"}})", error));
  CHECK_THAT(error, Catch::Contains("model.vocab"));
  CHECK_FALSE(bad.loadJson(R"({"model": {"type": "Unigram", "vocab": {}}})", error));
  CHECK_THAT(error, Catch::Contains("not BPE"));
  CHECK_FALSE(bad.loadJson(R"({"model": {"vocab": {"a": 0, "b": 0}}})", error));
  CHECK_THAT(error, Catch::Contains("id 0 is used by both"));
  CHECK_FALSE(bad.loadJson(R"({"model": {"vocab": {"a": -3}}})", error));
  CHECK(error == "tokenizer: token \"a\" has an invalid id -3 (ids are integers in 0..1048575)");
  // The tables are indexed by id: an id past 2^20 is refused, not a 0.5 GB table.
  CHECK_FALSE(bad.loadJson("{\"model\": {\"vocab\": {\"a\": " + std::string(100000, '[') +
                               std::string(100000, ']') + "}}}",
                           error));
  CHECK(error == "tokenizer: token \"a\" has an invalid id an array of 1 element (ids are "
                 "integers in 0..1048575)");
  CHECK_FALSE(bad.loadJson(R"({"model": {"vocab": {"a": 1048576}}})", error));
  CHECK_THAT(error, Catch::Contains("invalid id 1048576 (ids are integers in 0..1048575)"));
  Tokenizer top;
  REQUIRE(top.loadJson(R"({"model": {"vocab": {"a": 1048575}}})", error));
  CHECK(top.size() == 1048576);
  CHECK(top.idOf("a") == 1048575);
  CHECK_FALSE(bad.loadFile("/nonexistent/tokenizer.json", error));
  CHECK_THAT(error, Catch::Contains("cannot open"));

  ScratchDir dir;
  writeText(dir.file("tokenizer.json"), kTokenizerJson);
  Tokenizer fromFile;
  REQUIRE(fromFile.loadFile(dir.file("tokenizer.json"), error));
  CHECK(decode(fromFile, {0, 1}) == "Hello");
}
