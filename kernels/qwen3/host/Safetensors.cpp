#include "qwen3/host/Safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>

namespace rngd::qwen3 {

namespace {

using json = nlohmann::json;

constexpr uint64_t kMaxHeaderBytes = 100ull << 20; // the safetensors library's limit

bool hostIsLittleEndian() {
  const uint16_t one = 1;
  uint8_t b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

std::string q(const std::string &name) { return "'" + name + "'"; }

// Validates one header entry; `dataBytes` is the size of the data section.
bool parseEntry(const std::string &name, const json &v, uint64_t dataBytes,
                SafetensorsFile::Entry &e, std::string &error) {
  auto fail = [&](const std::string &m) {
    error = "safetensors: tensor " + q(name) + ": " + m;
    return false;
  };
  if (!v.is_object())
    return fail("header entry is not an object");
  if (!v.contains("dtype") || !v["dtype"].is_string())
    return fail("missing or non-string 'dtype'");
  e.dtype = v["dtype"].get<std::string>();
  size_t elem = safetensorsDtypeSize(e.dtype);
  if (elem == 0)
    return fail("unknown dtype '" + e.dtype + "'");
  if (!v.contains("shape") || !v["shape"].is_array())
    return fail("missing or non-array 'shape'");
  uint64_t numel = 1;
  for (const json &d : v["shape"]) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0)
      return fail("shape has a non-integer or negative dimension");
    uint64_t n = d.get<uint64_t>();
    if (n != 0 && numel > (uint64_t(1) << 62) / n)
      return fail("shape is too large");
    numel *= n;
    e.shape.push_back(int64_t(n));
  }
  const json &off = v.contains("data_offsets") ? v["data_offsets"] : json();
  if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
      !off[1].is_number_unsigned())
    return fail("'data_offsets' must be two non-negative integers");
  e.begin = off[0].get<uint64_t>();
  e.end = off[1].get<uint64_t>();
  if (e.begin > e.end)
    return fail("data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                "] are reversed");
  if (e.end > dataBytes)
    return fail("data_offsets end " + std::to_string(e.end) + " is past the end of the data (" +
                std::to_string(dataBytes) + " bytes; file truncated?)");
  // numel <= 2^62 but numel * elem may not fit 64 bits (2^62 F64 elements wrap to 0 bytes).
  if (numel > dataBytes / elem)
    return fail("dtype " + e.dtype + " shape " + shapeString(e.shape) + " needs more than the " +
                std::to_string(dataBytes) + " bytes of data in the file");
  if (e.end - e.begin != numel * elem)
    return fail("data_offsets span " + std::to_string(e.end - e.begin) + " bytes, dtype " +
                e.dtype + " shape " + shapeString(e.shape) + " needs " +
                std::to_string(numel * elem));
  return true;
}

} // namespace

RawTensor rawFromBf16(const Bf16Tensor &t) {
  RawTensor r;
  r.dtype = "BF16";
  r.shape = t.shape;
  r.bytes.resize(t.data.size() * 2);
  for (size_t i = 0; i < t.data.size(); ++i) {
    r.bytes[2 * i] = uint8_t(t.data[i] & 0xff);
    r.bytes[2 * i + 1] = uint8_t(t.data[i] >> 8);
  }
  return r;
}

size_t safetensorsDtypeSize(const std::string &d) {
  if (d == "BOOL" || d == "U8" || d == "I8" || d == "F8_E4M3" || d == "F8_E5M2")
    return 1;
  if (d == "BF16" || d == "F16" || d == "I16" || d == "U16")
    return 2;
  if (d == "F32" || d == "I32" || d == "U32")
    return 4;
  if (d == "F64" || d == "I64" || d == "U64")
    return 8;
  return 0;
}

