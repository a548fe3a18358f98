// DMA descriptors: the record codec, the rules on a target and the text form, all expanded from
// rngd/IsaDescriptor.def (docs/isa.md, "DMA descriptors").
#include "Bytes.h"
#include "rngd/Executable.h" // formatHex
#include "rngd/Isa.h"

#include <algorithm>

namespace rngd::isa {
namespace {

// The table tiles the record from byte 0: each field starts where the previous one ends, and
// the last ends inside the record. Fields are 4 or 8 bytes (DescriptorInt's types), arrays
// kDescriptorLoops long (the loop count is every array's length).
constexpr bool fieldsTile() {
  size_t at = 0;
  for (const DescriptorField &f : kDescriptorFields) {
    if (f.offset != at || (f.count != 1 && f.count != kDescriptorLoops) ||
        (f.bytes != 4 && f.bytes != 8))
      return false;
    at += size_t(f.bytes) * f.count;
  }
  return at <= kDescriptorBytes;
}
static_assert(fieldsTile(), "IsaDescriptor.def: 4- or 8-byte fields, one after the other");

// The table's row of each field, for the typed code below.
enum Row : size_t {
#define RNGD_DESC_FIELD(member, name, at, width, isSigned, text, keyword) row_##member,
#define RNGD_DESC_LOOPS(name, at, width) rowLoops,
#define RNGD_DESC_ARRAY(member, name, at, width, count, isSigned, keyword) row_##member,
#include "rngd/IsaDescriptor.def"
};

/// The first array's row: the text form's loop count is its length.
constexpr size_t firstList() {
  for (size_t r = 0; r < kDescriptorFieldCount; ++r)
    if (kDescriptorFields[r].text == DescriptorText::List)
      return r;
  return kDescriptorFieldCount;
}
static_assert(firstList() < kDescriptorFieldCount, "IsaDescriptor.def: no per-loop array");

bool fail(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

std::string label(const DescriptorField &f, size_t i) {
  return f.count > 1 ? std::string(f.name) + "[" + std::to_string(i) + "]" : f.name;
}

/// A field of 8 bytes holds any int64 (its bit pattern); narrower fields hold their range.
bool fits(const DescriptorField &f, int64_t v) {
  if (f.bytes >= 8)
    return true;
  int64_t bits = 8 * f.bytes;
  if (f.isSigned)
    return v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1));
  return v >= 0 && v < (int64_t(1) << bits);
}

} // namespace

const char *dmaKindKeyword(uint32_t kind) {
  switch (static_cast<DmaKind>(kind)) {
  case DmaKind::Gather:
    return "gather";
  case DmaKind::Scatter:
    return "scatter";
  case DmaKind::TensorLoop:
    break;
  }
  return nullptr;
}

void encodeDescriptor(const Descriptor &d, uint8_t *out) {
  std::fill(out, out + kDescriptorBytes, uint8_t(0));
  size_t loops = std::min<size_t>(d.limits.size(), kDescriptorLoops);
#define RNGD_DESC_FIELD(member, name, at, width, isSigned, text, keyword)                       \
  bytes::store(out + at, static_cast<uint64_t>(d.member), width);
#define RNGD_DESC_LOOPS(name, at, width) bytes::store(out + at, loops, width);
#define RNGD_DESC_ARRAY(member, name, at, width, count, isSigned, keyword)                      \
  for (size_t i = 0; i < std::min(loops, d.member.size()); ++i)                                 \
    bytes::store(out + at + width * i, static_cast<uint64_t>(d.member[i]), width);
#include "rngd/IsaDescriptor.def"
}

