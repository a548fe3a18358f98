// The Vector Engine with VRF and stash operands, every ALU family, the intra- and inter-slice
// reducers, and the Cast Engine, against host computations (bit for bit).
#include "rngd/machine/CostModel.h"
#include "Rig.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace rngd;
using namespace rngd::test;

namespace {

using isa::Alu;
using isa::OperandMode;
using isa::VectorOp;

isa::VectorStep step(Alu alu, VectorOp op, OperandMode mode = OperandMode::Immediate,
                     uint32_t imm = 0, uint32_t imm2 = 0) {
  return {int64_t(alu), int64_t(op), int64_t(mode), imm, imm2};
}

uint32_t ibits(int32_t v) { return static_cast<uint32_t>(v); }

std::vector<float> floats(Lcg &r, size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (auto &x : v)
    x = r.uniform(lo, hi);
  return v;
}

// Puts `vrf` in DM at 32768 and writes it to the VRF at `base` with a `vrf` pass (main, waited).
template <typename T>
void loadVrf(Rig &rig, const isa::SliceBitmap &s, int64_t slice, int64_t base,
             const std::vector<T> &vrf, isa::Context ctx = isa::Context::Main, bool wait = true) {
  int64_t bytes = static_cast<int64_t>(vrf.size() * sizeof(T));
  rig.put(slice, 32768, vrf);
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 32768, bytes, bytes, 2).values());
  int64_t w = rig.config(isa::Unit::VrfWrite, isa::VrfWriteConfig{base, bytes}.values());
  rig.pass(kFetchCollect | isa::UnitVrf, {f, w}, ctx, wait);
}

// fetch (packets of `packet` bytes, 4-byte accesses, from DM 0) -> vector [-> cast] -> commit
// (`writeBytes` of each of `outFlits` flits, back to back at DM 8192).
void vectorPass(Rig &rig, const isa::SliceBitmap &s, int64_t inBytes, int64_t packet,
                const isa::VectorConfig &v, int64_t outFlits, int64_t writeBytes,
                isa::CastMode cast = isa::CastMode::None) {
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, inBytes, packet, 2).values());
  int64_t k = rig.config(isa::Unit::Vector, v.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 8192, outFlits, writeBytes).values());
  uint16_t units = kFetchCollect | isa::UnitVector | isa::UnitCommit;
  std::vector<int64_t> configs{f, k, w};
  if (cast != isa::CastMode::None) {
    units |= isa::UnitCast;
    isa::CastConfig c;
    c.mode = cast;
    configs.push_back(rig.config(isa::Unit::Cast, c.values()));
  }
  rig.pass(units, configs);
}

// The reducers' tree: level by level, an odd last element passes up unchanged.
template <typename F> float tree(std::vector<float> v, F op) {
  while (v.size() > 1) {
    std::vector<float> w;
    for (size_t j = 0; j + 1 < v.size(); j += 2)
      w.push_back(op(v[j], v[j + 1]));
    if (v.size() % 2)
      w.push_back(v.back());
    v = w;
  }
  return v[0];
}
float add(float a, float b) { return a + b; }

} // namespace

