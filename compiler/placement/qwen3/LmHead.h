// The LM head's vocabulary tiling, shared by final_layer (which streams the tiles) and
// token_lookup (whose table is the LM head's padded buffer when the embeddings are tied).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "rngd/machine/TargetModel.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace rngd::placement::qwen3 {

struct LmHeadTiling {
  int64_t lanes;        // TRF lanes a full tile uses on each slice (1, 2, 4 or 8)
  int64_t rowsPerLane;  // weight rows each TRF lane holds in a full tile
  int64_t rowsPerSlice; // rowsPerLane x lanes
  int64_t tileRows;     // rows of a full tile: every slice of every cluster
  int64_t fullTiles;    // full tiles in the vocabulary
  int64_t paddedVocab;  // the LM head buffer's rows: the vocabulary rounded up to whole tiles
  bool doubleBuffered;  // a tile's rows fit half of each lane (the next tile loads the other)
};

/// A full tile fills every slice of every cluster; on each slice it holds whole rows of H in
/// `lanes` TRF lanes (a tensor on fewer lanes has longer lanes: trfBytesPerSlice / lanes), and
/// at least the fewest rows a DMA stores from a slice (commitStrideAlignment / 2 bf16 results).
/// Preferred: the most lanes whose half holds a row, as many rows as fit (the other half takes
/// the next tile while this one contracts: 0.6B 8 lanes x 2 rows, 4B 4 lanes x 1); otherwise
/// the most lanes that hold a row whole, one row each, the TRF not double buffered (the next
/// tile's TRF load waits for this tile's contraction: 14B 4 lanes x 1). Every row is
/// contracted whole in one lane, in the Contraction Engine's order. Fails when no lane count
/// holds the rows a slice must store.
llvm::Expected<LmHeadTiling> planLmHead(const Qwen3Shape &shape, const TargetModel &target);

/// One tile of the rows past the last full tile: one row per TRF lane on the first
/// `slicesPerCluster` slices of every cluster.
struct LmHeadTailTile {
  int64_t rows;             // rows of the tile, split evenly over the clusters
  int64_t rowsPerSlice;     // = the TRF lanes it uses, one row each
  int64_t slicesPerCluster; // slices of each cluster that hold rows
};

/// The remainder of the vocabulary (W - fullTiles x tileRows rows; none, or one or two tiles).
/// After the last byte of the LM head arrives, the last tile still has to load into the TRF,
/// so the remainder is not one more tile of full-tile slices (a full tile's TRF load, 16 rows
/// a slice for 0.6B) but two smaller tiles, one row per TRF lane:
///  - the last tile holds the fewest rows a DMA stores from a slice (commitStrideAlignment / 2
///    bf16 rows, 4 lanes: a quarter of 0.6B's full TRF load) on the largest power of two of
///    slices per cluster whose rows stay within a quarter of the remainder (the best of the
///    last tiles measured for 0.6B, docs/performance.md: a smaller one leaves the stream's
///    end less time to bridge the previous tile's TRF load and store);
///  - the tile before it holds the rest, one row on each of the most lanes that hold a row
///    (trfLanes when a row fits trfBytesPerSlice / trfLanes: half a full TRF load), on as many
///    slices per cluster as that takes (rows it cannot hold whole go to the last tile).
/// For 0.6B: 4480 rows = 3456 on 216 slices x 8 lanes + 1024 on 128 slices x 4 lanes. Fails
/// when the remainder is not a whole number of rows per slice or the tile before the last
/// needs more slices than a cluster has.
llvm::Expected<std::vector<LmHeadTailTile>>
planLmHeadTail(const Qwen3Shape &shape, const TargetModel &target, const LmHeadTiling &tiling);

} // namespace rngd::placement::qwen3
