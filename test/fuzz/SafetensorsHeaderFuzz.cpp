// Fuzz target: the safetensors header reader (SafetensorsFile::readHeader, what open() runs
// before any tensor data is read) on an in-memory file. Properties of an accepted header: every
// tensor's data_offsets lie inside the data section, span exactly numel x dtype size bytes
// (computed here in 128 bits, so a 64-bit wrap-around cannot pass) and do not overlap.
#include "FuzzCheck.h"

#include "qwen3/host/Safetensors.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace rngd::qwen3;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  std::istringstream in(bytes);
  SafetensorsFile file;
  std::string error;
  if (!file.readHeader(in, size, "fuzz.safetensors", error)) {
    RNGD_FUZZ_CHECK(!error.empty(), "rejected without a message");
    return 0;
  }
  uint64_t headerBytes = 0;
  for (int i = 0; i < 8; ++i)
    headerBytes |= uint64_t(data[i]) << (8 * i);
  const uint64_t dataBytes = size - 8 - headerBytes;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto &[name, e] : file.entries()) {
    size_t elem = safetensorsDtypeSize(e.dtype);
    RNGD_FUZZ_CHECK(elem > 0, "tensor '%s' has dtype '%s'", name.c_str(), e.dtype.c_str());
    unsigned __int128 need = elem;
    for (int64_t d : e.shape) {
      RNGD_FUZZ_CHECK(d >= 0, "tensor '%s' has a negative dimension", name.c_str());
      need *= uint64_t(d);
      if (need > (unsigned __int128)1 << 64)
        need = (unsigned __int128)1 << 64; // saturate: past any file
    }
    RNGD_FUZZ_CHECK(e.begin <= e.end && e.end <= dataBytes,
                    "tensor '%s' [%llu, %llu] outside %llu data bytes", name.c_str(),
                    (unsigned long long)e.begin, (unsigned long long)e.end,
                    (unsigned long long)dataBytes);
    RNGD_FUZZ_CHECK(need == e.end - e.begin, "tensor '%s' spans %llu bytes, its shape needs more",
                    name.c_str(), (unsigned long long)(e.end - e.begin));
    RNGD_FUZZ_CHECK(file.find(name) == &e, "find('%s') disagrees with entries()", name.c_str());
    if (e.end > e.begin)
      spans.push_back({e.begin, e.end});
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    RNGD_FUZZ_CHECK(spans[i].first >= spans[i - 1].second, "tensors overlap at byte %llu",
                    (unsigned long long)spans[i].first);
  return 0;
}