TEST_CASE("VRF operands (vector mode, period), stash, Fma, Exp and Div", "[sim][vector]") {
  Rig rig;
  isa::SliceBitmap s = slices(2, 1);
  Lcg r(11);
  std::vector<float> x = floats(r, 32, -2.0f, 2.0f), v = floats(r, 16, 0.5f, 1.5f);
  rig.put(2, 0, x);
  loadVrf(rig, s, 2, 64, v);
  isa::VectorConfig c;
  c.steps = 5;
  isa::setVectorStep(c, 0, step(Alu::Stash, VectorOp::None));
  isa::setVectorStep(c, 1, step(Alu::FpFma, VectorOp::Fma, OperandMode::Vrf, 0, floatBits(0.5f)));
  isa::setVectorStep(c, 2, step(Alu::FpExp, VectorOp::Exp));
  isa::setVectorStep(c, 3, step(Alu::FpMul0, VectorOp::Mul, OperandMode::Stash));
  isa::setVectorStep(c, 4, step(Alu::FpDiv, VectorOp::Div, OperandMode::Immediate, floatBits(3.0f)));
  c.vrfBase = 64, c.vrfFlitStride = 32, c.vrfElemStride = 4, c.vrfPeriod = 2;
  vectorPass(rig, s, 128, 32, c, 4, 32);
  LaunchResult res;
  Status st = rig.run(&res);
  INFO(st.message());
  REQUIRE(st.ok());
  auto y = rig.get<uint32_t>(2, 8192, 32);
  for (int f = 0; f < 4; ++f)
    for (int e = 0; e < 8; ++e) {
      float in = x[f * 8 + e];
      float t = std::fma(in, v[(f % 2) * 8 + e], 0.5f); // one rounding
      t = static_cast<float>(std::exp(static_cast<double>(t)));
      t = t * in;
      t = t / 3.0f;
      INFO("flit " << f << " lane " << e);
      CHECK(y[f * 8 + e] == floatBits(t));
    }
  // Four float ALUs (Way4: two cycles per flit) and their latencies; the VRF read footprint.
  TensorPassShape shape;
  shape.fetchAccesses = 32, shape.flits = 4, shape.vectorFlits = 4, shape.vectorFloatAlus = 4;
  shape.commitWrites = 4;
  const auto &pass = res.trace[7];
  CHECK(pass.end - pass.start == tensorPassCycles(defaultTarget(), shape));
  bool vrfRead = false;
  for (const auto &m : pass.reads)
    vrfRead |= m.memory == sim::SliceMemory::Vrf && m.lo == 64 && m.hi == 128;
  CHECK(vrfRead);
}

TEST_CASE("Exp at f32's underflow and overflow: the host's double exp rounded to f32, bit for "
          "bit", "[sim][vector]") {
  // e^-103.97 is just above 2^-150 (half the smallest subnormal: rounds up to 2^-149);
  // e^-103.98 and e^-104 are below it (round to +0), as is every smaller input (the simulator
  // returns +0 below -104 without calling exp); 89 overflows to infinity.
  Rig rig;
  isa::SliceBitmap s = slices(2, 1);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-103.97f, -103.98f, -104.0f, std::nextafter(-104.0f, 0.0f),
                          std::nextafter(-104.0f, -inf), -0x1p100f, -inf, 0.0f,
                          -0.0f, 1.0f, 88.7f, 89.0f, inf, std::nanf(""), -87.0f, -1.0f};
  rig.put(2, 0, x);
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::FpExp, VectorOp::Exp));
  vectorPass(rig, s, 64, 32, c, 2, 32);
  Status st = rig.run();
  INFO(st.message());
  REQUIRE(st.ok());
  auto y = rig.get<uint32_t>(2, 8192, 16);
  CHECK(y[0] == floatBits(0x1p-149f));
  CHECK(y[1] == 0u);
  CHECK(y[2] == 0u);
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("input " << x[i]);
    CHECK(y[i] == floatBits(static_cast<float>(std::exp(static_cast<double>(x[i])))));
  }
}

