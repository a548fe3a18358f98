// Lazily allocated per-slice memories: DM, TRF and VRF, one zero-filled region per kind.
#include "rngd/Simulator.h"

#include <cstdlib>
#include <cstring>
#include <new>

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
      vrfBytes_(t.vrfBytesPerSlice), slices_(t.totalSlices()) {
  for (auto &touched : touched_)
    touched.assign(static_cast<size_t>(slices_), 0);
}

int64_t DataMemory::bytes(SliceMemory m) const {
  return m == SliceMemory::Dm ? sliceBytes_ : m == SliceMemory::Trf ? trfBytes_ : vrfBytes_;
}

uint8_t *DataMemory::memory(SliceMemory m, int64_t s) {
  size_t kind = static_cast<size_t>(m);
  auto &region = region_[kind];
  size_t bytes = static_cast<size_t>(this->bytes(m));
  if (!region) {
    region.reset(static_cast<uint8_t *>(std::calloc(static_cast<size_t>(slices_), bytes)));
    if (!region)
      throw std::bad_alloc(); // the simulator reports it with the command that touched it
  }
  touched_[kind][static_cast<size_t>(s)] = 1;
  return region.get() + static_cast<size_t>(s) * bytes;
}

uint8_t *DataMemory::slice(int64_t s) { return memory(SliceMemory::Dm, s); }

bool DataMemory::allocated(SliceMemory m, int64_t s) const {
  return s >= 0 && s < sliceCount() && touched_[static_cast<size_t>(m)][static_cast<size_t>(s)];
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
  for (int k = 0; k < kKinds; ++k) {
    region_[k].reset();
    touched_[k].assign(static_cast<size_t>(slices_), 0);
  }
}

} // namespace rngd::sim
