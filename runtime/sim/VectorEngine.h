// The Vector and Cast Engines on a buffer of flits (8 x 32-bit words each).
#pragma once

#include "rngd/Isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::sim {

/// Checks that every step is one the simulator implements and that ALUs run in stage order,
/// each at most once; counts float (Way4) and integer (Way8) ALUs for the cost model.
bool checkVectorSteps(const isa::VectorConfig &v, int64_t &floatAlus, int64_t &intAlus,
                      std::string &why);

/// Applies the steps in order to `words` 32-bit words.
void applyVector(const isa::VectorConfig &v, uint32_t *words, size_t count);

/// f32 -> bf16 (round to nearest even) of each flit's first validWords[f % period] words;
/// results are packed at the start of the flit and the rest of the flit is zeroed.
void castF32ToBf16(uint32_t *flits, size_t flitCount, const std::vector<int> &validWords);

} // namespace rngd::sim
