#include "qwen3/host/Collective.h"

#include "qwen3/host/Bf16.h"

namespace rngd::qwen3 {

void allReduceBf16(Collective &c, std::vector<uint16_t> &values) {
  const size_t n = values.size(), ranks = size_t(c.size());
  std::vector<uint16_t> all(n * ranks);
  c.allGather(values.data(), n * sizeof(uint16_t), all.data());
  for (size_t i = 0; i < n; ++i) {
    float sum = bf16ToFloat(all[i]);
    for (size_t r = 1; r < ranks; ++r)
      sum += bf16ToFloat(all[r * n + i]);
    values[i] = floatToBf16(sum);
  }
}

namespace {

int64_t transferCycles(const TargetModel &t, int64_t bytes) {
  return t.dmaStartupCycles + (bytes + t.pcieBytesPerCycle - 1) / t.pcieBytesPerCycle;
}

} // namespace

int64_t allReduceCycles(const TargetModel &t, int chips, int64_t bytes) {
  if (chips <= 1)
    return 0;
  const int64_t part = (bytes + chips - 1) / chips;
  return 2 * int64_t(chips - 1) * transferCycles(t, part);
}

int64_t gatherCycles(const TargetModel &t, int chips, int64_t bytesPerChip) {
  if (chips <= 1)
    return 0;
  return t.dmaStartupCycles +
         (int64_t(chips - 1) * bytesPerChip + t.pcieBytesPerCycle - 1) / t.pcieBytesPerCycle;
}

} // namespace rngd::qwen3
