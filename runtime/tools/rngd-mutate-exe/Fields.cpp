#include "Fields.h"

#include "Bytes.h"
#include "FileLayout.h"
#include "rngd/Executable.h"
#include "rngd/Isa.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace rngd::mutate {
namespace {

using namespace layout;

std::string indexed(const std::string &name, size_t i) {
  return name + "[" + std::to_string(i) + "]";
}

/// Appends fields to one list, each record's under its name prefix and summary group.
class FieldList {
public:
  explicit FieldList(std::vector<Field> &out) : out_(out) {}

  /// Starts a record: fields added next are named `prefix.leaf`, summarised under `group`.
  void record(std::string prefix, std::string kindPrefix, std::string group,
              std::vector<std::string> keywords) {
    prefix_ = std::move(prefix);
    kindPrefix_ = std::move(kindPrefix);
    group_ = std::move(group);
    keywords_ = std::move(keywords);
  }

  /// A little-endian integer of `bytes` bytes at `at`.
  Field &bytesAt(const std::string &leaf, const std::string &kindLeaf, uint64_t at,
                 unsigned bytes, bool isSigned = false) {
    return bitsAt(leaf, kindLeaf, at * 8, bytes * 8, isSigned);
  }

  /// `bits` bits starting at absolute bit position `bit` of the file (LSB-first).
  Field &bitsAt(const std::string &leaf, const std::string &kindLeaf, uint64_t bit,
                unsigned bits, bool isSigned = false) {
    Field f;
    f.name = leaf.empty() ? prefix_ : prefix_ + "." + leaf;
    f.kind = kindLeaf.empty() ? kindPrefix_ : kindPrefix_ + "." + kindLeaf;
    f.group = group_;
    f.byteOffset = bit / 8;
    f.bitShift = static_cast<unsigned>(bit % 8);
    f.bits = bits;
    f.isSigned = isSigned;
    f.keywords = keywords_;
    if (!leaf.empty())
      f.keywords.push_back(leaf);
    out_.push_back(std::move(f));
    return out_.back();
  }

private:
  std::vector<Field> &out_;
  std::string prefix_, kindPrefix_, group_;
  std::vector<std::string> keywords_;
};

unsigned bitIndex(uint32_t singleBit) { return static_cast<unsigned>(__builtin_ctz(singleBit)); }

void headerFields(FieldList &l) {
  struct Entry {
    const char *leaf;
    size_t at;
    unsigned bytes;
    const char *keyword; // how the loader's message names it
  };
  const Entry entries[] = {
      {"magic", kMagicAt, sizeof kMagic, "magic"},
      {"version", kVersionAt, 4, "format version"},
      {"header_size", kHeaderSizeAt, 4, "header size"},
      {"file_size", kFileSizeAt, 8, "header says"},
      {"checksum", kChecksumAt, kChecksumBytes, "checksum"},
      {"target_hash", kTargetHashAt, 8, "target hash"},
      {"makespan", kMakespanAt, 8, "makespan"},
      {"hbm_bytes", kHbmBytesAt, 8, "HBM"},
      {"flags", kFlagsAt, 4, "flags"},
      {"section_count", kSectionCountAt, 4, "section count"},
      {"target_name", kTargetNameAt, 4, "target name"},
      {"compiler_version", kCompilerVersionAt, 4, "compiler version"},
      {"kernel_name", kKernelNameAt, 4, "kernel name"},
  };
  for (const Entry &e : entries) {
    l.record("header", "header", "header", {e.keyword});
    Field &f = l.bytesAt(e.leaf, e.leaf, e.at, e.bytes);
    f.isChecksum = e.at == kChecksumAt;
  }
  l.record("header", "header", "header", {"reserved"});
  for (size_t at = kReservedAt, i = 0; at < kHeaderBytes; at += 4, ++i)
    l.bytesAt(indexed("reserved", i), "reserved", at, 4).reserved = true;
}

void sectionTableFields(FieldList &l) {
  for (uint32_t i = 0; i < kSectionCount; ++i) {
    std::string name = sectionName(i + 1);
    uint64_t at = kHeaderBytes + uint64_t(i) * kSectionEntryBytes;
    l.record("section." + name, "section", "section table",
             {"section '" + name + "'", "section table entry " + std::to_string(i)});
    l.bytesAt("kind", "kind", at + kSectionKindAt, 4);
    l.bytesAt("count", "count", at + kSectionCountAt2, 4);
    l.bytesAt("offset", "offset", at + kSectionOffsetAt, 8);
    l.bytesAt("size", "size", at + kSectionSizeAt, 8);
  }
}

/// The section table entry of `kind` (the file is valid: the entry is where the layout says).
void section(const std::vector<uint8_t> &file, uint32_t kind, uint64_t &offset,
             uint32_t &count) {
  const uint8_t *e = file.data() + kHeaderBytes + uint64_t(kind - 1) * kSectionEntryBytes;
  offset = bytes::load64(e + kSectionOffsetAt);
  count = bytes::load32(e + kSectionCountAt2);
}

void argumentFields(const std::vector<uint8_t> &file, FieldList &l) {
  uint64_t base;
  uint32_t count;
  section(file, kArgs, base, count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = base + uint64_t(i) * kArgRecordBytes;
    l.record(indexed("arg", i), "arg", "argument", {"argument #" + std::to_string(i)});
    l.bytesAt("name", "name", at + kArgNameAt, 4);
    l.bytesAt("mapping", "mapping", at + kArgMappingAt, 4);
    l.bytesAt("kind", "kind", at + kArgKindAt, 4);
    l.bytesAt("dtype", "dtype", at + kArgDTypeAt, 4);
    l.bytesAt("rank", "rank", at + kArgRankAt, 4);
    l.bytesAt("reserved", "reserved", at + kArgReservedAt, 4).reserved = true;
    for (size_t d = 0; d < kMaxRank; ++d)
      l.bytesAt(indexed("shape", d), "shape", at + kArgShapeAt + kArgShapeEntryBytes * d,
                kArgShapeEntryBytes);
    l.bytesAt("offset", "offset", at + kArgOffsetAt, 8);
    l.bytesAt("bytes", "bytes", at + kArgBytesAt, 8);
  }
}

/// A bit range [lo, lo + bits) of the command word at byte `at`.
void wordBits(FieldList &l, const char *leaf, uint64_t at, unsigned lo, unsigned bits) {
  l.bitsAt(leaf, leaf, at * 8 + lo, bits);
}

void commandFields(const std::vector<uint8_t> &file, FieldList &l) {
  uint64_t base;
  uint32_t count;
  section(file, kCommands, base, count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = base + uint64_t(i) * kCommandWordBytes;
    l.record(indexed("command", i), "command", "command", {"command #" + std::to_string(i)});
    l.bytesAt("", "word", at, kCommandWordBytes);
    wordBits(l, "opcode", at, isa::kOpcodeShift, isa::kOpcodeBits);
    std::string why;
    auto cmd = isa::decode(bytes::load32(file.data() + at), why);
    if (!cmd) // the loader accepted the file: unreachable
      continue;
    unsigned context = bitIndex(isa::kContextBit), bank = bitIndex(isa::kBankBit);
    switch (cmd->opcode) {
    case isa::Opcode::Config:
      wordBits(l, "context", at, context, 1);
      wordBits(l, "bank", at, bank, 1);
      wordBits(l, "config", at, 0, bitIndex(isa::kConfigIndexMask + 1));
      break;
    case isa::Opcode::Exec:
      wordBits(l, "context", at, context, 1);
      wordBits(l, "bank", at, bank, 1);
      wordBits(l, "units", at, 0, isa::kUnitBits);
      break;
    case isa::Opcode::Wait:
      wordBits(l, "on_tag", at, bitIndex(isa::kWaitTagBit), 1);
      if (cmd->waitOnTag)
        wordBits(l, "tag", at, 0, bitIndex(isa::kWaitTagFieldMask + 1));
      else
        wordBits(l, "context", at, context, 1);
      break;
    case isa::Opcode::Dma:
      wordBits(l, "descriptor", at, isa::kDmaIndexShift,
               bitIndex(isa::kMaxDescriptorIndex + 1));
      wordBits(l, "tag", at, 0, bitIndex(isa::kTagMask + 1));
      break;
    }
  }
}

/// The packed register fields of one block (isa::packBlock's order), then its unused bits.
void configWordFields(FieldList &l, const isa::UnitSpec &spec, uint64_t wordsAt,
                      uint32_t words) {
  uint64_t bit = wordsAt * 8, used = 0;
  for (const isa::FieldSpec &f : spec.fields)
    for (unsigned k = 0; k < f.count; ++k, used += f.bits) {
      std::string leaf = std::string(spec.name) + "." + f.name;
      l.bitsAt(f.count > 1 ? indexed(leaf, k) : leaf, leaf, bit + used, f.bits, f.isSigned);
    }
  uint64_t total = uint64_t(words) * kConfigWordBytes * 8;
  for (uint64_t u = 0; used < total; ++u) { // at most 64 bits per field
    unsigned bits = static_cast<unsigned>(std::min<uint64_t>(64, total - used));
    l.bitsAt(indexed(std::string(spec.name) + ".unused", u), "unused", bit + used, bits)
        .reserved = true;
    used += bits;
  }
}

void configFields(const std::vector<uint8_t> &file, FieldList &l) {
  uint64_t at;
  uint32_t count;
  section(file, kConfigs, at, count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t unit = bytes::load32(file.data() + at + kConfigUnitAt);
    uint32_t words = bytes::load32(file.data() + at + kConfigWordCountAt);
    const isa::UnitSpec *spec = isa::findUnit(static_cast<isa::Unit>(unit));
    std::string unitName = spec ? spec->name : "unknown";
    l.record(indexed("config", i), "config", "config " + unitName,
             {"config block " + std::to_string(i)});
    l.bytesAt("unit", "unit", at + kConfigUnitAt, 4);
    l.bytesAt("word_count", "word_count", at + kConfigWordCountAt, 4);
    l.bytesAt("mask", "mask", at + kConfigMaskAt, 8);
    if (spec)
      configWordFields(l, *spec, at + kConfigHeaderBytes, words);
    at += kConfigHeaderBytes + uint64_t(words) * kConfigWordBytes;
  }
}

void descriptorFields(const std::vector<uint8_t> &file, FieldList &l) {
  uint64_t base;
  uint32_t count;
  section(file, kDescriptors, base, count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = base + uint64_t(i) * isa::kDescriptorBytes;
    l.record(indexed("descriptor", i), "descriptor", "descriptor",
             {"descriptor " + std::to_string(i)});
    for (const isa::DescriptorField &f : isa::kDescriptorFields) // rngd/IsaDescriptor.def
      for (unsigned k = 0; k < f.count; ++k)
        l.bytesAt(f.count > 1 ? indexed(f.name, k) : f.name, f.name,
                  at + f.offset + uint64_t(f.bytes) * k, f.bytes, f.isSigned);
    for (uint64_t r = isa::kDescriptorReservedAt, j = 0; r < isa::kDescriptorBytes; r += 8, ++j)
      l.bytesAt(indexed("reserved", j), "reserved", at + r,
                static_cast<unsigned>(std::min<uint64_t>(8, isa::kDescriptorBytes - r)))
          .reserved = true;
  }
}

} // namespace

