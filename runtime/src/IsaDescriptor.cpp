// DMA descriptors: the 256-byte little-endian layout of Isa.h (docs/isa.md, "DMA descriptors").
#include "Bytes.h"
#include "FileLayout.h"
#include "rngd/Isa.h"

#include <algorithm>

namespace rngd::isa {
namespace {

// The record layout is the file's (FileLayout.h): one definition for codec and tools.
constexpr size_t kKind = layout::kDescKindAt, kEngine = layout::kDescEngineAt,
                 kSrc = layout::kDescSrcAt, kDst = layout::kDescDstAt,
                 kPacket = layout::kDescPacketAt, kLoops = layout::kDescLoopsAt,
                 kLimits = layout::kDescLimitsAt, kSrcStrides = layout::kDescSrcStridesAt,
                 kDstStrides = layout::kDescDstStridesAt,
                 kIndexAddress = layout::kDescIndexAddressAt,
                 kIndexCount = layout::kDescIndexCountAt,
                 kIndirectLoop = layout::kDescIndirectLoopAt, kReserved = layout::kDescReservedAt;
constexpr size_t kEntry = layout::kDescLoopEntryBytes;

bool checkLimit(uint64_t l, int i, std::string &why) {
  if (l >= 1 && l <= static_cast<uint64_t>(kMaxLoopLimit))
    return true;
  why = "descriptor limits[" + std::to_string(i) + "] = " + std::to_string(l) +
        " is outside 1.." + std::to_string(kMaxLoopLimit);
  return false;
}

} // namespace

bool checkDescriptor(const Descriptor &d, std::string &why) {
  if (d.kind > static_cast<uint32_t>(DmaKind::Scatter)) {
    why = "descriptor kind " + std::to_string(d.kind) +
          " is not 0 (tensor loop), 1 (gather) or 2 (scatter)";
    return false;
  }
  if (d.packetBytes < 1) {
    why = "descriptor packet size is 0";
    return false;
  }
  if (d.limits.size() > static_cast<size_t>(kMaxDmaLoops)) {
    why = "descriptor has " + std::to_string(d.limits.size()) + " loops, at most " +
          std::to_string(kMaxDmaLoops);
    return false;
  }
  if (d.srcStrides.size() != d.limits.size() || d.dstStrides.size() != d.limits.size()) {
    why = "descriptor has " + std::to_string(d.limits.size()) + " limits but " +
          std::to_string(d.srcStrides.size()) + " source and " +
          std::to_string(d.dstStrides.size()) + " destination strides";
    return false;
  }
  for (size_t i = 0; i < d.limits.size(); ++i)
    if (!checkLimit(d.limits[i], static_cast<int>(i), why))
      return false;
  if (d.kind == static_cast<uint32_t>(DmaKind::TensorLoop)) {
    if (d.indexAddress || d.indexCount || d.indirectLoop) {
      why = "descriptor of kind 0 (tensor loop) has nonzero index fields";
      return false;
    }
    return true;
  }
  const char *kind = d.kind == static_cast<uint32_t>(DmaKind::Gather) ? "gather" : "scatter";
  if (d.indirectLoop >= d.limits.size()) {
    why = std::string(kind) + " descriptor's indirect loop " + std::to_string(d.indirectLoop) +
          " is not below its loop count " + std::to_string(d.limits.size());
    return false;
  }
  if (d.limits[d.indirectLoop] != d.indexCount) {
    why = std::string(kind) + " descriptor has index count " + std::to_string(d.indexCount) +
          " but limits[" + std::to_string(d.indirectLoop) + "] = " +
          std::to_string(d.limits[d.indirectLoop]);
    return false;
  }
  return true;
}

bool checkDescriptorOn(const TargetModel &target, const Descriptor &d, std::string &why) {
  if (d.engine >= uint64_t(target.dmaEngines)) {
    why = "DMA engine " + std::to_string(d.engine) + " is outside 0.." +
          std::to_string(target.dmaEngines - 1) + " (target " + target.name + " has " +
          std::to_string(target.dmaEngines) + ")";
    return false;
  }
  return checkDescriptor(d, why);
}

void encodeDescriptor(const Descriptor &d, uint8_t *out) {
  for (size_t i = 0; i < kDescriptorBytes; ++i)
    out[i] = 0;
  size_t loops = std::min<size_t>(d.limits.size(), kMaxDmaLoops);
  bytes::store32(out + kKind, d.kind);
  bytes::store32(out + kEngine, d.engine);
  bytes::store64(out + kSrc, d.src);
  bytes::store64(out + kDst, d.dst);
  bytes::store32(out + kPacket, d.packetBytes);
  bytes::store32(out + kLoops, static_cast<uint32_t>(loops));
  for (size_t i = 0; i < loops; ++i) {
    bytes::store32(out + kLimits + kEntry * i, d.limits[i]);
    if (i < d.srcStrides.size())
      bytes::store32(out + kSrcStrides + kEntry * i, static_cast<uint32_t>(d.srcStrides[i]));
    if (i < d.dstStrides.size())
      bytes::store32(out + kDstStrides + kEntry * i, static_cast<uint32_t>(d.dstStrides[i]));
  }
  bytes::store64(out + kIndexAddress, d.indexAddress);
  bytes::store32(out + kIndexCount, d.indexCount);
  bytes::store32(out + kIndirectLoop, d.indirectLoop);
}

std::optional<Descriptor> decodeDescriptor(const uint8_t *in, std::string &why) {
  Descriptor d;
  d.kind = bytes::load32(in + kKind);
  d.engine = bytes::load32(in + kEngine);
  d.src = bytes::load64(in + kSrc);
  d.dst = bytes::load64(in + kDst);
  d.packetBytes = bytes::load32(in + kPacket);
  uint32_t loops = bytes::load32(in + kLoops);
  if (loops > static_cast<uint32_t>(kMaxDmaLoops)) {
    why = "descriptor loop count " + std::to_string(loops) + " exceeds " +
          std::to_string(kMaxDmaLoops);
    return std::nullopt;
  }
  for (uint32_t i = 0; i < loops; ++i) {
    d.limits.push_back(bytes::load32(in + kLimits + kEntry * i));
    d.srcStrides.push_back(static_cast<int32_t>(bytes::load32(in + kSrcStrides + kEntry * i)));
    d.dstStrides.push_back(static_cast<int32_t>(bytes::load32(in + kDstStrides + kEntry * i)));
  }
  d.indexAddress = bytes::load64(in + kIndexAddress);
  d.indexCount = bytes::load32(in + kIndexCount);
  d.indirectLoop = bytes::load32(in + kIndirectLoop);
  // Entries past the loop count and bytes 144..255 are reserved: one encoding per descriptor.
  for (uint32_t i = loops; i < static_cast<uint32_t>(kMaxDmaLoops); ++i)
    if (bytes::load32(in + kLimits + kEntry * i) || bytes::load32(in + kSrcStrides + kEntry * i) ||
        bytes::load32(in + kDstStrides + kEntry * i)) {
      why = "descriptor loop entry " + std::to_string(i) + " is past the loop count " +
            std::to_string(loops) + " but not zero";
      return std::nullopt;
    }
  for (size_t i = kReserved; i < kDescriptorBytes; ++i)
    if (in[i] != 0) {
      why = "descriptor reserved byte " + std::to_string(i) + " is not zero";
      return std::nullopt;
    }
  if (!checkDescriptor(d, why))
    return std::nullopt;
  return d;
}

} // namespace rngd::isa