bool writeSafetensors(const std::string &path, const std::map<std::string, RawTensor> &tensors,
                      std::string &error) {
  json header = json::object();
  uint64_t offset = 0;
  for (const auto &[name, t] : tensors) {
    header[name] = {{"dtype", t.dtype},
                    {"shape", t.shape},
                    {"data_offsets", {offset, offset + t.bytes.size()}}};
    offset += t.bytes.size();
  }
  header["__metadata__"] = {{"format", "pt"}};
  std::string text = header.dump();
  while (text.size() % 8 != 0)
    text += ' ';
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) {
    error = "safetensors: cannot create " + path;
    return false;
  }
  uint8_t len[8];
  for (int i = 0; i < 8; ++i)
    len[i] = uint8_t(uint64_t(text.size()) >> (8 * i));
  f.write(reinterpret_cast<const char *>(len), 8);
  f.write(text.data(), std::streamsize(text.size()));
  for (const auto &[name, t] : tensors)
    f.write(reinterpret_cast<const char *>(t.bytes.data()), std::streamsize(t.bytes.size()));
  if (!f) {
    error = "safetensors: write to " + path + " failed";
    return false;
  }
  return true;
}

bool writeSafetensors(const std::string &path, const Weights &weights, std::string &error) {
  std::map<std::string, RawTensor> raw;
  auto embed = weights.shared("model.embed_tokens.weight");
  for (const auto &[name, t] : weights.tensors()) {
    if (name == "lm_head.weight" && t == embed)
      continue;
    raw[name] = rawFromBf16(*t);
  }
  return writeSafetensors(path, raw, error);
}

bool SafetensorsFile::open(const std::string &path, std::string &error) {
  path_ = path;
  entries_.clear();
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    error = "safetensors: cannot open " + path;
    return false;
  }
  uint64_t fileBytes = uint64_t(f.tellg());
  f.seekg(0);
  return readHeader(f, fileBytes, path, error);
}

bool SafetensorsFile::readHeader(std::istream &f, uint64_t fileBytes, const std::string &path,
                                 std::string &error) {
  path_ = path;
  entries_.clear();
  if (fileBytes < 8) {
    error = "safetensors: " + path + " is " + std::to_string(fileBytes) +
            " bytes, too short for the 8-byte header length";
    return false;
  }
  uint8_t len[8];
  f.read(reinterpret_cast<char *>(len), 8);
  uint64_t headerBytes = 0;
  for (int i = 0; i < 8; ++i)
    headerBytes |= uint64_t(len[i]) << (8 * i);
  if (headerBytes > kMaxHeaderBytes || headerBytes > fileBytes - 8) {
    error = "safetensors: header length " + std::to_string(headerBytes) +
            " exceeds the file (" + std::to_string(fileBytes) + " bytes) or the 100 MiB limit";
    return false;
  }
  std::string text(headerBytes, '\0');
  f.read(text.data(), std::streamsize(headerBytes));
  if (!f) {
    error = "safetensors: cannot read the header of " + path;
    return false;
  }
  json header;
  try {
    header = json::parse(text);
  } catch (const json::exception &e) {
    error = "safetensors: header of " + path + " is not valid JSON: " + e.what();
    return false;
  }
  if (!header.is_object()) {
    error = "safetensors: header of " + path + " is not a JSON object";
    return false;
  }
  dataStart_ = 8 + headerBytes;
  uint64_t dataBytes = fileBytes - dataStart_;
  std::map<std::string, Entry> entries;
  for (const auto &[name, v] : header.items()) {
    if (name == "__metadata__")
      continue;
    Entry e;
    if (!parseEntry(name, v, dataBytes, e, error))
      return false;
    entries[name] = std::move(e);
  }
  // Tensors may not share bytes (the safetensors format lays them out one after another).
  std::vector<std::pair<const std::string *, const Entry *>> byOffset;
  for (const auto &[name, e] : entries)
    if (e.end > e.begin)
      byOffset.push_back({&name, &e});
  std::sort(byOffset.begin(), byOffset.end(),
            [](const auto &a, const auto &b) { return a.second->begin < b.second->begin; });
  for (size_t i = 1; i < byOffset.size(); ++i) {
    const auto &[prevName, prev] = byOffset[i - 1];
    const auto &[name, e] = byOffset[i];
    if (e->begin < prev->end) {
      error = "safetensors: tensors " + q(*prevName) + " (data_offsets [" +
              std::to_string(prev->begin) + ", " + std::to_string(prev->end) + "]) and " +
              q(*name) + " ([" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
              "]) overlap";
      return false;
    }
  }
  entries_ = std::move(entries);
  return true;
}

