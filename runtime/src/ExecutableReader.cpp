// readExecutable: the loader's validation (docs/executable-format.md, "Validation"). Every read
// is bounds-checked against the buffer first, sizes are compared by subtraction so that no sum
// can overflow, and nothing is allocated before its byte size is known to fit the file.
#include "Bytes.h"
#include "FileLayout.h"
#include "rngd/machine/TargetModel.h"
#include "rngd/Executable.h"


namespace rngd {
namespace {

using namespace layout;

struct SectionRef {
  uint32_t kind = 0, count = 0;
  uint64_t offset = 0, size = 0;
  const uint8_t *data = nullptr;
};

class Reader {
public:
  Reader(const std::vector<uint8_t> &bytes, Executable &exe, std::string &why)
      : b_(bytes), exe_(exe), why_(why) {}

  bool run() {
    return header() && checksum() && headerFields() && sectionTable() && strings() &&
           headerStrings() && args() && commands() && configs() && descriptors() &&
           validateExecutable(exe_, why_);
  }

private:
  bool fail(const std::string &m) {
    why_ = m;
    return false;
  }

  bool header() {
    if (b_.size() < kHeaderBytes)
      return fail("truncated: file has " + std::to_string(b_.size()) + " bytes, header needs " +
                  std::to_string(kHeaderBytes));
    if (!std::equal(std::begin(kMagic), std::end(kMagic), b_.begin()))
      return fail("bad magic: not an rngd executable (expected \"RNGDEXE\\0\")");
    uint32_t version = bytes::load32(&b_[kVersionAt]);
    if (version != Executable::kFormatVersion)
      return fail("unsupported format version " + std::to_string(version) +
                  " (this runtime reads " + std::to_string(Executable::kFormatVersion) + ")");
    uint32_t headerSize = bytes::load32(&b_[kHeaderSizeAt]);
    if (headerSize != kHeaderBytes)
      return fail("header size " + std::to_string(headerSize) + " is not " +
                  std::to_string(kHeaderBytes) + " (format version 1)");
    uint64_t fileSize = bytes::load64(&b_[kFileSizeAt]);
    if (fileSize > b_.size())
      return fail("truncated: header says " + std::to_string(fileSize) + " bytes, file has " +
                  std::to_string(b_.size()));
    if (fileSize < b_.size())
      return fail("file has " + std::to_string(b_.size()) + " bytes but its header says " +
                  std::to_string(fileSize) + " (trailing bytes)");
    return true;
  }

  bool checksum() {
    uint64_t stored = bytes::load64(&b_[kChecksumAt]);
    // FNV-1a over the file with the checksum field read as zeros, without copying the file.
    uint64_t computed = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < b_.size(); ++i) {
      bool inField = i >= kChecksumAt && i < kChecksumAt + kChecksumBytes;
      computed ^= inField ? 0 : b_[i];
      computed *= 0x100000001b3ull;
    }
    if (stored != computed)
      return fail("checksum mismatch: stored " + formatHex(stored) + ", computed " + formatHex(computed));
    return true;
  }

  bool headerFields() {
    for (size_t i = kReservedAt; i < kHeaderBytes; ++i)
      if (b_[i] != 0)
        return fail("header reserved byte " + std::to_string(i) + " is not zero");
    exe_.targetHash = bytes::load64(&b_[kTargetHashAt]);
    exe_.predictedMakespan = bytes::load64(&b_[kMakespanAt]);
    exe_.hbmBytes = bytes::load64(&b_[kHbmBytesAt]);
    exe_.flags = bytes::load32(&b_[kFlagsAt]);
    return true;
  }

