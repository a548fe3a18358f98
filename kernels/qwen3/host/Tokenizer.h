// Qwen3's byte-level BPE tokenizer from a Hugging Face tokenizer.json. Decoding (ids -> text):
// model.vocab plus added_tokens, with the GPT-2 byte-to-unicode mapping reversed. Encoding
// (text -> ids): BpeEncoder, available when the file has merges and a supported normaliser and
// pre-tokenizer (encoderError() says why not otherwise). docs/tokenizer.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

class Tokenizer {
public:
  bool loadFile(const std::string &path, std::string &error);
  bool loadJson(const std::string &text, std::string &error);

  /// Concatenated bytes of the tokens. As in HF's ByteLevel decoder, a token whose characters
  /// all map back to bytes becomes those bytes; any other token contributes its UTF-8 text as is.
  /// The result is raw bytes (a partial UTF-8 sequence is kept, not replaced by U+FFFD), so
  /// decoding token by token and concatenating gives the same text. Unknown ids are errors.
  bool decode(const std::vector<int> &ids, std::string &out, std::string &error,
              bool skipSpecial = false) const;

  /// Encodes valid UTF-8 text (added tokens in it become their ids). False with `error` on
  /// invalid UTF-8, when the file does not allow encoding, or when the pre-tokenizer regex
  /// fails on the text (PCRE2's match limit).
  bool encode(const std::string &text, std::vector<int> &ids, std::string &error) const;
  bool canEncode() const { return encoder_ != nullptr; }
  const std::string &encoderError() const { return encoderError_; }
  /// The id of a token string (vocab or added token), -1 when absent.
  int idOf(const std::string &token) const;

  int size() const { return int(tokens_.size()); } // largest id + 1
  bool has(int id) const;
  bool isSpecial(int id) const;
  /// The token's string as stored in tokenizer.json ("Ġthe"); empty for an unknown id.
  const std::string &tokenString(int id) const;

  /// GPT-2's byte -> code point table (printable bytes map to themselves, the rest to 256+n).
  static int byteToCodepoint(unsigned char byte);

private:
  std::vector<std::string> tokens_;
  std::shared_ptr<class BpeEncoder> encoder_;
  std::string encoderError_;
  std::vector<bool> present_, special_;
};

} // namespace rngd::qwen3