TEST_CASE("VRF broadcast operand, Sub, Sqrt, FpMul1; Sigmoid and Clip Min", "[sim][vector]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  Lcg r(12);
  std::vector<float> x = floats(r, 32, 4.0f, 8.0f), b = floats(r, 4, 0.0f, 2.0f);
  rig.put(0, 0, x);
  loadVrf(rig, s, 0, 4000, b);
  isa::VectorConfig c; // operand of flit f: the one f32 at 4000 + 4f, on all eight lanes
  c.steps = 3;
  isa::setVectorStep(c, 0, step(Alu::FpFma, VectorOp::Sub, OperandMode::Vrf));
  isa::setVectorStep(c, 1, step(Alu::FpFpu, VectorOp::Sqrt));
  isa::setVectorStep(c, 2, step(Alu::FpMul1, VectorOp::Mul, OperandMode::Immediate, floatBits(2.0f)));
  c.vrfBase = 4000, c.vrfFlitStride = 4, c.vrfElemStride = 0, c.vrfPeriod = 0;
  vectorPass(rig, s, 128, 32, c, 4, 32);

  std::vector<float> z = floats(r, 16, -6.0f, 6.0f);
  z[0] = std::numeric_limits<float>::quiet_NaN(); // sigmoid(NaN) = NaN; fmin(NaN, .75) = .75
  z[1] = 40.0f;                                    // sigmoid rounds to 1.0f
  Rig rig2;
  rig2.put(0, 0, z);
  isa::VectorConfig d;
  d.steps = 2;
  isa::setVectorStep(d, 0, step(Alu::FpFpu, VectorOp::Sigmoid));
  isa::setVectorStep(d, 1, step(Alu::Clip, VectorOp::Min, OperandMode::Immediate, floatBits(0.75f)));
  vectorPass(rig2, s, 64, 32, d, 2, 32);
  REQUIRE(rig.run().ok());
  REQUIRE(rig2.run().ok());
  auto y = rig.get<uint32_t>(0, 8192, 32);
  for (int f = 0; f < 4; ++f)
    for (int e = 0; e < 8; ++e)
      CHECK(y[f * 8 + e] == floatBits(std::sqrt(x[f * 8 + e] - b[f]) * 2.0f));
  auto w = rig2.get<uint32_t>(0, 8192, 16);
  for (int i = 0; i < 16; ++i) {
    float sg = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(z[i]))));
    INFO(i);
    CHECK(w[i] == floatBits(std::fmin(sg, 0.75f)));
  }
  CHECK(w[0] == floatBits(0.75f));
}

TEST_CASE("integer chain: Fxp ALUs wrap, ToF32, ToI32 rounds half to even, Clip in i32",
          "[sim][vector]") {
  Rig rig;
  isa::SliceBitmap s = slices(1, 1);
  Lcg r(13);
  std::vector<int32_t> x(16), v(16);
  for (int i = 0; i < 16; ++i) {
    x[i] = static_cast<int32_t>(r.next() % 41) - 20;
    v[i] = static_cast<int32_t>(r.next() % 7) - 3;
  }
  x[0] = INT32_MIN; // INT32_MIN - 1 wraps
  v[0] = 1;
  rig.put(1, 0, x);
  loadVrf(rig, s, 1, 0, v);
  isa::VectorConfig c;
  c.steps = 6;
  isa::setVectorStep(c, 0, step(Alu::FxpAdd, VectorOp::Sub, OperandMode::Vrf));
  isa::setVectorStep(c, 1, step(Alu::FxpMul, VectorOp::Mul, OperandMode::Immediate, ibits(-3)));
  isa::setVectorStep(c, 2, step(Alu::FxpToFp, VectorOp::ToF32));
  isa::setVectorStep(c, 3, step(Alu::FpMul0, VectorOp::Mul, OperandMode::Immediate, floatBits(0.5f)));
  isa::setVectorStep(c, 4, step(Alu::FpToFxp, VectorOp::ToI32));
  isa::setVectorStep(c, 5, step(Alu::Clip, VectorOp::Max, OperandMode::Immediate, ibits(-10)));
  c.vrfFlitStride = 32, c.vrfElemStride = 4;
  vectorPass(rig, s, 64, 32, c, 2, 32);
  LaunchResult res;
  REQUIRE(rig.run(&res).ok());
  auto y = rig.get<int32_t>(1, 8192, 16);
  for (int i = 0; i < 16; ++i) {
    uint32_t d = static_cast<uint32_t>(x[i]) - static_cast<uint32_t>(v[i]);
    uint32_t m = d * static_cast<uint32_t>(-3);
    float f = static_cast<float>(static_cast<int32_t>(m)) * 0.5f;
    double rounded = std::nearbyint(static_cast<double>(f)); // ties to even (default mode)
    int32_t t = rounded >= 2147483647.0    ? INT32_MAX
                : rounded <= -2147483648.0 ? INT32_MIN
                                           : static_cast<int32_t>(rounded);
    INFO(i << ": x " << x[i] << " v " << v[i]);
    CHECK(y[i] == std::max(t, -10));
  }
  // INT32_MIN - 1 wraps to INT32_MAX; x -3 wraps to -2147483645, which clips to -10.
  CHECK(y[0] == -10);
  TensorPassShape shape; // five Way8 ALUs, one Way4 (FpMul0)
  shape.fetchAccesses = 16, shape.flits = 2, shape.vectorFlits = 2;
  shape.vectorIntAlus = 5, shape.vectorFloatAlus = 1, shape.commitWrites = 2;
  CHECK(res.trace[7].end - res.trace[7].start == tensorPassCycles(defaultTarget(), shape));
}