  bool sectionTable() {
    uint32_t n = bytes::load32(&b_[kSectionCountAt]);
    if (n != kSectionCount)
      return fail("section count " + std::to_string(n) + " is not " +
                  std::to_string(kSectionCount));
    size_t tableEnd = kHeaderBytes + kSectionCount * kSectionEntryBytes;
    if (b_.size() < tableEnd)
      return fail("truncated: file has " + std::to_string(b_.size()) +
                  " bytes, section table needs " + std::to_string(tableEnd));
    uint64_t expected = tableEnd;
    std::string previous = "the section table"; // what ends at `expected`, for messages
    for (uint32_t i = 0; i < kSectionCount; ++i) {
      const uint8_t *e = &b_[kHeaderBytes + i * kSectionEntryBytes];
      SectionRef &s = sections_[i];
      s.kind = bytes::load32(e + kSectionKindAt);
      s.count = bytes::load32(e + kSectionCountAt2);
      s.offset = bytes::load64(e + kSectionOffsetAt);
      s.size = bytes::load64(e + kSectionSizeAt);
      if (s.kind != i + 1)
        return fail("section table entry " + std::to_string(i) + " has kind " +
                    std::to_string(s.kind) + ", expected " + std::to_string(i + 1) + " (" +
                    sectionName(i + 1) + ")");
      std::string name = std::string("section '") + sectionName(s.kind) + "'";
      if (s.offset > b_.size() || s.size > b_.size() - s.offset)
        return fail(name + " [offset " + std::to_string(s.offset) + ", size " +
                    std::to_string(s.size) + ") ends past the end of the file (" +
                    std::to_string(b_.size()) + " bytes)");
      // Canonical placement: back to back, 8-byte aligned, zero padding, nothing after.
      uint64_t aligned = alignUp(expected, kSectionAlignment);
      if (s.offset != aligned)
        return fail(name + " starts at " + std::to_string(s.offset) + ", expected " +
                    std::to_string(aligned) + ", the " + std::to_string(kSectionAlignment) +
                    "-aligned end of " + previous);
      for (uint64_t p = expected; p < aligned; ++p)
        if (b_[p] != 0)
          return fail("padding byte " + std::to_string(p) + " between " + previous + " and " +
                      name + " is not zero");
      s.data = b_.data() + s.offset;
      expected = s.offset + s.size;
      previous = name + " [offset " + std::to_string(s.offset) + ", size " +
                 std::to_string(s.size) + ")";
    }
    if (expected != b_.size())
      return fail("sections end at " + std::to_string(expected) + " (" + previous +
                  " is the last) but the file has " + std::to_string(b_.size()) + " bytes");
    return true;
  }

  bool fixedRecords(const SectionRef &s, uint64_t recordBytes) {
    if (s.size / recordBytes != s.count || s.size % recordBytes != 0)
      return fail(std::string("section '") + sectionName(s.kind) + "' has " +
                  std::to_string(s.size) + " bytes for " + std::to_string(s.count) +
                  " records of " + std::to_string(recordBytes) + " bytes");
    return true;
  }

  bool strings() {
    const SectionRef &s = sections_[0];
    uint64_t terminators = 0;
    for (uint64_t i = 0; i < s.size; ++i)
      terminators += s.data[i] == 0;
    if (s.size > 0 && s.data[s.size - 1] != 0)
      return fail("section 'strings' does not end with a NUL terminator");
    if (terminators != s.count)
      return fail("section 'strings' holds " + std::to_string(terminators) +
                  " strings but its table entry says " + std::to_string(s.count));
    return true;
  }

  bool string(uint32_t offset, const char *what, std::string &out) {
    const SectionRef &s = sections_[0];
    if (offset >= s.size)
      return fail(std::string(what) + ": string offset " + std::to_string(offset) +
                  " is past the strings section (" + std::to_string(s.size) + " bytes)");
    if (offset > 0 && s.data[offset - 1] != 0)
      return fail(std::string(what) + ": string offset " + std::to_string(offset) +
                  " is not the start of a string");
    // Termination is guaranteed: the section ends with NUL (checked above).
    out.assign(reinterpret_cast<const char *>(s.data + offset));
    return true;
  }

  bool headerStrings() {
    return string(bytes::load32(&b_[kTargetNameAt]), "target name", exe_.targetName) &&
           string(bytes::load32(&b_[kCompilerVersionAt]), "compiler version",
                  exe_.compilerVersion) &&
           string(bytes::load32(&b_[kKernelNameAt]), "kernel name", exe_.kernelName) &&
           knownTarget();
  }

  /// The file names a target this runtime knows, with that target's hash.
  bool knownTarget() {
    std::string why;
    return findExecutableTarget(exe_, why) || fail(why);
  }

  bool args() {
    const SectionRef &s = sections_[1];
    if (!fixedRecords(s, kArgRecordBytes))
      return false;
    exe_.args.resize(s.count);
    for (uint32_t i = 0; i < s.count; ++i) {
      const uint8_t *r = s.data + uint64_t(i) * kArgRecordBytes;
      ArgInfo &a = exe_.args[i];
      std::string label = "argument #" + std::to_string(i);
      if (!string(bytes::load32(r + kArgNameAt), (label + " name").c_str(), a.name) ||
          !string(bytes::load32(r + kArgMappingAt), (label + " mapping").c_str(), a.mapping))
        return false;
      a.kind = static_cast<ArgKind>(bytes::load32(r + kArgKindAt));
      a.dtype = static_cast<DType>(bytes::load32(r + kArgDTypeAt));
      uint32_t rank = bytes::load32(r + kArgRankAt);
      if (rank > kMaxRank)
        return fail(label + " '" + a.name + "': rank " + std::to_string(rank) + " exceeds " +
                    std::to_string(kMaxRank));
      if (bytes::load32(r + kArgReservedAt) != 0)
        return fail(label + " '" + a.name + "': reserved field is not zero");
      for (uint32_t d = 0; d < kMaxRank; ++d) {
        uint64_t dim = bytes::load64(r + kArgShapeAt + kArgShapeEntryBytes * d);
        if (d >= rank && dim != 0)
          return fail(label + " '" + a.name + "': shape entry " + std::to_string(d) +
                      " past rank " + std::to_string(rank) + " is not zero");
        if (d < rank) {
          if (dim == 0 || dim > uint64_t(INT64_MAX))
            return fail(label + " '" + a.name + "': dimension " + std::to_string(d) +
                        " is " + std::to_string(dim));
          a.shape.push_back(static_cast<int64_t>(dim));
        }
      }
      a.hbmOffset = bytes::load64(r + kArgOffsetAt);
      a.bytes = bytes::load64(r + kArgBytesAt);
    }
    return true;
  }

