// Lazily allocated per-slice memories: DM, TRF and VRF.
#include "rngd/Simulator.h"

#include <cstring>

namespace rngd::sim {

const char *sliceMemoryName(SliceMemory m) {
  switch (m) {
  case SliceMemory::Dm:
    return "DM";
  case SliceMemory::Trf:
    return "TRF";
  case SliceMemory::Vrf:
    return "VRF";
  }
  return "?";
}

DataMemory::DataMemory(const TargetModel &t)
    : sliceBytes_(t.dmBytesPerSlice), trfBytes_(t.trfBytesPerSlice),
      vrfBytes_(t.vrfBytesPerSlice), slices_(static_cast<size_t>(t.totalSlices())),
      trf_(static_cast<size_t>(t.totalSlices())), vrf_(static_cast<size_t>(t.totalSlices())) {}

int64_t DataMemory::bytes(SliceMemory m) const {
  return m == SliceMemory::Dm ? sliceBytes_ : m == SliceMemory::Trf ? trfBytes_ : vrfBytes_;
}

uint8_t *DataMemory::memory(SliceMemory m, int64_t s) {
  auto &table = m == SliceMemory::Dm ? slices_ : m == SliceMemory::Trf ? trf_ : vrf_;
  auto &p = table[static_cast<size_t>(s)];
  if (!p)
    p.reset(new uint8_t[static_cast<size_t>(bytes(m))]()); // zero-filled
  return p.get();
}

uint8_t *DataMemory::slice(int64_t s) { return memory(SliceMemory::Dm, s); }

bool DataMemory::allocated(SliceMemory m, int64_t s) const {
  const auto &table = m == SliceMemory::Dm ? slices_ : m == SliceMemory::Trf ? trf_ : vrf_;
  return s >= 0 && s < sliceCount() && table[static_cast<size_t>(s)] != nullptr;
}

bool DataMemory::allocated(int64_t s) const { return allocated(SliceMemory::Dm, s); }

static Status checkRange(const DataMemory &dm, SliceMemory m, int64_t s, uint64_t offset,
                         uint64_t bytes) {
  if (s < 0 || s >= dm.sliceCount())
    return Status::failure(std::string(sliceMemoryName(m)) + " slice " + std::to_string(s) +
                           " does not exist (0.." + std::to_string(dm.sliceCount() - 1) + ")");
  uint64_t size = static_cast<uint64_t>(dm.bytes(m));
  if (offset > size || bytes > size - offset)
    return Status::failure(std::string(sliceMemoryName(m)) + " slice " + std::to_string(s) +
                           " range [" + std::to_string(offset) + ", +" + std::to_string(bytes) +
                           ") is outside [0, " + std::to_string(size) + ")");
  return Status::success();
}

Status DataMemory::read(SliceMemory m, int64_t s, uint64_t offset, void *dst, uint64_t bytes) {
  Status st = checkRange(*this, m, s, offset, bytes);
  if (st)
    std::memcpy(dst, memory(m, s) + offset, bytes);
  return st;
}

Status DataMemory::write(SliceMemory m, int64_t s, uint64_t offset, const void *src,
                         uint64_t bytes) {
  Status st = checkRange(*this, m, s, offset, bytes);
  if (st)
    std::memcpy(memory(m, s) + offset, src, bytes);
  return st;
}

Status DataMemory::read(int64_t s, uint64_t offset, void *dst, uint64_t bytes) {
  return read(SliceMemory::Dm, s, offset, dst, bytes);
}

Status DataMemory::write(int64_t s, uint64_t offset, const void *src, uint64_t bytes) {
  return write(SliceMemory::Dm, s, offset, src, bytes);
}

void DataMemory::clear() {
  for (auto *table : {&slices_, &trf_, &vrf_})
    for (auto &p : *table)
      p.reset();
}

} // namespace rngd::sim
