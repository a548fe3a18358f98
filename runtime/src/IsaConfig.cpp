// Configuration blocks: the unit field tables, LSB-first bit packing across 64-bit words, the
// semantic rules of each unit, and typed views (docs/isa.md, "Configuration blocks").
#include "rngd/Isa.h"

namespace rngd::isa {
namespace {

std::vector<UnitSpec> buildSpecs() {
  std::vector<UnitSpec> specs;
  specs.push_back({Unit::Fetch,
                   "fetch",
                   {{"base", 22, 1, false},
                    {"access_log2", 3, 1, false},
                    {"packet_bytes", 16, 1, false},
                    {"cast", 4, 1, false},
                    {"limits", 17, 8, false},
                    {"strides", 24, 8, true},
                    {"slices", 64, 8, false}}});
  specs.push_back({Unit::Vector,
                   "vector",
                   {{"steps", 4, 1, false},
                    {"alu", 5, 8, false},
                    {"op", 6, 8, false},
                    {"mode", 2, 8, false},
                    {"imm", 32, 8, false}}});
  specs.push_back({Unit::Cast, "cast", {{"mode", 4, 1, false}}});
  specs.push_back({Unit::Commit,
                   "commit",
                   {{"base", 22, 1, false},
                    {"write_bytes", 6, 1, false},
                    {"limits", 17, 8, false},
                    {"strides", 24, 8, true},
                    {"slices", 64, 8, false}}});
  return specs;
}

std::string fieldLabel(const UnitSpec &spec, const FieldSpec &f, unsigned i) {
  std::string s = std::string(spec.name) + "." + f.name;
  if (f.count > 1)
    s += "[" + std::to_string(i) + "]";
  return s;
}

// A 64-bit unsigned field holds any int64 (its bit pattern); narrower fields hold their range.
bool fits(const FieldSpec &f, int64_t v) {
  if (f.bits >= 64)
    return true;
  if (f.isSigned) {
    int64_t half = int64_t(1) << (f.bits - 1);
    return v >= -half && v < half;
  }
  return v >= 0 && v < (int64_t(1) << f.bits);
}

uint64_t maskOf(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

void putBits(std::vector<uint64_t> &words, size_t pos, unsigned bits, uint64_t raw) {
  size_t w = pos / 64;
  unsigned shift = pos % 64;
  words[w] |= raw << shift;
  if (shift + bits > 64)
    words[w + 1] |= raw >> (64 - shift);
}

uint64_t getBits(const std::vector<uint64_t> &words, size_t pos, unsigned bits) {
  size_t w = pos / 64;
  unsigned shift = pos % 64;
  uint64_t raw = words[w] >> shift;
  if (shift + bits > 64)
    raw |= words[w + 1] << (64 - shift);
  return raw & maskOf(bits);
}

size_t totalBits(const UnitSpec &spec) {
  size_t bits = 0;
  for (const FieldSpec &f : spec.fields)
    bits += size_t(f.bits) * f.count;
  return bits;
}

bool checkLimits(const char *unit, const std::vector<int64_t> &v, size_t first,
                 std::string &why) {
  for (int i = 0; i < kSequencerLoops; ++i) {
    int64_t l = v[first + i];
    if (l < 1 || l > kMaxLoopLimit) {
      why = std::string(unit) + ".limits[" + std::to_string(i) + "] = " + std::to_string(l) +
            " is outside 1.." + std::to_string(kMaxLoopLimit);
      return false;
    }
  }
  return true;
}

template <typename Array> void copyOut(const std::vector<int64_t> &v, size_t &at, Array &a) {
  for (auto &x : a)
    x = static_cast<typename Array::value_type>(v[at++]);
}
template <typename Array> void copyIn(std::vector<int64_t> &v, const Array &a) {
  for (auto x : a)
    v.push_back(static_cast<int64_t>(x));
}

} // namespace

const std::vector<UnitSpec> &unitSpecs() {
  static const std::vector<UnitSpec> specs = buildSpecs();
  return specs;
}

const UnitSpec *findUnit(Unit unit) {
  for (const UnitSpec &s : unitSpecs())
    if (s.unit == unit)
      return &s;
  return nullptr;
}

const UnitSpec *findUnit(const std::string &name) {
  for (const UnitSpec &s : unitSpecs())
    if (name == s.name)
      return &s;
  return nullptr;
}

size_t valueCount(const UnitSpec &spec) {
  size_t n = 0;
  for (const FieldSpec &f : spec.fields)
    n += f.count;
  return n;
}

size_t wordCount(const UnitSpec &spec) { return (totalBits(spec) + 63) / 64; }

bool packBlock(const UnitSpec &spec, const std::vector<int64_t> &values,
               std::vector<uint64_t> &words, std::string &why) {
  if (values.size() != valueCount(spec)) {
    why = std::string(spec.name) + " block has " + std::to_string(values.size()) +
          " values, expected " + std::to_string(valueCount(spec));
    return false;
  }
  words.assign(wordCount(spec), 0);
  size_t pos = 0, at = 0;
  for (const FieldSpec &f : spec.fields) {
    for (unsigned i = 0; i < f.count; ++i, ++at, pos += f.bits) {
      int64_t v = values[at];
      if (!fits(f, v)) {
        why = fieldLabel(spec, f, i) + " = " + std::to_string(v) + " does not fit " +
              std::to_string(f.bits) + (f.isSigned ? " signed bits" : " unsigned bits");
        return false;
      }
      putBits(words, pos, f.bits, static_cast<uint64_t>(v) & maskOf(f.bits));
    }
  }
  return true;
}

std::vector<int64_t> unpackBlock(const UnitSpec &spec, const std::vector<uint64_t> &words) {
  std::vector<int64_t> values;
  values.reserve(valueCount(spec));
  if (words.size() < wordCount(spec))
    return values; // caller checks the word count first; never read past the words
  size_t pos = 0;
  for (const FieldSpec &f : spec.fields) {
    for (unsigned i = 0; i < f.count; ++i, pos += f.bits) {
      uint64_t raw = getBits(words, pos, f.bits);
      if (f.isSigned && f.bits < 64 && (raw >> (f.bits - 1)) & 1)
        raw |= ~maskOf(f.bits); // two's complement sign extension
      values.push_back(static_cast<int64_t>(raw));
    }
  }
  return values;
}

bool validateBlock(const UnitSpec &spec, const std::vector<int64_t> &v, std::string &why) {
  if (v.size() != valueCount(spec)) {
    why = std::string(spec.name) + " block has " + std::to_string(v.size()) +
          " values, expected " + std::to_string(valueCount(spec));
    return false;
  }
  switch (spec.unit) {
  case Unit::Fetch:
    if (v[1] > 5) {
      why = "fetch.access_log2 = " + std::to_string(v[1]) + " is outside 0..5 (1..32 bytes)";
      return false;
    }
    if (v[2] < 1) {
      why = "fetch.packet_bytes = " + std::to_string(v[2]) + " must be at least 1";
      return false;
    }
    if (v[3] != int64_t(FetchCast::None) && v[3] != int64_t(FetchCast::Bf16ToF32)) {
      why = "fetch.cast = " + std::to_string(v[3]) + " is not a known fetch cast (0 none, 1 "
            "bf16->f32)";
      return false;
    }
    return checkLimits("fetch", v, 4, why);
  case Unit::Vector: {
    if (v[0] > kMaxVectorSteps) {
      why = "vector.steps = " + std::to_string(v[0]) + " exceeds " +
            std::to_string(kMaxVectorSteps);
      return false;
    }
    // Unused steps must be zero so that a block has exactly one encoding.
    for (int s = static_cast<int>(v[0]); s < kMaxVectorSteps; ++s)
      for (int f = 0; f < 4; ++f)
        if (v[1 + f * kMaxVectorSteps + s] != 0) {
          why = "vector step " + std::to_string(s) + " is unused (steps = " +
                std::to_string(v[0]) + ") but its " + spec.fields[1 + f].name +
                " is nonzero";
          return false;
        }
    return true;
  }
  case Unit::Cast:
    if (v[0] != int64_t(CastMode::None) && v[0] != int64_t(CastMode::F32ToBf16)) {
      why = "cast.mode = " + std::to_string(v[0]) + " is not a known cast (0 none, 1 "
            "f32->bf16)";
      return false;
    }
    return true;
  case Unit::Commit:
    if (v[1] != 8 && v[1] != 16 && v[1] != 24 && v[1] != 32) {
      why = "commit.write_bytes = " + std::to_string(v[1]) + " is not 8, 16, 24 or 32";
      return false;
    }
    return checkLimits("commit", v, 2, why);
  }
  why = "unknown unit";
  return false;
}

FetchConfig FetchConfig::fromValues(const std::vector<int64_t> &v) {
  FetchConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Fetch)))
    return c;
  c.base = v[0];
  c.accessLog2 = v[1];
  c.packetBytes = v[2];
  c.cast = static_cast<FetchCast>(v[3]);
  size_t at = 4;
  copyOut(v, at, c.limits);
  copyOut(v, at, c.strides);
  copyOut(v, at, c.slices);
  return c;
}

