#include "compiler/placement/qwen3/LmHead.h"

#include "compiler/placement/StageBuilder.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

namespace rngd::placement::qwen3 {

namespace {

/// The most lanes (a power of two up to trfLanes, at least `minLanes`) whose lanes hold a row of
/// `rowBytes`, or 0.
int64_t mostLanesHolding(const TargetModel &target, int64_t rowBytes, int64_t minLanes) {
  for (int64_t lanes = target.trfLanes; lanes >= minLanes && lanes >= 1; lanes /= 2)
    if (target.trfBytesPerSlice / lanes >= rowBytes)
      return lanes;
  return 0;
}

} // namespace

llvm::Expected<LmHeadTiling> planLmHead(const Qwen3Shape &shape, const TargetModel &target) {
  const int64_t rowBytes = shape.hidden * 2;                        // bf16
  const int64_t minRowsPerSlice = target.commitStrideAlignment / 2; // bf16 results a DMA stores
  // Double buffered (rows in half of each lane) with the most lanes, else one row per lane.
  for (bool doubled : {true, false}) {
    for (int64_t lanes = target.trfLanes; lanes >= 1; lanes /= 2) {
      const int64_t laneBytes = target.trfBytesPerSlice / lanes;
      const int64_t rowsPerLane =
          doubled ? laneBytes / 2 / rowBytes : std::min<int64_t>(laneBytes / rowBytes, 1);
      if (rowsPerLane < 1 || lanes * rowsPerLane < minRowsPerSlice)
        continue;
      LmHeadTiling t;
      t.lanes = lanes;
      t.rowsPerLane = rowsPerLane;
      t.doubleBuffered = doubled;
      t.rowsPerSlice = t.rowsPerLane * lanes;
      t.tileRows = t.rowsPerSlice * target.totalSlices();
      t.fullTiles = shape.vocab / t.tileRows;
      t.paddedVocab = (shape.vocab + t.tileRows - 1) / t.tileRows * t.tileRows;
      return t;
    }
  }
  return placementError("final_layer", "a slice's TRF lanes hold the rows it stores",
                        "a row of hidden " + llvm::Twine(shape.hidden) + " bf16 is " +
                            llvm::Twine(rowBytes) + " bytes; a slice stores at least " +
                            llvm::Twine(minRowsPerSlice) + " rows, its TRF holds " +
                            llvm::Twine(target.trfBytesPerSlice) + " bytes in " +
                            llvm::Twine(target.trfLanes) + " lanes or fewer");
}

llvm::Expected<std::vector<LmHeadTailTile>>
planLmHeadTail(const Qwen3Shape &shape, const TargetModel &target, const LmHeadTiling &tiling) {
  const int64_t remainder = shape.vocab - tiling.fullTiles * tiling.tileRows;
  std::vector<LmHeadTailTile> tiles;
  if (remainder == 0)
    return tiles;
  // The last tile: the fewest bf16 rows a DMA stores from a slice, one per TRF lane.
  const int64_t lastRowsPerSlice = target.commitStrideAlignment / 2;
  const int64_t rowBytes = shape.hidden * 2;
  if (lastRowsPerSlice > target.trfLanes || target.trfLanes % lastRowsPerSlice != 0 ||
      target.trfBytesPerSlice / lastRowsPerSlice < rowBytes)
    return placementError("final_layer", "a slice's smallest stored result is one row per lane",
                          llvm::Twine(lastRowsPerSlice) + " bf16 rows of " +
                              llvm::Twine(rowBytes) + " bytes on " +
                              llvm::Twine(target.trfLanes) + " TRF lanes of " +
                              llvm::Twine(target.trfBytesPerSlice / target.trfLanes) + " bytes");
  const int64_t lastUnit = lastRowsPerSlice * target.clusters; // rows per slice of each cluster
  if (remainder % lastUnit != 0)
    return placementError("final_layer", "the remainder's rows fill whole slices",
                          llvm::Twine(remainder) + " rows past " + llvm::Twine(tiling.fullTiles) +
                              " full tiles are not a multiple of " + llvm::Twine(lastUnit) + " (" +
                              llvm::Twine(lastRowsPerSlice) + " rows on a slice of each of " +
                              llvm::Twine(target.clusters) + " clusters)");
  // A quarter of the remainder: of the last tiles measured for 0.6B (512, 1024 and 2048 of
  // its 4480 rows: 210,599, 210,325 and 210,414 cycles), the one nearest a quarter was best.
  constexpr int64_t lastShareOfRemainder = 4;
  int64_t lastSlices = std::max<int64_t>(1, remainder / lastShareOfRemainder / lastUnit);
  lastSlices = std::min<int64_t>(llvm::bit_floor(uint64_t(lastSlices)), target.slicesPerCluster);
  // The tile before it: the rest, one row on each of the most lanes that hold one (at least
  // the last tile's); what it cannot hold whole moves to the last tile.
  const int64_t middleLanes = mostLanesHolding(target, rowBytes, lastRowsPerSlice);
  const int64_t middleUnit = middleLanes * target.clusters;
  int64_t middleRows = remainder - lastSlices * lastUnit;
  lastSlices += middleRows % middleUnit / lastUnit;
  middleRows -= middleRows % middleUnit;
  const int64_t middleSlices = middleRows / middleUnit;
  if (middleSlices > target.slicesPerCluster || lastSlices > target.slicesPerCluster)
    return placementError("final_layer", "the remainder fits one row per TRF lane",
                          llvm::Twine(remainder) + " rows as " + llvm::Twine(middleRows) + " on " +
                              llvm::Twine(middleSlices) + " and " +
                              llvm::Twine(lastSlices * lastUnit) + " on " +
                              llvm::Twine(lastSlices) + " slices per cluster; a cluster has " +
                              llvm::Twine(target.slicesPerCluster));
  if (middleRows > 0)
    tiles.push_back({middleRows, middleLanes, middleSlices});
  tiles.push_back({lastSlices * lastUnit, lastRowsPerSlice, lastSlices});
  return tiles;
}

} // namespace rngd::placement::qwen3
