// Argument files (raw / .npy) and the seeded fill used by rngd-run --seed.
#include "rngd/HostData.h"

#include "rngd/Bf16.h"

#include <cstring>
#include <fstream>

namespace rngd {
namespace {

const char *npyDescr(DType d) {
  switch (d) {
  case DType::BF16:
    return "<u2";
  case DType::F32:
    return "<f4";
  case DType::I32:
    return "<i4";
  case DType::I8:
    return "|i1";
  }
  return "?";
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out)
    return Status::failure("cannot write '" + path + "'");
  return Status::success();
}

// Finds `'key': ` in a .npy header dict and returns what follows.
bool valueAfter(const std::string &h, const std::string &key, std::string &rest) {
  size_t at = h.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = h.find(':', at);
  if (at == std::string::npos)
    return false;
  at = h.find_first_not_of(' ', at + 1);
  if (at == std::string::npos)
    return false;
  rest = h.substr(at);
  return true;
}

} // namespace

Status readFile(const std::string &path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::failure("cannot open '" + path + "'");
  // Blocks of 1 MiB (a character iterator took ~5 % of rngd-run's time on prefill_decoder's
  // 50 MB of inputs); a pipe or a file whose size is unknown reads the same way.
  out.clear();
  std::vector<char> block(size_t(1) << 20);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
    out.insert(out.end(), block.data(), block.data() + in.gcount());
  if (in.bad())
    return Status::failure("cannot read '" + path + "'");
  return Status::success();
}

std::vector<uint8_t> encodeNpy(const std::string &descr, const std::vector<int64_t> &shape,
                               const std::vector<uint8_t> &data) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    dict += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  dict += "), }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.push_back(static_cast<uint8_t>(dict.size() & 0xff));
  out.push_back(static_cast<uint8_t>(dict.size() >> 8));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

