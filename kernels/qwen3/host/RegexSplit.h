// The `Split` pre-tokenizer of a tokenizer.json (behavior "Isolated"): every match of the
// pattern and every stretch between matches becomes a piece. The pattern runs through PCRE2
// (Debian's libpcre2) in UTF mode with Unicode properties (\p{L}, \p{N}, Unicode \s, Unicode
// case folding), JIT-compiled when the platform allows.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rngd::qwen3 {

class RegexSplit {
public:
  /// Compiles `pattern`; on a pattern PCRE2 rejects, error says why and at which offset.
  bool compile(const std::string &pattern, std::string &error);
  bool compiled() const { return code_ != nullptr; }

  /// Appends the pieces of text (valid UTF-8) as [begin, end) byte ranges.
  void split(const std::string &text, std::vector<std::pair<size_t, size_t>> &pieces) const;

private:
  struct Code;
  std::shared_ptr<Code> code_;
};

} // namespace rngd::qwen3
