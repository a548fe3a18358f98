// Fuzz target: encoding and decoding text with Qwen3's real tokenizer.json (loaded once:
// $RNGD_FUZZ_TOKENIZER, else the one scripts/install-deps.sh installs into third_party/npm).
// The input is the text. Properties: invalid UTF-8 is refused with its byte offset; valid
// text encodes to known ids that decode back to its NFC form (byte-level BPE loses nothing);
// decoding the ids one by one through Utf8Stream, as rngd-qwen3 streams its output, gives the
// same text. The input's bytes read as 16-bit ids exercise decoding of unknown ids.
#include "FuzzCheck.h"

#include "qwen3/host/Nfc.h"
#include "qwen3/host/Tokenizer.h"
#include "qwen3/host/Utf8.h"
#include "qwen3/host/Utf8Stream.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace rngd::qwen3;

namespace {

std::unique_ptr<Tokenizer> gTokenizer;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *path = std::getenv("RNGD_FUZZ_TOKENIZER");
  std::string file = path ? path : RNGD_FUZZ_DEFAULT_TOKENIZER;
  gTokenizer = std::make_unique<Tokenizer>();
  std::string error;
  if (!gTokenizer->loadFile(file, error) || !gTokenizer->canEncode()) {
    std::fprintf(stderr, "bpe_encode: cannot load %s: %s%s (set RNGD_FUZZ_TOKENIZER or run "
                         "scripts/install-deps.sh)\n",
                 file.c_str(), error.c_str(), gTokenizer->encoderError().c_str());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Tokenizer &t = *gTokenizer;
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<int> ids;
  std::string error;
  size_t bad = firstInvalidUtf8(text);
  bool ok = t.encode(text, ids, error);
  if (bad != std::string::npos) {
    RNGD_FUZZ_CHECK(!ok && error.find("byte " + std::to_string(bad)) != std::string::npos,
                    "invalid UTF-8 at byte %zu: encode %d, error '%s'", bad, ok, error.c_str());
  } else {
    RNGD_FUZZ_CHECK(ok, "valid UTF-8 not encoded: %s", error.c_str());
    for (int id : ids)
      RNGD_FUZZ_CHECK(t.has(id), "unknown id %d", id);
    std::string back;
    RNGD_FUZZ_CHECK(t.decode(ids, back, error), "decode failed: %s", error.c_str());
    RNGD_FUZZ_CHECK(back == nfc(text), "decode(encode(text)) is not NFC(text) (%zu vs %zu bytes)",
                    back.size(), nfc(text).size());
    Utf8Stream stream;
    std::string streamed;
    for (int id : ids) {
      std::string bytes;
      RNGD_FUZZ_CHECK(t.decode({id}, bytes, error), "decode(%d) failed", id);
      streamed += stream.push(bytes);
    }
    streamed += stream.finish();
    RNGD_FUZZ_CHECK(streamed == back, "streamed text differs from the decoded text");
  }
  // The bytes as little-endian 16-bit ids, spread over the vocabulary and past it.
  std::vector<int> raw;
  for (size_t i = 0; i + 1 < size && raw.size() < 64; i += 2)
    raw.push_back(int((data[i] | data[i + 1] << 8) * 3) - 2);
  std::string out;
  bool decoded = t.decode(raw, out, error);
  bool allKnown = true;
  for (int id : raw)
    allKnown = allKnown && t.has(id);
  RNGD_FUZZ_CHECK(decoded == allKnown, "decode of raw ids: %d, all known: %d", decoded, allKnown);
  if (decoded) {
    std::string lossy = utf8Lossy(out);
    RNGD_FUZZ_CHECK(firstInvalidUtf8(lossy) == std::string::npos, "utf8Lossy left invalid UTF-8");
  }
  return 0;
}
