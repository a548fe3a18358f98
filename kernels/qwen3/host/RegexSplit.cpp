#include "qwen3/host/RegexSplit.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdexcept>

namespace rngd::qwen3 {

struct RegexSplit::Code {
  pcre2_code *code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

bool RegexSplit::compile(const std::string &pattern, std::string &error) {
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  pcre2_code *code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP, &errorCode, &errorOffset, nullptr);
  if (!code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(errorCode, message, sizeof message);
    error = "pre-tokenizer regex: " + std::string(reinterpret_cast<char *>(message)) +
            " at offset " + std::to_string(errorOffset);
    return false;
  }
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); // falls back to the interpreter when unavailable
  code_ = std::make_shared<Code>();
  code_->code = code;
  return true;
}

void RegexSplit::split(const std::string &text,
                       std::vector<std::pair<size_t, size_t>> &pieces) const {
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> match(
      pcre2_match_data_create_from_pattern(code_->code, nullptr), &pcre2_match_data_free);
  const auto *subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t pos = 0, last = 0;
  while (pos <= text.size()) {
    // The text was validated once by the caller: no need for PCRE2 to check it per match.
    int rc = pcre2_match(code_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, match.get(),
                         nullptr);
    if (rc == PCRE2_ERROR_NOMATCH)
      break;
    if (rc < 0)
      throw std::runtime_error("pre-tokenizer regex: match failed (PCRE2 error " +
                               std::to_string(rc) + ")");
    PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(match.get());
    size_t begin = ovector[0], end = ovector[1];
    if (begin > last)
      pieces.emplace_back(last, begin);
    if (end > begin)
      pieces.emplace_back(begin, end);
    last = end;
    if (end > begin) {
      pos = end;
    } else { // an empty match: step over one code point
      pos = end + 1;
      while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
        ++pos;
    }
  }
  if (last < text.size())
    pieces.emplace_back(last, text.size());
}

} // namespace rngd::qwen3