const SafetensorsFile::Entry *SafetensorsFile::find(const std::string &name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

bool SafetensorsFile::read(const std::string &name, RawTensor &out, std::string &error) const {
  const Entry *e = find(name);
  if (!e) {
    error = "safetensors: no tensor " + q(name) + " in " + path_;
    return false;
  }
  out.dtype = e->dtype;
  out.shape = e->shape;
  out.bytes.resize(e->end - e->begin);
  std::ifstream f(path_, std::ios::binary);
  f.seekg(std::streamoff(dataStart_ + e->begin));
  f.read(reinterpret_cast<char *>(out.bytes.data()), std::streamsize(out.bytes.size()));
  if (!f) {
    error = "safetensors: cannot read tensor " + q(name) + " from " + path_;
    return false;
  }
  return true;
}

bool SafetensorsFile::readBf16(const std::string &name, Bf16Tensor &out, std::string &error) const {
  const Entry *e = find(name);
  if (!e) {
    error = "safetensors: no tensor " + q(name) + " in " + path_;
    return false;
  }
  if (e->dtype != "BF16") {
    error = "safetensors: tensor " + q(name) + " has dtype " + e->dtype +
            ", only BF16 is supported";
    return false;
  }
  out.shape = e->shape;
  out.data.resize((e->end - e->begin) / 2);
  std::ifstream f(path_, std::ios::binary);
  f.seekg(std::streamoff(dataStart_ + e->begin));
  f.read(reinterpret_cast<char *>(out.data.data()), std::streamsize(e->end - e->begin));
  if (!f) {
    error = "safetensors: cannot read tensor " + q(name) + " from " + path_;
    return false;
  }
  if (!hostIsLittleEndian())
    for (uint16_t &v : out.data)
      v = uint16_t((v >> 8) | (v << 8));
  return true;
}

bool SafetensorsFile::readBf16Block(const std::string &name, int64_t row, int64_t rows,
                                    int64_t col, int64_t cols, Bf16Tensor &out,
                                    std::string &error) const {
  const Entry *e = find(name);
  if (!e || e->dtype != "BF16" || e->shape.empty() || e->shape.size() > 2) {
    error = "safetensors: tensor " + q(name) + (e ? " is not a BF16 vector or matrix" : " is missing") +
            " in " + path_;
    return false;
  }
  const bool vector = e->shape.size() == 1;
  const int64_t height = vector ? 1 : e->shape[0], width = e->shape.back();
  if (row < 0 || rows < 1 || col < 0 || cols < 1 || col + cols > width || row >= height) {
    error = "safetensors: tensor " + q(name) + " " + shapeString(e->shape) + " has no block of " +
            std::to_string(rows) + " rows from " + std::to_string(row) + ", " +
            std::to_string(cols) + " columns from " + std::to_string(col);
    return false;
  }
  out.shape = vector ? std::vector<int64_t>{cols} : std::vector<int64_t>{rows, cols};
  out.data.assign(size_t(rows * cols), 0);
  std::ifstream f(path_, std::ios::binary);
  for (int64_t r = 0; r < rows && row + r < height; ++r) {
    f.seekg(std::streamoff(dataStart_ + e->begin + uint64_t(((row + r) * width + col) * 2)));
    f.read(reinterpret_cast<char *>(out.data.data() + r * cols), std::streamsize(cols * 2));
    if (!f) {
      error = "safetensors: cannot read tensor " + q(name) + " from " + path_;
      return false;
    }
  }
  if (!hostIsLittleEndian())
    for (uint16_t &v : out.data)
      v = uint16_t((v >> 8) | (v << 8));
  return true;
}

} // namespace rngd::qwen3
