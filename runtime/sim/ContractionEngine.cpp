// The Contraction Engine (docs/simulator.md, "Contraction Engine"): stream adapter (pack flits
// into packets), TRF sequencer (8-loop nest over packet index, TRF byte offset and accumulator
// slot), multiplier, packet reducer (pairwise tree) and time reducer (window accumulation).
#include "Engines.h"

#include "rngd/Bf16.h"

#include <algorithm>
#include <cstring>

namespace rngd::sim {
namespace {

bool fail(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

// Pairwise tree over the products, level by level (v[j] = v[2j] + v[2j+1]); n is 16 or 32
// (bf16) or 32 or 64 (i8).
inline float treeF(float *v, int64_t n) {
  float w[32];
  for (; n > 1; n /= 2) {
    int64_t half = n / 2;
    for (int64_t j = 0; j < half; ++j)
      w[j] = v[2 * j] + v[2 * j + 1];
    std::memcpy(v, w, sizeof(float) * static_cast<size_t>(half));
  }
  return v[0];
}

inline uint32_t treeI(uint32_t *v, int64_t n) {
  uint32_t w[32];
  for (; n > 1; n /= 2) {
    int64_t half = n / 2;
    for (int64_t j = 0; j < half; ++j)
      w[j] = v[2 * j] + v[2 * j + 1];
    std::memcpy(v, w, sizeof(uint32_t) * static_cast<size_t>(half));
  }
  return v[0];
}

/// Calls f(stream, trf, acc) for every index tuple of `loops` (outermost first), offsets added
/// to the given bases.
template <typename F>
void walk(const std::vector<ContractLoop> &loops, int64_t s0, int64_t r0, int64_t a0, F &&f) {
  size_t n = loops.size();
  if (n == 0) {
    f(s0, r0, a0);
    return;
  }
  int64_t idx[isa::kSequencerLoops] = {};
  int64_t s = s0, r = r0, a = a0;
  const ContractLoop &last = loops[n - 1];
  for (;;) {
    int64_t si = s, ri = r, ai = a;
    for (int64_t i = 0; i < last.limit; ++i, si += last.stream, ri += last.trf, ai += last.acc)
      f(si, ri, ai);
    size_t k = n - 1;
    for (; k-- > 0;) {
      const ContractLoop &l = loops[k];
      s += l.stream, r += l.trf, a += l.acc;
      if (++idx[k] < l.limit)
        break;
      s -= l.stream * l.limit, r -= l.trf * l.limit, a -= l.acc * l.limit;
      idx[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

} // namespace

bool planContract(const isa::ContractConfig &c, int64_t flits, const TargetModel &t,
                  int64_t maxWork, int64_t maxFlits, ContractPlan &p, std::string &why) {
  p = ContractPlan();
  p.cfg = c;
  p.lanes = int64_t(1) << c.lanesLog2;
  p.segBytes = t.trfBytesPerSlice >> c.lanesLog2;
  p.elemBytes = c.mac == isa::MacType::Bf16 ? 2 : 1;
  p.elems = c.packetElems;
  p.packetBytes = c.pack * t.flitBytes;
  if (p.lanes > t.trfLanes)
    return fail(why, "contract uses " + std::to_string(p.lanes) + " lanes, the target has " +
                         std::to_string(t.trfLanes));
  if (flits % c.pack != 0)
    return fail(why, "contract packs " + std::to_string(c.pack) + " flits per packet, but the "
                     "stream has " + std::to_string(flits) + " flits per slice");
  p.packets = flits / c.pack;

  // Bounds of the three index streams: each is linear in the loop indices, so its extremes are
  // reached at corners of the nest and checking them checks every iteration.
  int64_t sLo = 0, sHi = 0, rLo = c.trfBase, rHi = c.trfBase;
  p.iterations = 1;
  p.windows = 1;
  for (int k = 0; k < isa::kSequencerLoops; ++k) {
    int64_t span = c.limits[k] - 1;
    (c.streamStrides[k] < 0 ? sLo : sHi) += span * c.streamStrides[k];
    (c.trfStrides[k] < 0 ? rLo : rHi) += span * c.trfStrides[k];
    p.iterations = p.iterations > maxWork / c.limits[k] ? maxWork + 1
                                                        : p.iterations * c.limits[k];
    if (c.limits[k] > 1)
      (k < c.window ? p.outer : p.inner)
          .push_back({c.limits[k], c.streamStrides[k], c.trfStrides[k], c.accStrides[k]});
  }
  if (p.iterations > maxWork)
    return fail(why, "contract nest makes more than " + std::to_string(maxWork) +
                         " iterations per slice, over the simulator's per-command cap");
  for (int k = 0; k < c.window; ++k) // no overflow: windows <= iterations <= maxWork
    p.windows *= c.limits[k];
  if (sLo < 0 || sHi >= p.packets)
    return fail(why, "contract stream packet index reaches [" + std::to_string(sLo) + ", " +
                         std::to_string(sHi) + "], outside the " + std::to_string(p.packets) +
                         " packets of the stream");
  if (c.trfBase % p.elemBytes != 0 ||
      std::any_of(c.trfStrides.begin(), c.trfStrides.end(),
                  [&](int64_t s) { return s % p.elemBytes != 0; }))
    return fail(why, "contract TRF base and strides must be multiples of the " +
                         std::to_string(p.elemBytes) + "-byte element");
  int64_t readBytes = p.elems * p.elemBytes;
  if (rLo < 0 || rHi + readBytes > p.segBytes)
    return fail(why, "contract reads TRF bytes [" + std::to_string(rLo) + ", " +
                         std::to_string(rHi + readBytes) + ") of each lane segment, outside [0, " +
                         std::to_string(p.segBytes) + ") (" + std::to_string(p.lanes) +
                         " lanes)");
  p.trfLo = rLo;
  p.trfHi = rHi + readBytes;
  if (p.windows > maxFlits / c.slots)
    return fail(why, "contract emits more than " + std::to_string(maxFlits) +
                         " flits per slice, over the simulator's limit");
  p.outFlits = p.windows * c.slots;
  return true;
}

void ContractRunner::run(std::vector<uint32_t> &flits, const uint8_t *trf) {
  const ContractPlan &p = p_;
  const isa::ContractConfig &c = p.cfg;
  int64_t e = p.elems, lanes = p.lanes, slots = c.slots;
  const auto *bytes = reinterpret_cast<const uint8_t *>(flits.data());
  bool bf16 = c.mac == isa::MacType::Bf16;
  // The stream adapter's packets, widened once: packet s is elements [s*e, (s+1)*e).
  size_t total = static_cast<size_t>(p.packets * e);
  if (bf16) {
    streamF_.resize(total);
    for (size_t i = 0; i < total; ++i) {
      uint16_t b;
      std::memcpy(&b, bytes + 2 * i, 2);
      streamF_[i] = bf16ToF32(b);
    }
  } else {
    streamI_.resize(total);
    for (size_t i = 0; i < total; ++i)
      streamI_[i] = static_cast<int8_t>(bytes[i]);
  }
  out_.assign(static_cast<size_t>(p.outFlits * 8), 0);
  std::vector<float> accF(static_cast<size_t>(slots * 8));
  std::vector<uint32_t> accI(static_cast<size_t>(slots * 8));
  int64_t window = 0;
  walk(p.outer, 0, c.trfBase, 0, [&](int64_t s0, int64_t r0, int64_t a0) {
    std::fill(accF.begin(), accF.end(), 0.0f);
    std::fill(accI.begin(), accI.end(), 0u);
    walk(p.inner, s0, r0, a0, [&](int64_t s, int64_t r, int64_t a) {
      for (int64_t l = 0; l < lanes; ++l) {
        const uint8_t *t = trf + l * p.segBytes + r;
        if (bf16) {
          const float *x = streamF_.data() + s * e;
          uint16_t w[32];
          float v[32];
          std::memcpy(w, t, static_cast<size_t>(2 * e));
          for (int64_t j = 0; j < e; ++j)
            v[j] = x[j] * bf16ToF32(w[j]); // exact: 8-bit x 8-bit significands fit f32
          accF[static_cast<size_t>(a * 8 + l)] += treeF(v, e);
        } else {
          const int32_t *x = streamI_.data() + s * e;
          uint32_t v[64];
          for (int64_t j = 0; j < e; ++j)
            v[j] = static_cast<uint32_t>(x[j] * static_cast<int8_t>(t[j]));
          uint32_t w[32];
          for (int64_t j = 0; j < e / 2; ++j) // first tree level, then the common tree
            w[j] = v[2 * j] + v[2 * j + 1];
          accI[static_cast<size_t>(a * 8 + l)] += treeI(w, e / 2);
        }
      }
    });
    // The window is complete: emit one flit per slot, lanes in order, unused lanes zero.
    uint32_t *o = out_.data() + window * slots * 8;
    for (int64_t a = 0; a < slots; ++a)
      for (int64_t l = 0; l < lanes; ++l) {
        size_t i = static_cast<size_t>(a * 8 + l);
        if (bf16)
          std::memcpy(&o[i], &accF[i], 4);
        else
          o[i] = accI[i];
      }
    ++window;
  });
  flits.swap(out_);
}

} // namespace rngd::sim
