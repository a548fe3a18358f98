// The LM head's vocabulary tiling, shared by final_layer (which streams the tiles) and
// token_lookup (whose table is the LM head's padded buffer when the embeddings are tied).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "rngd/machine/TargetModel.h"

#include "llvm/Support/Error.h"

namespace rngd::placement::qwen3 {

struct LmHeadTiling {
  int64_t rowsPerLane; // weight rows each TRF lane holds in a full tile
  int64_t rowsPerSlice; // rowsPerLane x TRF lanes
  int64_t tileRows;    // rows of a full tile: every slice of every cluster
  int64_t fullTiles;   // full tiles in the vocabulary
  int64_t paddedVocab; // the LM head buffer's rows: the vocabulary rounded up to whole tiles
};

/// A full tile fills every TRF lane of every slice with as many rows of H as half a lane holds
/// (the other half takes the next tile while this one contracts). Fails when one row of H
/// does not fit half a lane.
llvm::Expected<LmHeadTiling> planLmHead(const Qwen3Shape &shape, const TargetModel &target);

} // namespace rngd::placement::qwen3
