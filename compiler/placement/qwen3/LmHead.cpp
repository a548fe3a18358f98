#include "compiler/placement/qwen3/LmHead.h"

#include "compiler/placement/StageBuilder.h"

namespace rngd::placement::qwen3 {

llvm::Expected<LmHeadTiling> planLmHead(const Qwen3Shape &shape, const TargetModel &target) {
  const int64_t laneBytes = target.trfBytesPerSlice / target.trfLanes;
  const int64_t rowBytes = shape.hidden * 2; // bf16
  LmHeadTiling t;
  t.rowsPerLane = laneBytes / 2 / rowBytes;
  if (t.rowsPerLane < 1)
    return placementError("final_layer", "a weight row fits half a TRF lane",
                          "a row of hidden " + llvm::Twine(shape.hidden) + " bf16 is " +
                              llvm::Twine(rowBytes) + " bytes, half a lane is " +
                              llvm::Twine(laneBytes / 2));
  t.rowsPerSlice = t.rowsPerLane * target.trfLanes;
  t.tileRows = t.rowsPerSlice * target.totalSlices();
  t.fullTiles = shape.vocab / t.tileRows;
  t.paddedVocab = (shape.vocab + t.tileRows - 1) / t.tileRows * t.tileRows;
  return t;
}

} // namespace rngd::placement::qwen3
