// Fuzz target: tokenizer.json loading (Tokenizer::loadJson: vocab, added tokens, and the BPE
// encoder's normaliser, pre-tokenizer regex and merges), then decoding every id around the
// vocabulary's range and encoding a few texts with whatever loaded. Properties: a rejected
// file says why; decode fails exactly on the ids has() denies; an encoder that loaded encodes
// valid UTF-8 to known ids and refuses invalid UTF-8.
#include "FuzzCheck.h"

#include "qwen3/host/Tokenizer.h"

#include <string>
#include <vector>

using namespace rngd::qwen3;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Tokenizer t;
  std::string error;
  if (!t.loadJson(text, error)) {
    RNGD_FUZZ_CHECK(!error.empty(), "rejected without a message");
    return 0;
  }
  const int n = t.size();
  // Tables indexed by id: the id limit bounds what a few bytes can make the loader allocate.
  RNGD_FUZZ_CHECK(n <= (1 << 20), "%d ids from a %zu-byte file", n, size);
  // Ids up to a few thousand are decoded one by one (a fuzzed vocabulary is small; its largest
  // id may be 2^24 - 1, so the range is capped) plus unknown ones on both sides.
  std::vector<int> all;
  for (int id = -2; id < n + 2 && id < 4096; ++id) {
    std::string out;
    bool ok = t.decode({id}, out, error);
    RNGD_FUZZ_CHECK(ok == t.has(id), "decode(%d) = %d but has() = %d", id, ok, t.has(id));
    if (ok)
      all.push_back(id);
    t.isSpecial(id);
    t.tokenString(id);
  }
  std::string joined;
  RNGD_FUZZ_CHECK(t.decode(all, joined, error), "decoding known ids failed: %s", error.c_str());
  t.decode(all, joined, error, /*skipSpecial=*/true);
  if (!t.canEncode()) {
    RNGD_FUZZ_CHECK(!t.encoderError().empty(), "no encoder and no reason");
    return 0;
  }
  for (const char *sample : {"", "Hello world", "<|im_start|>user\nHi<|im_end|>\n",
                             "  x\t\n\n123 4567 it's", "e\xcc\x81 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"}) {
    std::vector<int> ids;
    RNGD_FUZZ_CHECK(t.encode(sample, ids, error), "encoding \"%s\" failed: %s", sample,
                    error.c_str());
    for (int id : ids)
      RNGD_FUZZ_CHECK(t.has(id), "encoding \"%s\" gave unknown id %d", sample, id);
  }
  // Long runs, where a fuzzed regex may backtrack into PCRE2's match limit: encode may then
  // fail, with a message, but not throw or give unknown ids.
  std::vector<int> ids;
  const std::string runs = std::string(64, 'a') + "bc" + std::string(48, ' ') + "x" +
                           std::string(32, '1') + std::string(24, '\n');
  if (t.encode(runs, ids, error)) {
    for (int id : ids)
      RNGD_FUZZ_CHECK(t.has(id), "encoding long runs gave unknown id %d", id);
  } else {
    RNGD_FUZZ_CHECK(!error.empty(), "encoding long runs failed without a message");
  }
  ids.clear();
  RNGD_FUZZ_CHECK(!t.encode("a\xff", ids, error), "invalid UTF-8 encoded");
  return 0;
}