std::optional<Descriptor> decodeDescriptor(const uint8_t *in, std::string &why) {
  Descriptor d;
  uint64_t loops = 0;
  // Entries past the loop count and the reserved bytes are zero: one encoding per descriptor.
#define RNGD_DESC_FIELD(member, name, at, width, isSigned, text, keyword)                       \
  d.member = static_cast<decltype(d.member)>(bytes::load(in + at, width));
#define RNGD_DESC_LOOPS(name, at, width)                                                         \
  loops = bytes::load(in + at, width);                                                           \
  if (loops > uint64_t(kDescriptorLoops)) {                                                      \
    why = "descriptor loop count " + std::to_string(loops) + " exceeds " +                       \
          std::to_string(kDescriptorLoops) + ", the record's loop entries";                      \
    return std::nullopt;                                                                         \
  }
#define RNGD_DESC_ARRAY(member, name, at, width, count, isSigned, keyword)                      \
  for (uint64_t i = 0; i < uint64_t(count); ++i) {                                               \
    uint64_t x = bytes::load(in + at + width * i, width);                                        \
    if (i < loops) {                                                                             \
      d.member.push_back(static_cast<DescriptorInt<width, isSigned>>(x));                        \
    } else if (x != 0) {                                                                         \
      why = "descriptor loop entry " + std::to_string(i) + " is past the loop count " +          \
            std::to_string(loops) + " but not zero (" name ")";                                  \
      return std::nullopt;                                                                       \
    }                                                                                            \
  }
#include "rngd/IsaDescriptor.def"
  for (size_t b = kDescriptorReservedAt; b < kDescriptorBytes; ++b)
    if (in[b] != 0) {
      why = "descriptor reserved byte " + std::to_string(b) + " is not zero";
      return std::nullopt;
    }
  return d;
}

bool checkDescriptor(const TargetModel &t, const Descriptor &d, std::string &why) {
  if (d.kind > static_cast<uint32_t>(DmaKind::Scatter))
    return fail(why, "descriptor kind " + std::to_string(d.kind) +
                         " is not 0 (tensor loop), 1 (gather) or 2 (scatter)");
  if (d.engine >= uint64_t(t.dmaEngines))
    return fail(why, "DMA engine " + std::to_string(d.engine) + " is outside 0.." +
                         std::to_string(t.dmaEngines - 1) + " (target " + t.name + " has " +
                         std::to_string(t.dmaEngines) + ")");
  if (d.packetBytes < 1)
    return fail(why, "descriptor packet size is 0");
  size_t loops = d.limits.size();
  if (loops > uint64_t(t.dmaMaxLoops))
    return fail(why, "descriptor has " + std::to_string(loops) + " loops, target " + t.name +
                         " runs at most " + std::to_string(t.dmaMaxLoops));
  if (d.srcStrides.size() != loops || d.dstStrides.size() != loops)
    return fail(why, "descriptor has " + std::to_string(loops) + " limits but " +
                         std::to_string(d.srcStrides.size()) + " source and " +
                         std::to_string(d.dstStrides.size()) + " destination strides");
  for (size_t i = 0; i < loops; ++i)
    if (d.limits[i] < 1 || d.limits[i] > uint64_t(t.dmaMaxLoopIterations))
      return fail(why, "descriptor limits[" + std::to_string(i) + "] = " +
                           std::to_string(d.limits[i]) + " is outside 1.." +
                           std::to_string(t.dmaMaxLoopIterations));
  if (d.kind == static_cast<uint32_t>(DmaKind::TensorLoop)) {
    if (d.indexAddress || d.indexCount || d.indirectLoop)
      return fail(why, "descriptor of kind 0 (tensor loop) has nonzero index fields");
    return true;
  }
  std::string kind = dmaKindKeyword(d.kind);
  if (d.indirectLoop >= loops)
    return fail(why, kind + " descriptor's indirect loop " + std::to_string(d.indirectLoop) +
                         " is not below its loop count " + std::to_string(loops));
  if (d.limits[d.indirectLoop] != d.indexCount)
    return fail(why, kind + " descriptor has index count " + std::to_string(d.indexCount) +
                         " but limits[" + std::to_string(d.indirectLoop) + "] = " +
                         std::to_string(d.limits[d.indirectLoop]));
  return true;
}