bool mapFields(const std::vector<uint8_t> &file, std::vector<Field> &out, std::string &why) {
  Executable exe;
  if (!readExecutable(file, exe, why))
    return false;
  out.clear();
  FieldList l(out);
  headerFields(l);
  sectionTableFields(l);
  argumentFields(file, l);
  commandFields(file, l);
  configFields(file, l);
  descriptorFields(file, l);
  return true;
}

uint64_t widthMask(const Field &f) {
  return f.bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << f.bits) - 1;
}

uint64_t readRaw(const std::vector<uint8_t> &file, const Field &f) {
  uint64_t raw = 0;
  uint64_t first = f.byteOffset * 8 + f.bitShift;
  for (unsigned i = 0; i < f.bits; ++i) {
    uint64_t bit = first + i;
    raw |= uint64_t((file[bit / 8] >> (bit % 8)) & 1) << i;
  }
  return raw;
}

void writeRaw(std::vector<uint8_t> &file, const Field &f, uint64_t raw) {
  uint64_t first = f.byteOffset * 8 + f.bitShift;
  for (unsigned i = 0; i < f.bits; ++i) {
    uint64_t bit = first + i;
    uint8_t m = static_cast<uint8_t>(1u << (bit % 8));
    if ((raw >> i) & 1)
      file[bit / 8] |= m;
    else
      file[bit / 8] &= static_cast<uint8_t>(~m);
  }
}

