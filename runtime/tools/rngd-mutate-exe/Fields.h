// Where every field of a .rngd file lives (docs/executable-format.md), derived from the layout
// the reader and writer share (runtime/src/FileLayout.h), the command word layout (rngd/Isa.h)
// and the configuration unit tables (rngd/IsaUnits.def). A field is a run of bits in the file:
// byte fields are whole little-endian integers, command and configuration fields are bit
// ranges (LSB-first, as the codecs pack them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::mutate {

struct Field {
  std::string name;        // "descriptor[0].limits[1]", "config[2].fetch.strides[0]"
  std::string group;       // summary row: "header", "section table", "argument", ...
  std::string kind;        // finer summary row: the name without indices ("descriptor.limits")
  uint64_t byteOffset = 0; // the byte holding the field's lowest bit
  unsigned bitShift = 0;   // 0..7: the lowest bit's position in that byte
  unsigned bits = 0;       // 1..64
  bool isSigned = false;
  bool isChecksum = false; // header.checksum: recomputed after every other change
  bool reserved = false;   // must be zero: any set bit is the same defect to the loader
  /// Forms of the name a loader message uses for this field ("descriptor 0", "limits[1]"): a
  /// message naming any of them names the field.
  std::vector<std::string> keywords;
  bool byteAligned() const { return bitShift == 0 && bits % 8 == 0; }
};

/// Every field of `file`, in file order within each record kind (header, section table,
/// arguments, commands, configuration blocks, descriptors). `file` must be an executable the
/// loader accepts (the map follows its section table and records); false and a message
/// otherwise.
bool mapFields(const std::vector<uint8_t> &file, std::vector<Field> &out, std::string &why);

/// The field's raw bits (zero-extended) and a write of raw bits (which must fit its width).
uint64_t readRaw(const std::vector<uint8_t> &file, const Field &f);
void writeRaw(std::vector<uint8_t> &file, const Field &f, uint64_t raw);

/// All-ones of the field's width.
uint64_t widthMask(const Field &f);
/// The value as a reader sees it: unsigned decimal, or signed decimal for signed fields.
std::string formatValue(const Field &f, uint64_t raw);
/// "0x1a8" for byte fields, "0x1a8.3" (byte.bit) for bit ranges.
std::string formatOffset(const Field &f);
/// "4" (bytes) for byte fields, "17b" (bits) for bit ranges.
std::string formatWidth(const Field &f);
/// Parses decimal, negative decimal or 0x hex text into the field's raw bits. Unsigned fields
/// take 0..2^bits-1; signed fields -2^(bits-1)..2^bits-1 (values from 2^(bits-1) are raw bits).
bool parseValue(const Field &f, const std::string &text, uint64_t &raw, std::string &why);

/// Stores the FNV-1a checksum of the file (computed with the checksum field zero) in the header.
void recomputeChecksum(std::vector<uint8_t> &file);

} // namespace rngd::mutate