TEST_CASE("ToI32 saturates and maps NaN to 0; the i32->i8 cast saturates", "[sim][vector][cast]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {3e9f,   -3e9f,   nan,    2.5f, -2.5f, 0.49999997f, 1.5f, -0.5f,
                          200.0f, -129.0f, 127.4f, -128.6f, 3.5f, 4.5f,      -3.5f, 1e-40f};
  rig.put(0, 0, x);
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::FpToFxp, VectorOp::ToI32));
  // i32 -> i8 quarters the valid bytes: 8 per flit, one 8-byte commit write each.
  vectorPass(rig, s, 64, 32, c, 2, 8, isa::CastMode::I32ToI8);
  // The ToI32 results alone, through a second pass without the cast.
  isa::FetchConfig f = fetchLinear(s, 0, 64, 32, 2);
  int64_t fi = rig.config(isa::Unit::Fetch, f.values());
  int64_t vi = rig.config(isa::Unit::Vector, c.values());
  int64_t wi = rig.config(isa::Unit::Commit, commitLinear(s, 12288, 2, 32).values());
  rig.pass(kFetchCollect | isa::UnitVector | isa::UnitCommit, {fi, vi, wi});
  REQUIRE(rig.run().ok());
  CHECK(rig.get<int32_t>(0, 12288, 16) ==
        std::vector<int32_t>{INT32_MAX, INT32_MIN, 0, 2, -2, 0, 2, 0, 200, -129, 127, -129, 4,
                             4, -4, 0});
  CHECK(rig.get<int8_t>(0, 8192, 16) ==
        std::vector<int8_t>{127, -128, 0, 2, -2, 0, 2, 0, 127, -128, 127, -128, 4, 4, -4, 0});
}