std::vector<int64_t> FetchConfig::values() const {
  std::vector<int64_t> v{base, accessLog2, packetBytes, static_cast<int64_t>(cast)};
  copyIn(v, limits);
  copyIn(v, strides);
  copyIn(v, slices);
  return v;
}

VectorConfig VectorConfig::fromValues(const std::vector<int64_t> &v) {
  VectorConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Vector)))
    return c;
  c.steps = v[0];
  for (int s = 0; s < kMaxVectorSteps; ++s) {
    c.step[s].alu = v[1 + s];
    c.step[s].op = v[1 + kMaxVectorSteps + s];
    c.step[s].mode = v[1 + 2 * kMaxVectorSteps + s];
    c.step[s].imm = static_cast<uint32_t>(v[1 + 3 * kMaxVectorSteps + s]);
  }
  return c;
}

std::vector<int64_t> VectorConfig::values() const {
  std::vector<int64_t> v{steps};
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].alu);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].op);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].mode);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(static_cast<int64_t>(step[s].imm));
  return v;
}

CastConfig CastConfig::fromValues(const std::vector<int64_t> &v) {
  CastConfig c;
  if (v.size() == 1)
    c.mode = static_cast<CastMode>(v[0]);
  return c;
}

std::vector<int64_t> CastConfig::values() const { return {static_cast<int64_t>(mode)}; }

CommitConfig CommitConfig::fromValues(const std::vector<int64_t> &v) {
  CommitConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Commit)))
    return c;
  c.base = v[0];
  c.writeBytes = v[1];
  size_t at = 2;
  copyOut(v, at, c.limits);
  copyOut(v, at, c.strides);
  copyOut(v, at, c.slices);
  return c;
}

std::vector<int64_t> CommitConfig::values() const {
  std::vector<int64_t> v{base, writeBytes};
  copyIn(v, limits);
  copyIn(v, strides);
  copyIn(v, slices);
  return v;
}

} // namespace rngd::isa
