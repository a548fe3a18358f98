// Host-side argument data for tools and hosts: raw little-endian files, NumPy .npy files, and a
// deterministic seeded fill.
//
// .npy: version 1.0 (2.0 is read too), little-endian, C order. dtypes: f32 '<f4', i32 '<i4',
// i8 '|i1', bf16 '<u2' holding the raw bf16 bit patterns (NumPy has no bf16). A bf16 argument
// also accepts a '<f4' input, rounded to bf16 to nearest even. The element count must match the
// argument; the shape itself may differ (e.g. a flat vector).
#pragma once

#include "rngd/Executable.h"
#include "rngd/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd {

/// Reads the whole file `path`.
Status readFile(const std::string &path, std::vector<uint8_t> &out);
/// Reads an argument's bytes from `path`: .npy by extension, anything else raw.
Status readArgFile(const std::string &path, const ArgInfo &arg, std::vector<uint8_t> &bytes);
/// Writes an argument's bytes to `path`: .npy by extension (shape = the argument's), else raw.
Status writeArgFile(const std::string &path, const ArgInfo &arg,
                    const std::vector<uint8_t> &bytes);

/// Encodes/decodes a .npy image (exposed for tests).
std::vector<uint8_t> encodeNpy(const std::string &descr, const std::vector<int64_t> &shape,
                               const std::vector<uint8_t> &data);
Status decodeNpy(const std::vector<uint8_t> &file, std::string &descr,
                 std::vector<int64_t> &shape, std::vector<uint8_t> &data);

/// splitmix64: advances `state` by the golden-ratio increment and returns the mixed value.
uint64_t splitmix64(uint64_t &state);

/// Fills an argument with values from a splitmix64 stream seeded by (seed, stream):
/// bf16 k/256 and f32 k/2^24, both uniform in [0, 1); i32 and i8 integers in [-8, 8).
/// The same (seed, stream) gives the same bytes on every platform.
void fillSeeded(const ArgInfo &arg, uint64_t seed, uint64_t stream, std::vector<uint8_t> &bytes);

} // namespace rngd