TEST_CASE("intra-slice reduce, tree mode: odd trees, three slots, steps before and after",
          "[sim][vector][reduce]") {
  Rig rig;
  isa::SliceBitmap s = slices(4, 1);
  Lcg r(14);
  std::vector<float> x = floats(r, 60, -10.0f, 10.0f); // 12 packets of 5 f32 (20 bytes)
  // Packet 0 makes the tree order observable: ((a + b) + (c + d)) + e = 2 here, while
  // (a + b) + ((c + d) + e) = 0 and a left-to-right sum = 4 (after the x2 step).
  std::vector<float> odd = {1e8f, 1.0f, -1e8f, 1.0f, 1.0f};
  std::copy(odd.begin(), odd.end(), x.begin());
  rig.put(4, 0, x);
  isa::VectorConfig c;
  c.steps = 3;
  isa::setVectorStep(c, 0, step(Alu::FpMul0, VectorOp::Mul, OperandMode::Immediate, floatBits(2.0f)));
  isa::setVectorStep(c, 1, step(Alu::IntraReduce, VectorOp::Add));
  isa::setVectorStep(c, 2, step(Alu::FpDiv, VectorOp::Div, OperandMode::Immediate, floatBits(4.0f)));
  c.reduceSlots = 3, c.reduceTree = 1;
  vectorPass(rig, s, 240, 20, c, 3, 8);
  LaunchResult res;
  REQUIRE(rig.run(&res).ok());
  auto y = rig.get<uint32_t>(4, 8192, 6);
  for (int k = 0; k < 3; ++k) {
    float acc = 0.0f;
    for (int f = k; f < 12; f += 3) {
      std::vector<float> m(5);
      for (int e = 0; e < 5; ++e)
        m[e] = x[f * 5 + e] * 2.0f;
      float t = tree(m, add); // ((m0 + m1) + (m2 + m3)) + m4
      acc = f == k ? t : acc + t;
    }
    INFO("slot " << k);
    CHECK(y[2 * k] == floatBits(acc / 4.0f));
    CHECK(y[2 * k + 1] == 0u); // lanes 1..7 zero, 8 valid bytes
  }
  TensorPassShape shape;
  shape.fetchAccesses = 60, shape.flits = 12, shape.vectorFlits = 12, shape.vectorFloatAlus = 3;
  shape.commitWrites = 3;
  CHECK(res.trace[3].end - res.trace[3].start == tensorPassCycles(defaultTarget(), shape));
}

TEST_CASE("intra-slice reduce, elementwise Max over slots; too few flits is an error",
          "[sim][vector][reduce]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  Lcg r(15);
  std::vector<float> x = floats(r, 48, -5.0f, 5.0f); // 6 flits
  x[3] = std::numeric_limits<float>::quiet_NaN();    // fmax ignores the NaN
  rig.put(0, 0, x);
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::IntraReduce, VectorOp::Max));
  c.reduceSlots = 2;
  vectorPass(rig, s, 192, 32, c, 2, 32);
  REQUIRE(rig.run().ok());
  auto y = rig.get<uint32_t>(0, 8192, 16);
  for (int k = 0; k < 2; ++k)
    for (int e = 0; e < 8; ++e) {
      float m = x[k * 8 + e];
      for (int f = k + 2; f < 6; f += 2)
        m = std::fmax(m, x[f * 8 + e]);
      CHECK(y[k * 8 + e] == floatBits(m));
    }
  CHECK(y[3] == floatBits(std::fmax(x[19], x[35])));

  Rig few;
  few.put(0, 0, x);
  c.reduceSlots = 8;
  vectorPass(few, s, 192, 32, c, 8, 32);
  CHECK(few.run().message() == "command #3 `rngd.exec main [fetch, collect, vector, commit]`: "
                               "IntraReduce gets 6 flits per slice, fewer than its 8 "
                               "reduce_slots");
}