std::string formatValue(const Field &f, uint64_t raw) {
  if (f.isSigned && f.bits < 64 && (raw >> (f.bits - 1)) & 1)
    return std::to_string(static_cast<int64_t>(raw | ~widthMask(f)));
  if (f.isSigned && f.bits == 64)
    return std::to_string(static_cast<int64_t>(raw));
  return std::to_string(raw);
}

std::string formatOffset(const Field &f) {
  return formatHex(f.byteOffset) + (f.byteAligned() ? "" : "." + std::to_string(f.bitShift));
}

std::string formatWidth(const Field &f) {
  return f.byteAligned() ? std::to_string(f.bits / 8) : std::to_string(f.bits) + "b";
}

bool parseValue(const Field &f, const std::string &text, uint64_t &raw, std::string &why) {
  bool negative = !text.empty() && text[0] == '-';
  std::string digits = negative ? text.substr(1) : text;
  bool hex = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  const char *begin = digits.c_str() + (hex ? 2 : 0);
  bool allDigits = *begin != 0;
  for (const char *p = begin; *p; ++p)
    allDigits &= hex ? std::isxdigit(static_cast<unsigned char>(*p)) != 0
                     : std::isdigit(static_cast<unsigned char>(*p)) != 0;
  errno = 0;
  uint64_t magnitude = allDigits ? std::strtoull(begin, nullptr, hex ? 16 : 10) : 0;
  auto fail = [&](const std::string &m) {
    why = "value '" + text + "' for " + f.name + " (" + std::to_string(f.bits) +
          (f.isSigned ? " bits, signed" : " bits, unsigned") + "): " + m;
    return false;
  };
  if (!allDigits)
    return fail("not a decimal or 0x hexadecimal integer");
  if (errno == ERANGE)
    return fail("does not fit 64 bits");
  uint64_t mask = widthMask(f);
  if (negative) {
    uint64_t limit = f.bits >= 64 ? uint64_t(1) << 63 : uint64_t(1) << (f.bits - 1);
    if (!f.isSigned)
      return fail("negative, but the field is unsigned (0.." + std::to_string(mask) + ")");
    if (magnitude > limit)
      return fail("below the field's minimum -" + std::to_string(limit));
    raw = (~magnitude + 1) & mask;
    return true;
  }
  if (magnitude > mask)
    return fail("past the field's maximum " + std::to_string(mask));
  raw = magnitude;
  return true;
}

void recomputeChecksum(std::vector<uint8_t> &file) {
  bytes::store64(file.data() + kChecksumAt, 0);
  bytes::store64(file.data() + kChecksumAt, fnv1a64(file.data(), file.size()));
}

} // namespace rngd::mutate
