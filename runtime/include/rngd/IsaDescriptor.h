// DMA descriptors: the records a `dma` command starts. rngd/IsaDescriptor.def defines every
// field once; the struct, the field table, the codec and the text form below expand from it
// (docs/isa.md, "DMA descriptors"). Included by rngd/Isa.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "rngd/machine/TargetModel.h"

namespace rngd::isa {

// The encoding's capacity, not the machine's limits: the record's size and the entries of each
// per-loop array. What a descriptor may use (dmaMaxLoops, dmaMaxLoopIterations, dmaEngines)
// is the target's (checkDescriptor); a target must fit these (checkTargetEncoding).
constexpr size_t kDescriptorBytes = 256;
constexpr int kDescriptorLoops = 8;

/// Loop 0 is the outermost; each iteration moves one packet. A gather (scatter) replaces the
/// source (destination) term of the indirect loop, i * stride, by index[i]: an i32 byte offset
/// read from HBM at the index address when the DMA starts.
enum class DmaKind : uint32_t { TensorLoop = 0, Gather = 1, Scatter = 2 };
/// The text form's keyword of a kind ("gather", "scatter"); nullptr for a tensor loop, which
/// has none, and for unknown kinds.
const char *dmaKindKeyword(uint32_t kind);

/// The integer a field of `Bytes` bytes holds.
template <int Bytes, bool Signed>
using DescriptorInt =
    std::conditional_t<Bytes == 8, std::conditional_t<Signed, int64_t, uint64_t>,
                       std::conditional_t<Signed, int32_t, uint32_t>>;

/// One member per field of the table; the loop count is the arrays' length (all equal).
struct Descriptor {
#define RNGD_DESC_FIELD(member, name, at, bytes, isSigned, text, keyword)                       \
  DescriptorInt<bytes, isSigned> member = 0;
#define RNGD_DESC_LOOPS(name, at, bytes)
#define RNGD_DESC_ARRAY(member, name, at, bytes, count, isSigned, keyword)                      \
  std::vector<DescriptorInt<bytes, isSigned>> member;
#include "rngd/IsaDescriptor.def"
};

/// Where the text form writes a field after `rngd.descriptor <index>`.
enum class DescriptorText : uint8_t {
  Dec,         // `keyword <n>`
  Hex,         // `keyword 0x<hex>`
  List,        // `keyword [a, b, ...]`, one entry per loop
  Loops,       // not written: the lists' length
  Kind,        // `gather` / `scatter` after the lists (nothing for a tensor loop)
  IndirectDec, // `keyword <n>` after the kind's keyword: gather and scatter only
  IndirectHex, // `keyword 0x<hex>` likewise
};

/// Written in every descriptor's text / only after a gather's or scatter's keyword / in hex.
constexpr bool textAlways(DescriptorText t) {
  return t == DescriptorText::Dec || t == DescriptorText::Hex || t == DescriptorText::List;
}
constexpr bool textIndirect(DescriptorText t) {
  return t == DescriptorText::IndirectDec || t == DescriptorText::IndirectHex;
}
constexpr bool textHex(DescriptorText t) {
  return t == DescriptorText::Hex || t == DescriptorText::IndirectHex;
}

struct DescriptorField {
  const char *name; // rngd-mutate-exe's field and the rngd dialect's attribute
  uint16_t offset;  // byte offset in the record
  uint8_t bytes;    // of one value, little-endian
  uint8_t count;    // values: 1, or kDescriptorLoops for a per-loop array
  bool isSigned;
  DescriptorText text;
  const char *keyword; // in the text form ("" for Loops and Kind)
};

/// The rows of rngd/IsaDescriptor.def, in record order.
inline constexpr DescriptorField kDescriptorFields[] = {
#define RNGD_DESC_FIELD(member, name, at, bytes, isSigned, text, keyword)                       \
  {name, at, bytes, 1, isSigned, DescriptorText::text, keyword},
#define RNGD_DESC_LOOPS(name, at, bytes) {name, at, bytes, 1, false, DescriptorText::Loops, ""},
#define RNGD_DESC_ARRAY(member, name, at, bytes, count, isSigned, keyword)                      \
  {name, at, bytes, count, isSigned, DescriptorText::List, keyword},
#include "rngd/IsaDescriptor.def"
};
constexpr size_t kDescriptorFieldCount = sizeof(kDescriptorFields) / sizeof(DescriptorField);
/// Bytes from here to kDescriptorBytes are reserved and zero: the end of the last field.
constexpr size_t kDescriptorReservedAt =
    kDescriptorFields[kDescriptorFieldCount - 1].offset +
    size_t(kDescriptorFields[kDescriptorFieldCount - 1].bytes) *
        kDescriptorFields[kDescriptorFieldCount - 1].count;

/// Writes the record (arrays past kDescriptorLoops entries are cut: checkDescriptor first).
void encodeDescriptor(const Descriptor &d, uint8_t *out /* kDescriptorBytes */);
/// Reads a record; fails (with a reason) only where the encoding itself is broken: a loop
/// count past kDescriptorLoops, a nonzero entry past the loop count or a nonzero reserved
/// byte. What the values may be is checkDescriptor's.
std::optional<Descriptor> decodeDescriptor(const uint8_t *in, std::string &why);
/// The rules of a descriptor on `target` (writer and loader): kind 0..2, packet >= 1, equal
/// array lengths, at most target.dmaMaxLoops loops of 1..target.dmaMaxLoopIterations, an
/// engine below target.dmaEngines; kind 0 has zero index fields; kinds 1/2 have indirect loop
/// < loop count and limits[indirect loop] == index count.
bool checkDescriptor(const TargetModel &target, const Descriptor &d, std::string &why);

// ---- The text form --------------------------------------------------------------------------
/// A descriptor as the text form holds it: per table row, its value (the Loops row: the loop
/// count) or an array's entries. Values are int64 (a 64-bit field's bit pattern), wider than
/// the fields, so that checkDescriptorValues names a value that does not fit.
using DescriptorValues = std::array<std::vector<int64_t>, kDescriptorFieldCount>;
DescriptorValues descriptorValues(const Descriptor &d);
/// Every value fits its field, each array has one entry per loop and the loops fit the record.
bool checkDescriptorValues(const DescriptorValues &v, std::string &why);
/// The descriptor of values that passed checkDescriptorValues.
Descriptor descriptorFromValues(const DescriptorValues &v);
/// The text after `rngd.descriptor <index> `: "engine 0 src 0x... dst_strides [...]", then for
/// a gather or scatter " gather index 0x... count <n> loop <k>".
std::string formatDescriptor(const DescriptorValues &v);

} // namespace rngd::isa