TEST_CASE("inter-slice reduce: Add over 64 slices, a pairwise tree in slice order",
          "[sim][vector][inter]") {
  Rig rig;
  isa::SliceBitmap s = slices(64, 64); // one aligned group of 64
  Lcg r(16);
  std::vector<std::vector<float>> x(64);
  for (int k = 0; k < 64; ++k) {
    x[k] = floats(r, 16, -100.0f, 100.0f);
    rig.put(64 + k, 0, x[k]);
  }
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::InterReduce, VectorOp::Add));
  c.interGroupLog2 = 6;
  vectorPass(rig, s, 64, 32, c, 2, 32);
  isa::VectorConfig mx = c; // the same over Max, committed at 16384
  isa::setVectorStep(mx, 0, step(Alu::InterReduce, VectorOp::Max));
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 64, 32, 2).values());
  int64_t k = rig.config(isa::Unit::Vector, mx.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 16384, 2, 32).values());
  rig.pass(kFetchCollect | isa::UnitVector | isa::UnitCommit, {f, k, w});
  LaunchResult res;
  REQUIRE(rig.run(&res).ok());
  std::vector<uint32_t> expect(16);
  for (int i = 0; i < 16; ++i) {
    std::vector<float> lane(64);
    for (int k = 0; k < 64; ++k)
      lane[k] = x[k][i];
    expect[i] = floatBits(tree(lane, add));
  }
  for (int k : {64, 65, 100, 127})
    CHECK(rig.get<uint32_t>(k, 8192, 16) == expect);
  std::vector<uint32_t> top(16);
  for (int i = 0; i < 16; ++i) {
    std::vector<float> lane(64);
    for (int k = 0; k < 64; ++k)
      lane[k] = x[k][i];
    top[i] = floatBits(tree(lane, [](float a, float b) { return std::fmax(a, b); }));
  }
  for (int k : {64, 99, 127})
    CHECK(rig.get<uint32_t>(k, 16384, 16) == top);
  // A left-to-right sum differs somewhere: the order is observable.
  bool differs = false;
  for (int i = 0; i < 16; ++i) {
    float seq = 0.0f;
    for (int k = 0; k < 64; ++k)
      seq += x[k][i];
    differs |= floatBits(seq) != expect[i];
  }
  CHECK(differs);
  TensorPassShape shape;
  shape.fetchAccesses = 16, shape.flits = 2, shape.vectorFlits = 2, shape.vectorFloatAlus = 1;
  shape.interReduceSlices = 64, shape.commitWrites = 2;
  CHECK(res.trace[3].end - res.trace[3].start == tensorPassCycles(defaultTarget(), shape));
}

TEST_CASE("inter-slice reduce: Max in groups of 8 after an intra tree; partial commits; holes",
          "[sim][vector][inter]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 64);
  Lcg r(17);
  std::vector<float> best(64); // per slice: max over its 3 flits x 8 lanes
  for (int k = 0; k < 64; ++k) {
    std::vector<float> x = floats(r, 24, -50.0f, 50.0f);
    rig.put(k, 0, x);
    best[k] = x[0];
    for (float v : x)
      best[k] = std::fmax(best[k], v);
  }
  isa::VectorConfig c;
  c.steps = 2;
  isa::setVectorStep(c, 0, step(Alu::IntraReduce, VectorOp::Max));
  isa::setVectorStep(c, 1, step(Alu::InterReduce, VectorOp::Max));
  c.reduceSlots = 1, c.reduceTree = 1, c.interGroupLog2 = 3;
  vectorPass(rig, s, 96, 32, c, 1, 8);
  // Only slice 13 commits: its whole group [8, 16) still computes.
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 96, 32, 2).values());
  int64_t k = rig.config(isa::Unit::Vector, c.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(slices(13, 1), 16384, 1, 8).values());
  rig.pass(kFetchCollect | isa::UnitVector | isa::UnitCommit, {f, k, w});
  REQUIRE(rig.run().ok());
  for (int g = 0; g < 8; ++g) {
    float m = best[8 * g];
    for (int j = 1; j < 8; ++j)
      m = std::fmax(m, best[8 * g + j]);
    for (int j = 0; j < 8; ++j)
      CHECK(rig.get<uint32_t>(8 * g + j, 8192, 2) == std::vector<uint32_t>{floatBits(m), 0u});
  }
  CHECK(rig.get<uint32_t>(13, 16384, 2) == rig.get<uint32_t>(13, 8192, 2));
  CHECK(rig.get<uint32_t>(12, 16384, 2) == std::vector<uint32_t>{0u, 0u});

  Rig hole;
  isa::VectorConfig all;
  all.steps = 1;
  isa::setVectorStep(all, 0, step(Alu::InterReduce, VectorOp::Add));
  all.interGroupLog2 = 6;
  vectorPass(hole, slices(64, 63), 64, 32, all, 2, 32);
  CHECK(hole.run().message() ==
        "command #3 `rngd.exec main [fetch, collect, vector, commit]`: InterReduce over groups "
        "of 64 slices: slice 127 of group [64, 128) is not enabled but slice 126 holds data");
}

