// Small pieces the Qwen3 stage generators share: the KV chunk's keys, a power-of-two test and
// the wrapping of the decode stages' header paragraphs. Header-only.
#pragma once

#include "compiler/placement/Qwen3StageList.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace rngd::placement::qwen3 {

/// Keys in one chunk of the KV cache (the host's kChunk, kernels/qwen3/host/Pipeline.h): the
/// largest prefill block, so that a block's keys are one chunk.
inline int64_t kvChunkKeys() {
  const std::vector<int64_t> &counts = prefillTokenCounts();
  return *std::max_element(counts.begin(), counts.end());
}

inline bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// Wraps each line of `text` at 96 columns (the header's `// ` makes 99), continuing with the
/// line's indentation: describe() paragraphs are written unwrapped, with numbers of any width.
/// A line breaks at its last space before column 96.
inline std::string wrapLines(const std::string &text) {
  constexpr size_t width = 96;
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    const size_t indent =
        line.find_first_not_of(' ') == llvm::StringRef::npos ? 0 : line.find_first_not_of(' ');
    while (line.size() > width) {
      size_t cut = line.rfind(' ', width);
      if (cut == llvm::StringRef::npos || cut <= indent)
        break;
      out += line.substr(0, cut).str() + "\n" + std::string(indent, ' ');
      line = line.substr(cut + 1);
    }
    out += line.str() + "\n";
  }
  out.pop_back();
  return out;
}

} // namespace rngd::placement::qwen3
