// writeExecutable: the deterministic serialiser (docs/executable-format.md). Output depends only
// on the Executable's contents: strings are laid out in first-use order, no padding is left
// uninitialised and nothing comes from the environment.
#include "Bytes.h"
#include "FileLayout.h"
#include "rngd/Executable.h"

#include <map>

namespace rngd {
namespace {

using namespace layout;

class StringTable {
public:
  uint32_t add(const std::string &s) {
    auto it = offsets_.find(s);
    if (it != offsets_.end())
      return it->second;
    uint32_t at = static_cast<uint32_t>(blob_.size());
    blob_.insert(blob_.end(), s.begin(), s.end());
    blob_.push_back(0);
    offsets_.emplace(s, at);
    return at;
  }
  const std::vector<uint8_t> &blob() const { return blob_; }
  uint32_t count() const { return static_cast<uint32_t>(offsets_.size()); }

private:
  std::vector<uint8_t> blob_;
  std::map<std::string, uint32_t> offsets_;
};

struct Section {
  uint32_t kind;
  uint32_t count;
  std::vector<uint8_t> data;
};

std::vector<uint8_t> argRecords(const Executable &exe, StringTable &strings) {
  std::vector<uint8_t> out(exe.args.size() * kArgRecordBytes, 0);
  for (size_t i = 0; i < exe.args.size(); ++i) {
    const ArgInfo &a = exe.args[i];
    uint8_t *r = out.data() + i * kArgRecordBytes;
    bytes::store32(r + kArgNameAt, strings.add(a.name));
    bytes::store32(r + kArgMappingAt, strings.add(a.mapping));
    bytes::store32(r + kArgKindAt, static_cast<uint32_t>(a.kind));
    bytes::store32(r + kArgDTypeAt, static_cast<uint32_t>(a.dtype));
    bytes::store32(r + kArgRankAt, static_cast<uint32_t>(a.shape.size()));
    for (size_t d = 0; d < a.shape.size(); ++d)
      bytes::store64(r + kArgShapeAt + kArgShapeEntryBytes * d,
                     static_cast<uint64_t>(a.shape[d]));
    bytes::store64(r + kArgOffsetAt, a.hbmOffset);
    bytes::store64(r + kArgBytesAt, a.bytes);
  }
  return out;
}

bool configRecords(const Executable &exe, std::vector<uint8_t> &out, std::string &why) {
  for (size_t i = 0; i < exe.configs.size(); ++i) {
    const ConfigBlock &c = exe.configs[i];
    std::vector<uint64_t> words;
    if (!isa::packBlock(*isa::findUnit(c.unit), c.values, words, why)) {
      why = "config block " + std::to_string(i) + ": " + why;
      return false;
    }
    // u32 unit, u32 word count, u64 mask (kConfigUnitAt, kConfigWordCountAt, kConfigMaskAt).
    bytes::append(out, static_cast<uint32_t>(c.unit), 4);
    bytes::append(out, words.size(), 4);
    bytes::append(out, c.partialMask, 8);
    for (uint64_t w : words)
      bytes::append(out, w, kConfigWordBytes);
  }
  return true;
}

} // namespace

bool writeExecutable(const Executable &exe, std::vector<uint8_t> &out, std::string &why) {
  if (!validateExecutable(exe, why))
    return false;

  // Header strings first so that they get the lowest offsets.
  StringTable strings;
  uint32_t targetName = strings.add(exe.targetName);
  uint32_t compilerVersion = strings.add(exe.compilerVersion);
  uint32_t kernelName = strings.add(exe.kernelName);

  std::vector<Section> sections(kSectionCount);
  sections[1] = {kArgs, static_cast<uint32_t>(exe.args.size()), argRecords(exe, strings)};
  sections[0] = {kStrings, strings.count(), strings.blob()};
  sections[2] = {kCommands, static_cast<uint32_t>(exe.commands.size()), {}};
  for (uint32_t w : exe.commands)
    bytes::append(sections[2].data, w, kCommandWordBytes);
  sections[3] = {kConfigs, static_cast<uint32_t>(exe.configs.size()), {}};
  if (!configRecords(exe, sections[3].data, why))
    return false;
  sections[4] = {kDescriptors, static_cast<uint32_t>(exe.descriptors.size()),
                 std::vector<uint8_t>(exe.descriptors.size() * isa::kDescriptorBytes, 0)};
  for (size_t i = 0; i < exe.descriptors.size(); ++i)
    isa::encodeDescriptor(exe.descriptors[i],
                          sections[4].data.data() + i * isa::kDescriptorBytes);

  // Place sections back to back, each 8-byte aligned, after header and section table.
  std::vector<size_t> offsets;
  size_t at = kHeaderBytes + kSectionCount * kSectionEntryBytes;
  for (const Section &s : sections) {
    at = alignUp(at, kSectionAlignment);
    offsets.push_back(at);
    at += s.data.size();
  }
  out.assign(at, 0);
  uint8_t *h = out.data();
  std::copy(std::begin(kMagic), std::end(kMagic), h + kMagicAt);
  bytes::store32(h + kVersionAt, Executable::kFormatVersion);
  bytes::store32(h + kHeaderSizeAt, kHeaderBytes);
  bytes::store64(h + kFileSizeAt, out.size());
  bytes::store64(h + kTargetHashAt, exe.targetHash);
  bytes::store64(h + kMakespanAt, exe.predictedMakespan);
  bytes::store64(h + kHbmBytesAt, exe.hbmBytes);
  bytes::store32(h + kFlagsAt, exe.flags);
  bytes::store32(h + kSectionCountAt, kSectionCount);
  bytes::store32(h + kTargetNameAt, targetName);
  bytes::store32(h + kCompilerVersionAt, compilerVersion);
  bytes::store32(h + kKernelNameAt, kernelName);
  for (size_t i = 0; i < sections.size(); ++i) {
    uint8_t *e = h + kHeaderBytes + i * kSectionEntryBytes;
    bytes::store32(e + kSectionKindAt, sections[i].kind);
    bytes::store32(e + kSectionCountAt2, sections[i].count);
    bytes::store64(e + kSectionOffsetAt, offsets[i]);
    bytes::store64(e + kSectionSizeAt, sections[i].data.size());
    std::copy(sections[i].data.begin(), sections[i].data.end(), out.begin() + offsets[i]);
  }
  // The checksum covers the whole file with its own field zero (it still is here).
  bytes::store64(h + kChecksumAt, fnv1a64(out.data(), out.size()));
  return true;
}

} // namespace rngd