TEST_CASE("VRF hazards and bounds; vector input must be whole words", "[sim][vector][hazard]") {
  isa::SliceBitmap s = slices(0, 1);
  std::vector<float> v(1024, 1.0f), x(32, 2.0f); // a 4 KB VRF write: 1024 accesses on sub
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::FpMul0, VectorOp::Mul, OperandMode::Vrf));
  c.vrfBase = 64, c.vrfFlitStride = 32, c.vrfElemStride = 4, c.vrfPeriod = 2;

  Rig rig; // the VRF write on sub is not waited for
  rig.put(0, 0, x);
  loadVrf(rig, s, 0, 64, v, isa::Context::Sub, false);
  vectorPass(rig, s, 128, 32, c, 4, 32);
  Status st = rig.run();
  CHECK(st.message().find("command #6 `rngd.exec main [fetch, collect, vector, commit]` reads "
                          "VRF slice 0 [64, 128) while command #2 `rngd.exec sub [fetch, "
                          "collect, vrf]` (in flight until cycle ") == 0);

  Rig far;
  far.put(0, 0, x);
  c.vrfBase = 8180;
  c.vrfPeriod = 0;
  vectorPass(far, s, 128, 32, c, 4, 32);
  CHECK(far.run().message().find("vector step 0 reads VRF bytes [8180, 8212) for flit 0, "
                                 "outside [0, 8192)") != std::string::npos);

  Rig odd;
  odd.put(0, 0, x);
  isa::VectorConfig one;
  one.steps = 1;
  isa::setVectorStep(one, 0, step(Alu::FpFma, VectorOp::Add, OperandMode::Immediate, floatBits(1.0f)));
  int64_t f = odd.config(isa::Unit::Fetch, fetchLinear(s, 0, 48, 6, 1).values());
  int64_t k = odd.config(isa::Unit::Vector, one.values());
  int64_t w = odd.config(isa::Unit::Commit, commitLinear(s, 8192, 8, 8).values());
  odd.pass(kFetchCollect | isa::UnitVector | isa::UnitCommit, {f, k, w});
  CHECK(odd.run().message().find("vector input flit 0 has 6 valid bytes, not whole 32-bit "
                                 "words") != std::string::npos);
}

TEST_CASE("FpFpu Div by a VRF operand, and Fxp Sub by an immediate", "[sim][vector]") {
  Rig rig;
  isa::SliceBitmap s = slices(6, 1);
  Lcg r(18);
  std::vector<float> x = floats(r, 16, -9.0f, 9.0f), b = floats(r, 16, 0.25f, 4.0f);
  b[3] = 0.0f; // x / 0 = inf
  rig.put(6, 0, x);
  loadVrf(rig, s, 6, 128, b);
  isa::VectorConfig c;
  c.steps = 1;
  isa::setVectorStep(c, 0, step(Alu::FpFpu, VectorOp::Div, OperandMode::Vrf));
  c.vrfBase = 128, c.vrfFlitStride = 32, c.vrfElemStride = 4;
  vectorPass(rig, s, 64, 32, c, 2, 32);
  REQUIRE(rig.run().ok());
  auto y = rig.get<uint32_t>(6, 8192, 16);
  for (int i = 0; i < 16; ++i)
    CHECK(y[i] == floatBits(x[i] / b[i]));
  CHECK(std::isinf(bitsFloat(y[3])));

  Rig fx;
  std::vector<int32_t> n = {5, -5, INT32_MIN, 0, 7, 8, 9, 10};
  fx.put(0, 0, n);
  isa::VectorConfig d;
  d.steps = 1;
  isa::setVectorStep(d, 0, step(Alu::FxpAdd, VectorOp::Sub, OperandMode::Immediate, ibits(7)));
  vectorPass(fx, slices(0, 1), 32, 32, d, 1, 32);
  REQUIRE(fx.run().ok());
  CHECK(fx.get<int32_t>(0, 8192, 8) ==
        std::vector<int32_t>{-2, -12, INT32_MAX - 6, -7, 0, 1, 2, 3});
}
