// The Vector and Cast Engines on per-slice flit buffers (8 x 32-bit words per flit; each flit
// has a valid-byte count, and its bytes past it are zero). Shapes are planned once per pass
// (every slice runs the same configuration); the runners then move data slice by slice.
#pragma once

#include "rngd/Isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::sim {

/// What a 32-bit lane holds at a point of the chain; decides how Clip, the reducers and their
/// immediates read the bits.
enum class ElemType { F32, I32 };

struct VectorStepPlan {
  int64_t alu = 0, op = 0, mode = 0;
  uint32_t imm = 0, imm2 = 0;
  ElemType type = ElemType::F32; // type the step computes in
  int64_t index = 0;             // position in the block, for messages
};

struct VectorPlan {
  isa::VectorConfig cfg;
  std::vector<VectorStepPlan> pre, post; // elementwise steps before / after IntraReduce
  bool intra = false, intraTree = false, inter = false;
  int64_t intraOp = 0, interOp = 0, slots = 0, group = 1;
  ElemType intraType = ElemType::F32, interType = ElemType::F32;
  std::vector<uint8_t> validIn, validOut; // valid bytes per flit in, and after IntraReduce
  bool readsVrf = false;
  int64_t vrfLo = 0, vrfHi = 0;           // bounding VRF byte range the VRF operands read
  int64_t floatAlus = 0, intAlus = 0;     // Way4 / Way8 ALU counts for the cost model
};

/// Checks the chain against what the simulator implements and plans it for flits with
/// `validIn` valid bytes each, entering with lanes of type `input`. VRF operand reads must stay
/// inside `vrfBytes`.
bool planVector(const isa::VectorConfig &c, ElemType input, std::vector<uint8_t> validIn,
                int64_t vrfBytes, VectorPlan &plan, std::string &why);

/// Runs every step but InterReduce on one slice's flits (IntraReduce replaces them by its
/// slots). `vrf` is the slice's Vector Register File.
class VectorRunner {
public:
  explicit VectorRunner(const VectorPlan &plan) : p_(plan) {}
  void run(std::vector<uint32_t> &words, const uint8_t *vrf);

private:
  void steps(const std::vector<VectorStepPlan> &steps, uint32_t *words,
             const std::vector<uint8_t> &valid, const uint8_t *vrf);
  void intraReduce(std::vector<uint32_t> &words);
  const VectorPlan &p_;
  std::vector<uint32_t> stash_, reduced_;
};

/// InterReduce over one group of slices (slice order): every valid lane of every flit becomes
/// the pairwise-tree combination of that lane over the group, on every slice of the group.
void interReduce(const VectorPlan &plan, const std::vector<uint32_t *> &group);

/// The Cast Engine: F32ToBf16 (round to nearest even, NaN stays quiet) or I32ToI8 (saturating)
/// of each flit's valid words, packed at the start of the flit, the rest zeroed.
void castFlits(isa::CastMode mode, uint32_t *words, const std::vector<uint8_t> &validIn);

} // namespace rngd::sim
