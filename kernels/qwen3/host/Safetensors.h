// The safetensors container: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets}} (+ optional __metadata__), then the data. Every failure is
// a returned error string naming the tensor; nothing aborts on a malformed file.
#pragma once

#include "qwen3/host/Model.h"

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

/// A tensor of any safetensors dtype ("BF16", "F32", ...), data as stored (little-endian).
struct RawTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

RawTensor rawFromBf16(const Bf16Tensor &t);

/// Bytes per element of a safetensors dtype name, or 0 when unknown.
size_t safetensorsDtypeSize(const std::string &dtype);

/// Writes tensors in name order, header padded with spaces to a multiple of 8 bytes.
bool writeSafetensors(const std::string &path, const std::map<std::string, RawTensor> &tensors,
                      std::string &error);
/// Writes all weights; a tied lm_head (the embedding tensor itself) is left out, as HF does.
bool writeSafetensors(const std::string &path, const Weights &weights, std::string &error);

/// A safetensors file whose header has been read and validated (dtype known, shape non-negative,
/// data_offsets ordered, sized for the shape, inside the file and not overlapping another
/// tensor's). Tensor data is read on demand.
class SafetensorsFile {
public:
  struct Entry {
    std::string dtype;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0; // relative to the start of the data section
  };

  bool open(const std::string &path, std::string &error);
  /// The header check of open() on a stream positioned at the file's first byte, `fileBytes`
  /// long (`path` only names the file in messages); read() then needs open(). The fuzz target
  /// test/fuzz/SafetensorsHeaderFuzz.cpp drives this with in-memory files.
  bool readHeader(std::istream &in, uint64_t fileBytes, const std::string &path,
                  std::string &error);
  const std::map<std::string, Entry> &entries() const { return entries_; }
  const Entry *find(const std::string &name) const;
  bool read(const std::string &name, RawTensor &out, std::string &error) const;
  /// Requires dtype BF16; errors name the tensor.
  bool readBf16(const std::string &name, Bf16Tensor &out, std::string &error) const;
  /// A block of a BF16 matrix (a vector is one row): rows [row, row + rows) and columns
  /// [col, col + cols), reading only those bytes; rows past the tensor's last are zero (a
  /// vocabulary block padded to its size). `out` is [rows, cols] ([cols] for a vector).
  bool readBf16Block(const std::string &name, int64_t row, int64_t rows, int64_t col,
                     int64_t cols, Bf16Tensor &out, std::string &error) const;

private:
  std::string path_;
  uint64_t dataStart_ = 0;
  std::map<std::string, Entry> entries_;
};

} // namespace rngd::qwen3