Status decodeNpy(const std::vector<uint8_t> &f, std::string &descr, std::vector<int64_t> &shape,
                 std::vector<uint8_t> &data) {
  static const uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (f.size() < 10 || std::memcmp(f.data(), magic, 6) != 0)
    return Status::failure("not a .npy file");
  size_t headerLen, start;
  if (f[6] == 1) {
    headerLen = f[8] | size_t(f[9]) << 8;
    start = 10;
  } else if (f[6] == 2 && f.size() >= 12) {
    headerLen = f[8] | size_t(f[9]) << 8 | size_t(f[10]) << 16 | size_t(f[11]) << 24;
    start = 12;
  } else {
    return Status::failure(".npy version " + std::to_string(f[6]) + " is not supported");
  }
  if (headerLen > f.size() - start)
    return Status::failure(".npy header runs past the end of the file");
  std::string h(f.begin() + static_cast<std::ptrdiff_t>(start),
                f.begin() + static_cast<std::ptrdiff_t>(start + headerLen));
  std::string rest;
  if (!valueAfter(h, "descr", rest) || rest.size() < 2 || rest[0] != '\'')
    return Status::failure(".npy header has no descr");
  descr = rest.substr(1, rest.find('\'', 1) - 1);
  if (!valueAfter(h, "fortran_order", rest) || rest.compare(0, 5, "False") != 0)
    return Status::failure(".npy file is not in C order");
  if (!valueAfter(h, "shape", rest) || rest.empty() || rest[0] != '(')
    return Status::failure(".npy header has no shape");
  shape.clear();
  size_t close = rest.find(')');
  if (close == std::string::npos)
    return Status::failure(".npy shape is not closed");
  std::string dims = rest.substr(1, close - 1);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string item = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t digits = item.find_first_not_of(' ');
    if (digits != std::string::npos) {
      try {
        shape.push_back(std::stoll(item.substr(digits)));
      } catch (...) {
        return Status::failure(".npy shape '" + dims + "' is not a list of integers");
      }
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  data.assign(f.begin() + static_cast<std::ptrdiff_t>(start + headerLen), f.end());
  return Status::success();
}

Status readArgFile(const std::string &path, const ArgInfo &arg, std::vector<uint8_t> &bytes) {
  std::vector<uint8_t> file;
  Status st = readFile(path, file);
  if (!st)
    return st;
  if (!endsWith(path, ".npy")) {
    if (file.size() != arg.bytes)
      return Status::failure("'" + path + "' has " + std::to_string(file.size()) +
                             " bytes, argument '" + arg.name + "' needs " +
                             std::to_string(arg.bytes));
    bytes = std::move(file);
    return Status::success();
  }
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  st = decodeNpy(file, descr, shape, data);
  if (!st)
    return Status::failure("'" + path + "': " + st.message());
  uint64_t elements = arg.bytes / static_cast<uint64_t>(dtypeBytes(arg.dtype));
  uint64_t have = 1;
  for (int64_t d : shape)
    have *= static_cast<uint64_t>(d < 0 ? 0 : d);
  bool fromF32 = arg.dtype == DType::BF16 && descr == "<f4";
  if (descr != npyDescr(arg.dtype) && !fromF32 && !(arg.dtype == DType::I8 && descr == "<i1"))
    return Status::failure("'" + path + "' has dtype '" + descr + "', argument '" + arg.name +
                           "' (" + dtypeName(arg.dtype) + ") needs '" + npyDescr(arg.dtype) + "'" +
                           (arg.dtype == DType::BF16 ? " or '<f4'" : ""));
  if (have != elements)
    return Status::failure("'" + path + "' has " + std::to_string(have) + " elements, argument '" +
                           arg.name + "' needs " + std::to_string(elements));
  uint64_t width = fromF32 ? 4 : static_cast<uint64_t>(dtypeBytes(arg.dtype));
  if (data.size() != elements * width)
    return Status::failure("'" + path + "' has " + std::to_string(data.size()) +
                           " data bytes, expected " + std::to_string(elements * width));
  if (!fromF32) {
    bytes = std::move(data);
    return Status::success();
  }
  bytes.resize(arg.bytes);
  for (uint64_t i = 0; i < elements; ++i) {
    uint32_t u = data[4 * i] | uint32_t(data[4 * i + 1]) << 8 | uint32_t(data[4 * i + 2]) << 16 |
                 uint32_t(data[4 * i + 3]) << 24;
    uint16_t b = f32BitsToBf16(u);
    bytes[2 * i] = static_cast<uint8_t>(b);
    bytes[2 * i + 1] = static_cast<uint8_t>(b >> 8);
  }
  return Status::success();
}

Status writeArgFile(const std::string &path, const ArgInfo &arg,
                    const std::vector<uint8_t> &bytes) {
  if (!endsWith(path, ".npy"))
    return writeFile(path, bytes);
  return writeFile(path, encodeNpy(npyDescr(arg.dtype), arg.shape, bytes));
}

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void fillSeeded(const ArgInfo &arg, uint64_t seed, uint64_t stream, std::vector<uint8_t> &bytes) {
  // Each argument gets its own stream: the state starts from (seed, stream) mixed once.
  uint64_t state = seed ^ (0x632be59bd9b4e019ull * (stream + 1));
  state = splitmix64(state);
  uint64_t n = arg.bytes / static_cast<uint64_t>(dtypeBytes(arg.dtype));
  bytes.assign(arg.bytes, 0);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t z = splitmix64(state);
    switch (arg.dtype) {
    case DType::BF16: { // k / 256: exact in bf16, so no rounding can reach 1.0
      uint16_t b = f32ToBf16(static_cast<float>(z >> 56) / 256.0f);
      std::memcpy(&bytes[2 * i], &b, 2);
      break;
    }
    case DType::F32: {
      float f = static_cast<float>(z >> 40) / 16777216.0f;
      std::memcpy(&bytes[4 * i], &f, 4);
      break;
    }
    case DType::I32: {
      int32_t v = static_cast<int32_t>(z >> 60) - 8;
      std::memcpy(&bytes[4 * i], &v, 4);
      break;
    }
    case DType::I8:
      bytes[i] = static_cast<uint8_t>(static_cast<int8_t>(static_cast<int>(z >> 60) - 8));
      break;
    }
  }
}

} // namespace rngd
