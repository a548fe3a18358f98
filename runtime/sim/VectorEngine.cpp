// The Vector Engine's intra-slice chain and inter-slice reducer, and the Cast Engine
// (docs/simulator.md, "Vector Engine"). Built with -ffp-contract=off: every f32 operation rounds
// once, as written; Fma is std::fma on float (one rounding).
#include "VectorEngine.h"

#include "rngd/Bf16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rngd::sim {
namespace {

using isa::Alu;
using isa::VectorOp;

inline float asFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t asBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline int32_t asInt(uint32_t u) { return static_cast<int32_t>(u); }

/// f32 -> i32: round to nearest, ties to even; saturating; NaN -> 0. Independent of the host's
/// floating-point rounding mode.
uint32_t f32ToI32(uint32_t bits) {
  float x = asFloat(bits);
  if (std::isnan(x))
    return 0;
  double d = x; // exact
  double fl = std::floor(d);
  double diff = d - fl; // exact: |d| < 2^24 has a fraction, larger values are integers
  if (diff > 0.5 || (diff == 0.5 && std::fmod(fl, 2.0) != 0.0))
    fl += 1.0;
  if (fl >= 2147483647.0)
    return static_cast<uint32_t>(INT32_MAX);
  if (fl <= -2147483648.0)
    return static_cast<uint32_t>(INT32_MIN);
  return static_cast<uint32_t>(static_cast<int32_t>(fl));
}

/// The reducers' combine: Add (f32 add / i32 wrap-around add) or Max (std::fmax / signed max).
inline uint32_t combine(int64_t op, ElemType t, uint32_t a, uint32_t b) {
  if (t == ElemType::F32) {
    float x = asFloat(a), y = asFloat(b);
    return asBits(op == int64_t(VectorOp::Max) ? std::fmax(x, y) : x + y);
  }
  if (op == int64_t(VectorOp::Max))
    return static_cast<uint32_t>(std::max(asInt(a), asInt(b)));
  return a + b;
}

/// Pairwise tree over v[0..n): level by level v[j] = v[2j] op v[2j+1]; an odd last element
/// passes up unchanged. Destroys v.
uint32_t treeReduce(uint32_t *v, int64_t n, int64_t op, ElemType t) {
  while (n > 1) {
    int64_t half = n / 2;
    for (int64_t j = 0; j < half; ++j)
      v[j] = combine(op, t, v[2 * j], v[2 * j + 1]);
    if (n & 1)
      v[half] = v[n - 1];
    n = half + (n & 1);
  }
  return v[0];
}

bool fail(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

/// Where a step's operand comes from, for flit i.
struct Operand {
  int64_t mode = 0;
  uint32_t imm[8] = {};
  const uint32_t *stash = nullptr;
  const uint8_t *vrf = nullptr;
  int64_t base = 0, flitStride = 0, elemStride = 0, period = 0;

  const uint32_t *at(size_t i, int m, uint32_t *buf) const {
    if (mode == int64_t(isa::OperandMode::Immediate))
      return imm;
    if (mode == int64_t(isa::OperandMode::Stash))
      return stash + 8 * i;
    int64_t idx = period ? static_cast<int64_t>(i) % period : static_cast<int64_t>(i);
    const uint8_t *p = vrf + base + idx * flitStride;
    for (int e = 0; e < m; ++e)
      std::memcpy(&buf[e], p + e * elemStride, 4);
    return buf;
  }
};

template <typename F>
void unary(uint32_t *w, const std::vector<uint8_t> &valid, F f) {
  size_t n = valid.size();
  for (size_t i = 0; i < n; ++i) {
    uint32_t *x = w + 8 * i;
    int m = valid[i] >> 2;
    for (int e = 0; e < m; ++e)
      x[e] = f(x[e]);
  }
}

template <typename F>
void binary(uint32_t *w, const std::vector<uint8_t> &valid, const Operand &o, F f) {
  size_t n = valid.size();
  uint32_t buf[8];
  for (size_t i = 0; i < n; ++i) {
    uint32_t *x = w + 8 * i;
    int m = valid[i] >> 2;
    const uint32_t *y = o.at(i, m, buf);
    for (int e = 0; e < m; ++e)
      x[e] = f(x[e], y[e]);
  }
}

} // namespace

bool planVector(const isa::VectorConfig &c, ElemType input, std::vector<uint8_t> validIn,
                int64_t vrfBytes, VectorPlan &p, std::string &why) {
  p = VectorPlan();
  p.cfg = c;
  for (size_t f = 0; f < validIn.size(); ++f)
    if (validIn[f] % 4 != 0)
      return fail(why, "vector input flit " + std::to_string(f) + " has " +
                           std::to_string(validIn[f]) +
                           " valid bytes, not whole 32-bit words");
  p.validIn = std::move(validIn);
  ElemType cur = input;
  bool afterIntra = false;
  for (int64_t s = 0; s < c.steps; ++s) {
    const isa::VectorStep st = isa::vectorStep(c, static_cast<int>(s));
    VectorStepPlan sp{st.alu, st.op, st.mode, st.imm, st.imm2, cur, s};
    isa::AluWay way = isa::aluWay(st.alu); // the ALU counts the cost model takes
    if (way == isa::AluWay::Int)
      ++p.intAlus;
    else if (way == isa::AluWay::Float || way == isa::AluWay::Reduce)
      ++p.floatAlus;
    switch (static_cast<Alu>(st.alu)) {
    case Alu::Stash:
      break;
    case Alu::FxpAdd:
    case Alu::FxpMul:
      sp.type = cur = ElemType::I32;
      break;
    case Alu::FxpToFp:
      sp.type = ElemType::I32;
      cur = ElemType::F32;
      break;
    case Alu::FpToFxp:
      sp.type = ElemType::F32;
      cur = ElemType::I32;
      break;
    case Alu::Clip:
      sp.type = cur;
      break;
    case Alu::FpFma:
    case Alu::FpFpu:
    case Alu::FpExp:
    case Alu::FpMul0:
    case Alu::FpMul1:
    case Alu::FpDiv:
      sp.type = cur = ElemType::F32;
      break;
    case Alu::IntraReduce:
      p.intra = true;
      p.intraOp = st.op;
      p.intraType = cur;
      p.intraTree = c.reduceTree != 0;
      p.slots = c.reduceSlots;
      afterIntra = true;
      continue;
    case Alu::InterReduce:
      p.inter = true;
      p.interOp = st.op;
      p.interType = cur;
      p.group = int64_t(1) << c.interGroupLog2;
      continue;
    default: // unreachable after validateBlock
      return fail(why, "vector step " + std::to_string(s) + ": unsupported ALU " +
                           std::to_string(st.alu));
    }
    (afterIntra ? p.post : p.pre).push_back(sp);
  }

  // IntraReduce: flit i accumulates into slot i % slots.
  if (p.intra) {
    size_t n = p.validIn.size();
    if (static_cast<int64_t>(n) < p.slots)
      return fail(why, "IntraReduce gets " + std::to_string(n) +
                           " flits per slice, fewer than its " + std::to_string(p.slots) +
                           " reduce_slots");
    p.validOut.assign(static_cast<size_t>(p.slots), p.intraTree ? 8 : 0);
    if (!p.intraTree)
      for (size_t f = 0; f < n; ++f) {
        uint8_t &v = p.validOut[f % static_cast<size_t>(p.slots)];
        v = std::max(v, p.validIn[f]);
      }
  } else {
    p.validOut = p.validIn;
  }

  // VRF operands: bounding range over every flit that reads one, each read inside the VRF.
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int seg = 0; seg < 2; ++seg) {
    const auto &steps = seg == 0 ? p.pre : p.post;
    const auto &valid = seg == 0 ? p.validIn : p.validOut;
    for (const VectorStepPlan &sp : steps) {
      if (sp.mode != int64_t(isa::OperandMode::Vrf) || !isa::stepReadsOperand(sp.alu, sp.op))
        continue;
      for (size_t f = 0; f < valid.size(); ++f) {
        int64_t idx = c.vrfPeriod ? static_cast<int64_t>(f) % c.vrfPeriod
                                  : static_cast<int64_t>(f);
        int64_t a = c.vrfBase + idx * c.vrfFlitStride;
        int64_t m = valid[f] >> 2;
        if (m == 0)
          continue;
        int64_t b = a + (m - 1) * c.vrfElemStride + 4;
        if (a < 0 || b > vrfBytes)
          return fail(why, "vector step " + std::to_string(sp.index) + " reads VRF bytes [" +
                               std::to_string(a) + ", " + std::to_string(b) + ") for flit " +
                               std::to_string(f) + ", outside [0, " + std::to_string(vrfBytes) +
                               ")");
        lo = std::min(lo, a);
        hi = std::max(hi, b);
      }
    }
  }
  if (lo < hi) {
    p.readsVrf = true;
    p.vrfLo = lo;
    p.vrfHi = hi;
  }
  return true;
}

