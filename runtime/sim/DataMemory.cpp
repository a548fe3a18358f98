// Lazily allocated per-slice Data Memory.
#include "rngd/Simulator.h"

#include <cstring>

namespace rngd::sim {

DataMemory::DataMemory(const TargetModel &t)
    : sliceBytes_(t.dmBytesPerSlice), slices_(static_cast<size_t>(t.totalSlices())) {}

uint8_t *DataMemory::slice(int64_t s) {
  auto &p = slices_[static_cast<size_t>(s)];
  if (!p)
    p.reset(new uint8_t[static_cast<size_t>(sliceBytes_)]()); // zero-filled
  return p.get();
}

bool DataMemory::allocated(int64_t s) const {
  return s >= 0 && s < sliceCount() && slices_[static_cast<size_t>(s)] != nullptr;
}

static Status checkRange(const DataMemory &dm, int64_t s, uint64_t offset, uint64_t bytes) {
  if (s < 0 || s >= dm.sliceCount())
    return Status::failure("DM slice " + std::to_string(s) + " does not exist (0.." +
                           std::to_string(dm.sliceCount() - 1) + ")");
  uint64_t size = static_cast<uint64_t>(dm.sliceBytes());
  if (offset > size || bytes > size - offset)
    return Status::failure("DM slice " + std::to_string(s) + " range [" +
                           std::to_string(offset) + ", +" + std::to_string(bytes) +
                           ") is outside [0, " + std::to_string(size) + ")");
  return Status::success();
}

Status DataMemory::read(int64_t s, uint64_t offset, void *dst, uint64_t bytes) {
  Status st = checkRange(*this, s, offset, bytes);
  if (st)
    std::memcpy(dst, slice(s) + offset, bytes);
  return st;
}

Status DataMemory::write(int64_t s, uint64_t offset, const void *src, uint64_t bytes) {
  Status st = checkRange(*this, s, offset, bytes);
  if (st)
    std::memcpy(slice(s) + offset, src, bytes);
  return st;
}

void DataMemory::clear() {
  for (auto &p : slices_)
    p.reset();
}

} // namespace rngd::sim