  bool commands() {
    const SectionRef &s = sections_[2];
    if (!fixedRecords(s, kCommandWordBytes))
      return false;
    exe_.commands.resize(s.count);
    for (uint32_t i = 0; i < s.count; ++i)
      exe_.commands[i] = bytes::load32(s.data + uint64_t(i) * kCommandWordBytes);
    return true;
  }

  bool configs() {
    const SectionRef &s = sections_[3];
    uint64_t at = 0;
    // Each record needs at least its 16-byte header: bound the count before reserving.
    if (s.count > s.size / kConfigHeaderBytes)
      return fail("section 'configs' has " + std::to_string(s.size) + " bytes, too few for " +
                  std::to_string(s.count) + " blocks");
    exe_.configs.resize(s.count);
    for (uint32_t i = 0; i < s.count; ++i) {
      std::string label = "config block " + std::to_string(i);
      if (s.size - at < kConfigHeaderBytes)
        return fail(label + " of the " + std::to_string(s.count) + " in section 'configs': its " +
                    std::to_string(kConfigHeaderBytes) + "-byte record header at byte " +
                    std::to_string(at) + " runs past the section's " + std::to_string(s.size) +
                    " bytes");
      uint32_t unit = bytes::load32(s.data + at + kConfigUnitAt);
      uint32_t words = bytes::load32(s.data + at + kConfigWordCountAt);
      uint64_t mask = bytes::load64(s.data + at + kConfigMaskAt);
      at += kConfigHeaderBytes;
      const isa::UnitSpec *spec = isa::findUnit(static_cast<isa::Unit>(unit));
      if (!spec)
        return fail(label + ": unknown unit " + std::to_string(unit));
      if (words != isa::wordCount(*spec))
        return fail(label + " (" + spec->name + "): " + std::to_string(words) +
                    " words, the unit has " + std::to_string(isa::wordCount(*spec)));
      if ((s.size - at) / kConfigWordBytes < words)
        return fail(label + " (" + spec->name + "): its " + std::to_string(words) +
                    " words at byte " + std::to_string(at) + " run past section 'configs' (" +
                    std::to_string(s.size) + " bytes)");
      std::vector<uint64_t> raw(words);
      for (uint32_t w = 0; w < words; ++w)
        raw[w] = bytes::load64(s.data + at + kConfigWordBytes * w);
      at += uint64_t(words) * kConfigWordBytes;
      std::string bad = mask ? isa::checkPartialMask(*spec, mask) : "";
      if (!bad.empty())
        return fail(label + " (" + spec->name + "): " + bad);
      ConfigBlock &c = exe_.configs[i];
      c.unit = spec->unit;
      c.partialMask = mask;
      c.values = isa::unpackBlock(*spec, raw);
      // Bits past the last field must be zero: one encoding per block.
      std::vector<uint64_t> repacked;
      std::string inner;
      if (!isa::packBlock(*spec, c.values, repacked, inner) || repacked != raw)
        return fail(label + " (" + spec->name + "): unused bits after the last field are set");
    }
    if (at != s.size)
      return fail("section 'configs' has " + std::to_string(s.size - at) +
                  " bytes after its last block");
    return true;
  }

  bool descriptors() {
    const SectionRef &s = sections_[4];
    if (!fixedRecords(s, isa::kDescriptorBytes))
      return false;
    exe_.descriptors.reserve(s.count);
    for (uint32_t i = 0; i < s.count; ++i) {
      std::string inner;
      auto d = isa::decodeDescriptor(s.data + uint64_t(i) * isa::kDescriptorBytes, inner);
      if (!d)
        return fail("descriptor " + std::to_string(i) + ": " + inner);
      exe_.descriptors.push_back(std::move(*d));
    }
    return true;
  }

  const std::vector<uint8_t> &b_;
  Executable &exe_;
  std::string &why_;
  SectionRef sections_[kSectionCount];
};

} // namespace

bool readExecutable(const std::vector<uint8_t> &bytes, Executable &exe, std::string &why) {
  Executable parsed;
  if (!Reader(bytes, parsed, why).run())
    return false;
  exe = std::move(parsed);
  return true;
}

} // namespace rngd