void VectorRunner::run(std::vector<uint32_t> &words, const uint8_t *vrf) {
  steps(p_.pre, words.data(), p_.validIn, vrf);
  if (p_.intra)
    intraReduce(words);
  steps(p_.post, words.data(), p_.validOut, vrf);
}

void VectorRunner::steps(const std::vector<VectorStepPlan> &list, uint32_t *w,
                         const std::vector<uint8_t> &valid, const uint8_t *vrf) {
  const isa::VectorConfig &c = p_.cfg;
  for (const VectorStepPlan &s : list) {
    if (s.alu == int64_t(Alu::Stash)) {
      stash_.assign(w, w + 8 * valid.size());
      continue;
    }
    Operand o;
    o.mode = s.mode;
    std::fill(std::begin(o.imm), std::end(o.imm), s.imm);
    o.stash = stash_.data();
    o.vrf = vrf;
    o.base = c.vrfBase;
    o.flitStride = c.vrfFlitStride;
    o.elemStride = c.vrfElemStride;
    o.period = c.vrfPeriod;
    float addend = asFloat(s.imm2);
    auto op = static_cast<VectorOp>(s.op);
    switch (static_cast<Alu>(s.alu)) {
    case Alu::FxpAdd:
      if (op == VectorOp::Add)
        binary(w, valid, o, [](uint32_t x, uint32_t y) { return x + y; });
      else
        binary(w, valid, o, [](uint32_t x, uint32_t y) { return x - y; });
      break;
    case Alu::FxpMul:
      binary(w, valid, o, [](uint32_t x, uint32_t y) { return x * y; });
      break;
    case Alu::FxpToFp:
      unary(w, valid, [](uint32_t x) { return asBits(static_cast<float>(asInt(x))); });
      break;
    case Alu::FpFma:
      if (op == VectorOp::Add)
        binary(w, valid, o,
               [](uint32_t x, uint32_t y) { return asBits(asFloat(x) + asFloat(y)); });
      else if (op == VectorOp::Sub)
        binary(w, valid, o,
               [](uint32_t x, uint32_t y) { return asBits(asFloat(x) - asFloat(y)); });
      else
        binary(w, valid, o, [addend](uint32_t x, uint32_t y) {
          return asBits(std::fma(asFloat(x), asFloat(y), addend));
        });
      break;
    case Alu::FpFpu:
      if (op == VectorOp::Sqrt)
        unary(w, valid, [](uint32_t x) { return asBits(std::sqrt(asFloat(x))); });
      else if (op == VectorOp::Sigmoid)
        unary(w, valid, [](uint32_t x) {
          return asBits(static_cast<float>(1.0 / (1.0 + std::exp(-double(asFloat(x))))));
        });
      else
        binary(w, valid, o,
               [](uint32_t x, uint32_t y) { return asBits(asFloat(x) / asFloat(y)); });
      break;
    case Alu::FpExp:
      // Below -104, e^x < 2^-150 (half f32's smallest subnormal) rounds to +0: the same bits
      // without the library's slow underflow path (attention's masked scores, -2^100).
      unary(w, valid, [](uint32_t x) {
        float f = asFloat(x);
        return f < -104.0f ? 0u : asBits(static_cast<float>(std::exp(double(f))));
      });
      break;
    case Alu::FpMul0:
    case Alu::FpMul1:
      binary(w, valid, o, [](uint32_t x, uint32_t y) { return asBits(asFloat(x) * asFloat(y)); });
      break;
    case Alu::FpDiv:
      binary(w, valid, o, [](uint32_t x, uint32_t y) { return asBits(asFloat(x) / asFloat(y)); });
      break;
    case Alu::FpToFxp:
      unary(w, valid, f32ToI32);
      break;
    case Alu::Clip:
      if (s.type == ElemType::F32) {
        if (op == VectorOp::Max)
          binary(w, valid, o, [](uint32_t x, uint32_t y) {
            return asBits(std::fmax(asFloat(x), asFloat(y)));
          });
        else if (op == VectorOp::Min)
          binary(w, valid, o, [](uint32_t x, uint32_t y) {
            return asBits(std::fmin(asFloat(x), asFloat(y)));
          });
        else
          binary(w, valid, o,
                 [](uint32_t x, uint32_t y) { return asBits(asFloat(x) + asFloat(y)); });
      } else {
        if (op == VectorOp::Max)
          binary(w, valid, o, [](uint32_t x, uint32_t y) {
            return static_cast<uint32_t>(std::max(asInt(x), asInt(y)));
          });
        else if (op == VectorOp::Min)
          binary(w, valid, o, [](uint32_t x, uint32_t y) {
            return static_cast<uint32_t>(std::min(asInt(x), asInt(y)));
          });
        else
          binary(w, valid, o, [](uint32_t x, uint32_t y) { return x + y; });
      }
      break;
    default: // Logic, the reducers and Stash never reach here (planVector)
      break;
    }
  }
}

