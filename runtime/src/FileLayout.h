// Byte offsets of the .rngd file (docs/executable-format.md). Shared by writer and reader so
// the two cannot drift apart.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rngd::layout {

constexpr uint8_t kMagic[8] = {'R', 'N', 'G', 'D', 'E', 'X', 'E', 0};
constexpr size_t kHeaderBytes = 128;

// Header fields.
constexpr size_t kMagicAt = 0, kVersionAt = 8, kHeaderSizeAt = 12, kFileSizeAt = 16,
                 kChecksumAt = 24, kTargetHashAt = 32, kMakespanAt = 40, kHbmBytesAt = 48,
                 kFlagsAt = 56, kSectionCountAt = 60, kTargetNameAt = 64,
                 kCompilerVersionAt = 68, kKernelNameAt = 72, kReservedAt = 76;
constexpr size_t kChecksumBytes = 8; // the u64 at kChecksumAt, read as zeros when hashing

// Section table: one 24-byte entry per section, right after the header, in kind order.
constexpr size_t kSectionEntryBytes = 24;
constexpr size_t kSectionKindAt = 0, kSectionCountAt2 = 4, kSectionOffsetAt = 8,
                 kSectionSizeAt = 16;
enum SectionKind : uint32_t {
  kStrings = 1,
  kArgs = 2,
  kCommands = 3,
  kConfigs = 4,
  kDescriptors = 5,
};
constexpr uint32_t kSectionCount = 5;
constexpr size_t kSectionAlignment = 8;
const char *sectionName(uint32_t kind);

// Argument record.
constexpr size_t kMaxRank = 8;
constexpr size_t kArgShapeEntryBytes = 8; // u64 per dimension, kMaxRank entries
constexpr size_t kArgNameAt = 0, kArgMappingAt = 4, kArgKindAt = 8, kArgDTypeAt = 12,
                 kArgRankAt = 16, kArgReservedAt = 20, kArgShapeAt = 24,
                 kArgOffsetAt = kArgShapeAt + kMaxRank * kArgShapeEntryBytes,
                 kArgBytesAt = kArgOffsetAt + 8;
constexpr size_t kArgRecordBytes = kArgBytesAt + 8;

// Command record: one u32 command word (docs/isa.md, "Command words").
constexpr size_t kCommandWordBytes = 4;

// Config record: u32 unit, u32 word count, u64 partial-load mask, then the 64-bit words,
// fields packed LSB-first across them (isa::packBlock).
constexpr size_t kConfigHeaderBytes = 16; // unit id, word count, partial mask
constexpr size_t kConfigUnitAt = 0, kConfigWordCountAt = 4, kConfigMaskAt = 8;
constexpr size_t kConfigWordBytes = 8;

// Descriptor record: isa::kDescriptorBytes bytes, its fields at the offsets of
// rngd/IsaDescriptor.def (isa::kDescriptorFields; docs/isa.md, "DMA descriptors").

constexpr size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

} // namespace rngd::layout
