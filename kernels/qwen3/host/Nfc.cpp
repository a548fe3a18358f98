#include "qwen3/host/Nfc.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace rngd::qwen3 {

namespace {

// Below U+0300 (the first combining mark) every code point is its own NFC form and composes
// with nothing before it, so text made only of such characters needs no normalisation.
bool trivialForNfc(const std::string &s) {
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c >= 0x80 && !(c >= 0xC2 && c <= 0xCB))
      return false; // 0xCC and up start U+0300 or later
  }
  return true;
}

} // namespace

std::string nfc(const std::string &s) {
  if (trivialForNfc(s))
    return s;
  utf8proc_uint8_t *out = nullptr;
  utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t *>(s.data()), utf8proc_ssize_t(s.size()),
                   &out, utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (n < 0)
    throw std::runtime_error(std::string("NFC normalisation failed: ") + utf8proc_errmsg(n));
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(out, &std::free);
  return std::string(reinterpret_cast<const char *>(out), size_t(n));
}

std::string nfcUnicodeVersion() { return utf8proc_unicode_version(); }

} // namespace rngd::qwen3
