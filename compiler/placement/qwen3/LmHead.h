// The LM head's vocabulary tiling, shared by final_layer (which streams the tiles) and
// token_lookup (whose table is the LM head's padded buffer when the embeddings are tied).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "rngd/machine/TargetModel.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace rngd::placement::qwen3 {

struct LmHeadTiling {
  int64_t rowsPerLane;  // weight rows each TRF lane holds in a full tile
  int64_t rowsPerSlice; // rowsPerLane x TRF lanes
  int64_t tileRows;     // rows of a full tile: every slice of every cluster
  int64_t fullTiles;    // full tiles in the vocabulary
  int64_t paddedVocab;  // the LM head buffer's rows: the vocabulary rounded up to whole tiles
};

/// A full tile fills every TRF lane of every slice with as many rows of H as half a lane holds
/// (the other half takes the next tile while this one contracts). Fails when one row of H
/// does not fit half a lane.
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
///  - the tile before it holds the rest, one row on each of the trfLanes lanes (half a full
///    TRF load), on as many slices per cluster as that takes (rows it cannot hold whole go to
///    the last tile).
/// For 0.6B: 4480 rows = 3456 on 216 slices x 8 lanes + 1024 on 128 slices x 4 lanes. Fails
/// when the remainder is not a whole number of rows per slice or the tile before the last
/// needs more slices than a cluster has.
llvm::Expected<std::vector<LmHeadTailTile>>
planLmHeadTail(const Qwen3Shape &shape, const TargetModel &target, const LmHeadTiling &tiling);

} // namespace rngd::placement::qwen3
