// The Switch, Contraction and Transpose Engines on per-slice buffers. Each engine is planned
// once per pass (shapes, bounds, counts; every slice runs the same configuration), then run
// slice by slice on bulk buffers. Internal to rngd_sim.
#pragma once

#include "rngd/machine/TargetModel.h"
#include "rngd/Isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::sim {

// ---- Switch Engine -------------------------------------------------------------------------
struct SwitchPlan {
  isa::SwitchConfig cfg;
  int64_t ring = 1;         // slice1 x slice0
  int64_t packets = 0;      // T: packets per input slice
  int64_t outPackets = 0;   // packets per output slice
  int64_t slicesPerCluster = 256;
  isa::SliceBitmap flow{};  // output slices: every slice of a ring holding an enabled slice
};

/// Plans the switch for `packets` packets per slice from the slices `fetched` enables.
bool planSwitch(const isa::SwitchConfig &c, int64_t packets, const isa::SliceBitmap &fetched,
                const TargetModel &t, SwitchPlan &plan, std::string &why);

/// The input slice a ring position reads (global slice index), for each output slice; used to
/// find which inputs an output needs.
int64_t switchRingBase(const SwitchPlan &plan, int64_t slice);

/// Output slices with the same key receive the same packets (the broadcasts give every slice of
/// a ring, or of one of its sub-rings, one stream), so a run for one serves the others.
int64_t switchShareKey(const SwitchPlan &plan, int64_t slice);

/// Fills `out` (outPackets x packetBytes) for output slice `slice`. `in[g]` is global slice g's
/// packet stream, or nullptr for a slice the fetch bitmap does not enable (zero packets).
void runSwitch(const SwitchPlan &plan, int64_t slice, const std::vector<const uint8_t *> &in,
               int64_t packetBytes, uint8_t *out);

// ---- Contraction Engine --------------------------------------------------------------------
struct ContractLoop {
  int64_t limit, stream, trf, acc; // trip count; packet, TRF byte and slot strides
};

struct ContractPlan {
  isa::ContractConfig cfg;
  int64_t lanes = 1, segBytes = 0, elemBytes = 2, elems = 16, packetBytes = 32;
  int64_t packets = 0;        // stream packets per slice
  int64_t iterations = 0;     // product of all limits
  int64_t windows = 0;        // product of the output loops' limits
  int64_t outFlits = 0;       // windows x slots (x lanes when sequential)
  bool sequential = false;    // lane_mode 1: a flit per slot and lane
  int64_t trfLo = 0, trfHi = 0; // bytes read within each lane segment
  std::vector<ContractLoop> outer, inner; // loops with limit > 1, outermost first
};

bool planContract(const isa::ContractConfig &c, int64_t flits, const TargetModel &t,
                  int64_t maxWork, int64_t maxFlits, ContractPlan &plan, std::string &why);

/// The exponent range of some bf16 values: biased exponents of the nonzero finite normal ones,
/// and whether any is subnormal, infinite or NaN.
struct Bf16Exponents {
  int lo = 255, hi = 0; // lo > hi: no nonzero value
  bool special = false;
  /// Adds the n values at p (little-endian bf16).
  void add(const uint8_t *p, int64_t n);
};

/// Whether the host's bf16 pair dot product (AVX512-BF16 `vdpbf16ps` into -0, which flushes
/// subnormal inputs and results to zero) gives the packet reducer's first level, x0 w0 + x1 w1
/// with exact products and one rounding, bit for bit for every pair drawn from `x` and `w`:
/// no special value, and every nonzero product in [2^-112, 2^126) (|x w| < 2^(ex + ew + 2)), so
/// a product is exact (16 significant bits), a nonzero sum of two is a multiple of 2^-126 (never
/// subnormal) and none overflows.
inline bool pairDotExact(const Bf16Exponents &x, const Bf16Exponents &w) {
  if (x.special || w.special)
    return false;
  if (x.lo > x.hi || w.lo > w.hi)
    return true; // every product is a zero
  constexpr int bias2 = 2 * 127; // biased ex + ew = unbiased ex + ew + 254
  return x.lo + w.lo >= bias2 - 112 && x.hi + w.hi <= bias2 + 124;
}

/// Whether this host has the bf16 pair dot product (the simulator then uses it where
/// pairDotExact holds).
bool hostHasBf16PairDot();

class ContractRunner {
public:
  explicit ContractRunner(const ContractPlan &plan) : p_(plan) {}
  /// `flits`: the slice's collected stream; `trf`: its Tensor Register File. Replaces the
  /// stream by the output flits (32 valid bytes each).
  void run(std::vector<uint32_t> &flits, const uint8_t *trf);

private:
  const ContractPlan &p_;
  std::vector<float> streamF_;
  std::vector<float> weightsF_; // bf16: the lanes' TRF read range, widened to f32, [element][lane]
  std::vector<uint32_t> weightPairs_; // bf16: the same range as element pairs (e, e + 1), [element][lane]
  std::vector<uint8_t> pairDot_; // bf16: per packet, whether pairDotExact holds for it
  std::vector<int32_t> streamI_;
  std::vector<uint32_t> out_;
};

// ---- Transpose Engine ----------------------------------------------------------------------
struct TransposePlan {
  isa::TransposeConfig cfg;
  int64_t elemBytes = 1, packetsPerCol = 1, groups = 0, outFlits = 0;
};

bool planTranspose(const isa::TransposeConfig &c, int64_t flits, TransposePlan &plan,
                   std::string &why);

/// Transposes every group of in_rows x packets_per_col flits into out_rows flits.
void runTranspose(const TransposePlan &plan, std::vector<uint32_t> &flits,
                  std::vector<uint32_t> &scratch);

} // namespace rngd::sim