// ---- The text form --------------------------------------------------------------------------

DescriptorValues descriptorValues(const Descriptor &d) {
  DescriptorValues v;
#define RNGD_DESC_FIELD(member, name, at, width, isSigned, text, keyword)                       \
  v[row_##member] = {static_cast<int64_t>(d.member)};
#define RNGD_DESC_LOOPS(name, at, width) v[rowLoops] = {static_cast<int64_t>(d.limits.size())};
#define RNGD_DESC_ARRAY(member, name, at, width, count, isSigned, keyword)                      \
  v[row_##member].assign(d.member.begin(), d.member.end());
#include "rngd/IsaDescriptor.def"
  return v;
}

bool checkDescriptorValues(const DescriptorValues &v, std::string &why) {
  int64_t loops = v[rowLoops].empty() ? 0 : v[rowLoops][0];
  if (loops > kDescriptorLoops)
    return fail(why, "has " + std::to_string(loops) + " loops; a descriptor holds at most " +
                         std::to_string(kDescriptorLoops));
  for (size_t r = 0; r < kDescriptorFieldCount; ++r) {
    const DescriptorField &f = kDescriptorFields[r];
    size_t want = f.count > 1 ? size_t(loops) : 1;
    if (v[r].size() != want)
      return fail(why, "has " + std::to_string(loops) + " loops (" +
                           kDescriptorFields[firstList()].name + ") but " +
                           std::to_string(v[r].size()) + " " + f.name);
    for (size_t i = 0; i < v[r].size(); ++i)
      if (!fits(f, v[r][i]))
        return fail(why, label(f, i) + " = " + std::to_string(v[r][i]) + " does not fit " +
                             std::to_string(8 * f.bytes) +
                             (f.isSigned ? " signed bits" : " unsigned bits"));
  }
  return true;
}

Descriptor descriptorFromValues(const DescriptorValues &v) {
  Descriptor d;
  auto one = [&](size_t row) { return v[row].empty() ? 0 : v[row][0]; };
#define RNGD_DESC_FIELD(member, name, at, width, isSigned, text, keyword)                       \
  d.member = static_cast<decltype(d.member)>(one(row_##member));
#define RNGD_DESC_LOOPS(name, at, width)
#define RNGD_DESC_ARRAY(member, name, at, width, count, isSigned, keyword)                      \
  for (int64_t x : v[row_##member])                                                              \
    d.member.push_back(static_cast<DescriptorInt<width, isSigned>>(x));
#include "rngd/IsaDescriptor.def"
  return d;
}

std::string formatDescriptor(const DescriptorValues &v) {
  std::string s;
  auto write = [&](const DescriptorField &f, const std::vector<int64_t> &values) {
    s += (s.empty() ? "" : " ") + std::string(f.keyword) + " ";
    if (f.text != DescriptorText::List) {
      int64_t x = values.empty() ? 0 : values[0];
      s += textHex(f.text) ? formatHex(static_cast<uint64_t>(x)) : std::to_string(x);
      return;
    }
    s += "[";
    for (size_t i = 0; i < values.size(); ++i)
      s += (i ? ", " : "") + std::to_string(values[i]);
    s += "]";
  };
  const char *kind = nullptr;
  for (size_t r = 0; r < kDescriptorFieldCount; ++r) {
    DescriptorText t = kDescriptorFields[r].text;
    if (t == DescriptorText::Kind && !v[r].empty() && uint64_t(v[r][0]) <= UINT32_MAX)
      kind = dmaKindKeyword(static_cast<uint32_t>(v[r][0]));
    if (textAlways(t))
      write(kDescriptorFields[r], v[r]);
  }
  if (!kind)
    return s;
  s += std::string(" ") + kind;
  for (size_t r = 0; r < kDescriptorFieldCount; ++r)
    if (textIndirect(kDescriptorFields[r].text))
      write(kDescriptorFields[r], v[r]);
  return s;
}

} // namespace rngd::isa