void VectorRunner::intraReduce(std::vector<uint32_t> &words) {
  size_t n = p_.validIn.size();
  size_t slots = static_cast<size_t>(p_.slots);
  reduced_.assign(8 * slots, 0);
  // Which slot lanes have received a first value (it initialises them).
  uint8_t seen[8][8] = {};
  for (size_t f = 0; f < n; ++f) {
    size_t slot = f % slots;
    uint32_t *acc = reduced_.data() + 8 * slot;
    const uint32_t *x = words.data() + 8 * f;
    int m = p_.validIn[f] >> 2;
    if (p_.intraTree) {
      uint32_t v[8];
      std::memcpy(v, x, sizeof v);
      uint32_t r = treeReduce(v, m, p_.intraOp, p_.intraType);
      acc[0] = seen[slot][0] ? combine(p_.intraOp, p_.intraType, acc[0], r) : r;
      seen[slot][0] = 1;
      continue;
    }
    for (int e = 0; e < m; ++e) {
      acc[e] = seen[slot][e] ? combine(p_.intraOp, p_.intraType, acc[e], x[e]) : x[e];
      seen[slot][e] = 1;
    }
  }
  words.swap(reduced_);
}

void interReduce(const VectorPlan &p, const std::vector<uint32_t *> &group) {
  size_t g = group.size();
  std::vector<uint32_t> v(g);
  const std::vector<uint8_t> &valid = p.validOut;
  for (size_t f = 0; f < valid.size(); ++f) {
    int m = valid[f] >> 2;
    for (int e = 0; e < m; ++e) {
      size_t i = 8 * f + static_cast<size_t>(e);
      for (size_t k = 0; k < g; ++k)
        v[k] = group[k][i];
      uint32_t r = treeReduce(v.data(), static_cast<int64_t>(g), p.interOp, p.interType);
      for (size_t k = 0; k < g; ++k)
        group[k][i] = r;
    }
  }
}

void castFlits(isa::CastMode mode, uint32_t *flits, const std::vector<uint8_t> &validIn) {
  if (mode == isa::CastMode::None)
    return;
  size_t n = validIn.size();
  for (size_t f = 0; f < n; ++f) {
    uint32_t *w = flits + 8 * f;
    int valid = std::min(8, validIn[f] >> 2);
    uint8_t out[32] = {};
    if (mode == isa::CastMode::F32ToBf16) {
      for (int i = 0; i < valid; ++i) {
        uint16_t b = f32BitsToBf16(w[i]);
        std::memcpy(out + 2 * i, &b, 2);
      }
    } else { // I32ToI8, saturating
      for (int i = 0; i < valid; ++i)
        out[i] = static_cast<uint8_t>(static_cast<int8_t>(
            std::min<int32_t>(127, std::max<int32_t>(-128, asInt(w[i])))));
    }
    std::memcpy(w, out, 32);
  }
}

} // namespace rngd::sim
