// Little-endian byte access used by the file and descriptor codecs. The format is defined in
// little-endian bytes, so it never depends on the host's byte order or struct layout.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace rngd::bytes {

inline uint64_t load(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}
inline uint32_t load32(const uint8_t *p) { return static_cast<uint32_t>(load(p, 4)); }
inline uint64_t load64(const uint8_t *p) { return load(p, 8); }

inline void store(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void store32(uint8_t *p, uint32_t v) { store(p, v, 4); }
inline void store64(uint8_t *p, uint64_t v) { store(p, v, 8); }

inline void append(std::vector<uint8_t> &out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

} // namespace rngd::bytes
