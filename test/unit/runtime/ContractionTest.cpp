// TRF writes and the Contraction Engine against host loops with the same reduction order, and
// the TRF hazards and bank rules around them.
#include "rngd/machine/CostModel.h"
#include "Rig.h"
#include "runtime/sim/Engines.h"
#include "rngd/Bf16.h"

#include <cmath>
#include <cstring>

using namespace rngd;
using namespace rngd::test;

namespace {

// The packet reducer: level by level, v[j] = v[2j] + v[2j+1] (f32, round to nearest even).
float hostTree(std::vector<float> v) {
  while (v.size() > 1) {
    std::vector<float> w(v.size() / 2);
    for (size_t j = 0; j < w.size(); ++j)
      w[j] = v[2 * j] + v[2 * j + 1];
    v = w;
  }
  return v[0];
}

uint32_t bits(float f) { return floatBits(f); }

// 8 lanes x 4 rows x 64 bf16 weights (lane-major) and a 64-element bf16 input.
struct Gemv {
  std::vector<uint16_t> w, x;
  explicit Gemv(uint32_t seed) : w(8 * 4 * 64), x(64) {
    Lcg r(seed);
    for (auto &v : w)
      v = f32ToBf16(r.uniform(-2.0f, 2.0f));
    for (auto &v : x)
      v = f32ToBf16(r.uniform(-3.0f, 3.0f));
  }
  float weight(int lane, int row, int k) const { return bf16ToF32(w[(lane * 4 + row) * 64 + k]); }
  // Row r of lane l against x: two 32-element packets, each a tree, summed into a +0 accumulator.
  float dot(int lane, int row) const {
    float acc = 0.0f;
    for (int c = 0; c < 2; ++c) {
      std::vector<float> p(32);
      for (int j = 0; j < 32; ++j)
        p[j] = bf16ToF32(x[32 * c + j]) * weight(lane, row, 32 * c + j);
      acc = acc + hostTree(p);
    }
    return acc;
  }
};

isa::SliceBitmap twoSlices() {
  isa::SliceBitmap s = slices(0, 1);
  s[0] |= uint64_t(1) << 3;
  return s;
}

// W -> TRF (8 lanes x 512 B at base `trfBase`) on sub, then the caller's contraction passes.
void loadWeights(Rig &rig, const isa::SliceBitmap &s, int64_t trfBase, bool wait = true) {
  // The sub context reads 8 bytes at a time: 512 accesses make 128 flits of 32 bytes.
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 4096, 32, 3).values());
  int64_t w = rig.config(isa::Unit::TrfWrite, isa::TrfWriteConfig{trfBase, 3, 512}.values());
  rig.pass(kFetchCollect | isa::UnitTrf, {f, w}, isa::Context::Sub, wait);
}

isa::ContractConfig gemvContract() {
  isa::ContractConfig c;
  c.pack = 2;
  c.lanesLog2 = 3;
  c.mac = isa::MacType::Bf16;
  c.packetElems = 32;
  c.window = 0;
  c.slots = 4;
  c.limits[6] = 4; // row: next 128 B of each lane, next slot
  c.trfStrides[6] = 128;
  c.accStrides[6] = 1;
  c.limits[7] = 2; // 32-element chunk: next packet, next 64 B
  c.streamStrides[7] = 1;
  c.trfStrides[7] = 64;
  return c;
}

// The stream: `streamBytes` at 8192.
void contractPass(Rig &rig, const isa::SliceBitmap &s, const isa::ContractConfig &c,
                  int64_t outBase, int64_t outFlits, int64_t streamBytes = 128) {
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 8192, streamBytes, 32).values());
  int64_t k = rig.config(isa::Unit::Contract, c.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, outBase, outFlits, 32).values());
  rig.pass(kFetchCollect | isa::UnitContract | isa::UnitCommit, {f, k, w});
}

// 64 packets of 32 bf16 elements (slice DM 8192) against 4 rows of 32 per lane (TRF from 0):
// a GEMM-shaped pass, each weight met by every packet.
struct GemmOperands {
  std::vector<uint16_t> w = std::vector<uint16_t>(8 * 256), x = std::vector<uint16_t>(64 * 32);
  // Packet p against lane l's row r: one tree into a +0 accumulator.
  float dot(int p, int lane, int row) const {
    std::vector<float> v(32);
    for (int j = 0; j < 32; ++j)
      v[j] = bf16ToF32(x[p * 32 + j]) * bf16ToF32(w[lane * 256 + row * 32 + j]);
    return 0.0f + hostTree(v);
  }
};

// Runs the GEMM-shaped pass with `slice0` on slice 0 and `slice3` on slice 3 (a window per
// packet, a slot per row) and checks every output against GemmOperands::dot, bit for bit.
void checkGemmShaped(const GemmOperands &slice0, const GemmOperands &slice3) {
  Rig rig;
  isa::SliceBitmap s = twoSlices();
  rig.put(0, 0, slice0.w);
  rig.put(0, 8192, slice0.x);
  rig.put(3, 0, slice3.w);
  rig.put(3, 8192, slice3.x);
  loadWeights(rig, s, 0);
  isa::ContractConfig c;
  c.pack = 2, c.lanesLog2 = 3, c.mac = isa::MacType::Bf16, c.packetElems = 32;
  c.window = 1, c.slots = 4;
  c.limits[0] = 64, c.streamStrides[0] = 1; // a window per packet
  c.limits[7] = 4, c.trfStrides[7] = 64, c.accStrides[7] = 1; // its 4 rows, a slot each
  contractPass(rig, s, c, 16384, 256, 64 * 32 * 2);
  Status st = rig.run();
  INFO(st.message());
  REQUIRE(st.ok());
  for (auto [slice, o] : {std::pair<int, const GemmOperands *>{0, &slice0}, {3, &slice3}}) {
    auto out = rig.get<uint32_t>(slice, 16384, 256 * 8);
    for (int p = 0; p < 64; ++p)
      for (int row = 0; row < 4; ++row)
        for (int lane = 0; lane < 8; ++lane) {
          INFO("slice " << slice << " packet " << p << " row " << row << " lane " << lane);
          CHECK(out[(p * 4 + row) * 8 + lane] == bits(o->dot(p, lane, row)));
        }
  }
}

} // namespace

TEST_CASE("TRF write and a bf16 GEMV contraction match the host bit for bit",
          "[sim][contract]") {
  Rig rig;
  isa::SliceBitmap s = twoSlices();
  Gemv g0(1), g3(2);
  for (auto [slice, g] : {std::pair<int, Gemv *>{0, &g0}, {3, &g3}}) {
    rig.put(slice, 0, g->w);
    rig.put(slice, 8192, g->x);
  }
  loadWeights(rig, s, 0);
  // (a) one accumulation window over both loops, 4 slots (one per row).
  contractPass(rig, s, gemvContract(), 16384, 4);
  // (b) the row loop as the output loop: 4 windows of one slot each.
  isa::ContractConfig b;
  b.pack = 2, b.lanesLog2 = 3, b.packetElems = 32, b.window = 1, b.slots = 1;
  b.limits[0] = 4, b.trfStrides[0] = 128;
  b.limits[7] = 2, b.streamStrides[7] = 1, b.trfStrides[7] = 64;
  contractPass(rig, s, b, 20480, 4);
  // (c) 4 lanes: lane l's 16 KB segment starts at l x 16384, so base 8192 is the 8-lane
  // segment 2l + 1. Lanes 4..7 of the output are zero.
  isa::ContractConfig c = gemvContract();
  c.lanesLog2 = 2;
  c.trfBase = 8192;
  contractPass(rig, s, c, 24576, 4);
  LaunchResult r;
  std::unique_ptr<Kernel> kernel;
  Status st = rig.run(&r, &kernel);
  INFO(st.message());
  REQUIRE(st.ok());

  for (auto [slice, g] : {std::pair<int, Gemv *>{0, &g0}, {3, &g3}}) {
    auto a = rig.get<uint32_t>(slice, 16384, 32);
    auto bb = rig.get<uint32_t>(slice, 20480, 32);
    auto cc = rig.get<uint32_t>(slice, 24576, 32);
    for (int row = 0; row < 4; ++row)
      for (int lane = 0; lane < 8; ++lane) {
        INFO("slice " << slice << " row " << row << " lane " << lane);
        CHECK(a[row * 8 + lane] == bits(g->dot(lane, row)));
        CHECK(bb[row * 8 + lane] == a[row * 8 + lane]);
        CHECK(cc[row * 8 + lane] == (lane < 4 ? bits(g->dot(2 * lane + 1, row)) : 0u));
      }
  }
  // The TRF holds the weights: lane 5's segment starts at 5 x 8192.
  CHECK(rig.get<uint16_t>(3, 5 * 8192, 64, sim::SliceMemory::Trf) ==
        std::vector<uint16_t>(g3.w.begin() + 5 * 256, g3.w.begin() + 5 * 256 + 64));
  CHECK_FALSE(rig.device.dataMemory().allocated(sim::SliceMemory::Trf, 1));

  // Timing: the TRF write takes a flit per cycle; the contraction its iterations plus the
  // packet reducer's depth, the slots and the lane folder.
  const TargetModel &t = defaultTarget();
  TensorPassShape trf;
  trf.fetchAccesses = 512, trf.flits = 128, trf.registerWrites = 128;
  CHECK(r.trace[2].end - r.trace[2].start == tensorPassCycles(t, trf));
  CHECK(r.trace[2].engines == std::vector<std::string>{"fetch", "collect", "trf"});
  // One TRF range per lane segment and run of slices ({0} and {3}).
  REQUIRE(r.trace[2].writes.size() == 16);
  CHECK(r.trace[2].writes[2].memory == sim::SliceMemory::Trf);
  CHECK(r.trace[2].writes[2].sliceLo == 0);
  CHECK(r.trace[2].writes[3].sliceLo == 3);
  CHECK(r.trace[2].writes[2].lo == 8192);
  CHECK(r.trace[2].writes[2].hi == 8192 + 512);
  TensorPassShape k;
  k.fetchAccesses = 4, k.flits = 4, k.contractIterations = 8, k.contractPacketElems = 32;
  k.contractSlots = 4, k.commitWrites = 4;
  CHECK(r.trace[7].end - r.trace[7].start == tensorPassCycles(t, k));
  CHECK(tensorPassCycles(t, k) == 8 + t.pipelineFillCycles + 5 + 4 + t.contractLaneFoldCycles);
  std::string json = rig.device.traceJson(*kernel, r);
  CHECK(json.find("\"memory\": \"trf\"") != std::string::npos);
}

TEST_CASE("a GEMM-shaped pass (each weight met by many packets) matches the host bit for "
          "bit, also where products leave f32's normal range", "[sim][contract][gemm]") {
  // 64 packets of 32 elements, each against 4 rows of every lane (a window per packet, a slot
  // per row). Slice 0's operands are ordinary; slice 3's first packet and lane 0's row 0 hold
  // 2^-75 and 2^-74, whose products 2^-150 and 2^-149 are not both exact (f32's smallest
  // subnormal is 2^-149, and 2^-150 rounds to 0): the pairs (2^-150, 2^-149) and (2^-149,
  // 2^-150) sum to 2^-149 each when every product rounds first, as the engine does (2^-148 in
  // all), but one of them to 2^-148 if the same position of each pair were fused with the
  // other's rounded product (3 x 2^-149 in all).
  const float tiny = std::ldexp(1.0f, -75);
  GemmOperands ops[2];
  for (int k = 0; k < 2; ++k) {
    Lcg r(uint32_t(21 + k));
    for (auto &v : ops[k].w)
      v = f32ToBf16(r.uniform(-2.0f, 2.0f));
    for (auto &v : ops[k].x)
      v = f32ToBf16(r.uniform(-3.0f, 3.0f));
  }
  GemmOperands &o3 = ops[1];
  const float xs[4] = {tiny, tiny, tiny, tiny}, ws[4] = {tiny, 2 * tiny, 2 * tiny, tiny};
  for (int j = 0; j < 32; ++j) {
    o3.x[j] = f32ToBf16(j < 4 ? xs[j] : 0.0f);
    o3.w[j] = f32ToBf16(j < 4 ? ws[j] : 0.0f);
  }
  REQUIRE(bits(o3.dot(0, 0, 0)) == bits(std::ldexp(1.0f, -148)));
  checkGemmShaped(ops[0], o3);
}

TEST_CASE("packets at the host pair dot product's limits match the host bit for bit: "
          "products from 2^-112 (sums at least 2^-126), one binade below, subnormal inputs",
          "[sim][contract][gemm]") {
  // Where the host has AVX512-BF16, the simulator runs a packet's first tree level on its pair
  // dot product, which flushes subnormal inputs and results to zero, only where no product
  // is below 2^-112 (pairDotExact). The pairs x = (2^-56 (1 + 2^-7), -2^-56) against
  // w = (2^s (1 + 2^-7), 2^s (1 + 2^-6)) sum to 2^(s - 70): 2^-126 on slice 0 (s = -56, the
  // limit) and the subnormal 2^-127 on slice 3 (s = -57, which the pair dot would flush).
  // Packets 32.. hold x0 = 2^-130 (subnormal) against rows 2 and 3's w0 = 2^100: 2^-30, which
  // the pair dot would make 0.
  auto p2 = [](int e, float m = 1.0f) { return f32ToBf16(std::ldexp(m, e)); };
  GemmOperands ops[2];
  for (int k = 0; k < 2; ++k) {
    GemmOperands &o = ops[k];
    for (int lane = 0; lane < 8; ++lane)
      for (int row = 0; row < 4; ++row) {
        uint16_t *w = &o.w[lane * 256 + row * 32];
        if (row < 2)
          w[0] = p2(-56 - k, 1.0f + 0x1p-7f), w[1] = p2(-56 - k, 1.0f + 0x1p-6f);
        else
          w[0] = p2(100), w[1] = p2(100, 1.0f + 0x1p-7f);
      }
    for (int p = 0; p < 64; ++p) {
      float sign = p % 2 ? -1.0f : 1.0f;
      uint16_t *x = &o.x[p * 32];
      if (p < 32)
        x[0] = p2(-56, sign * (1.0f + 0x1p-7f)), x[1] = p2(-56, -sign);
      else
        x[0] = p2(-130, sign);
    }
  }
  REQUIRE(bits(ops[0].dot(0, 0, 0)) == bits(0x1p-126f));
  REQUIRE(bits(ops[1].dot(1, 0, 1)) == bits(-0x1p-127f));
  REQUIRE(bits(ops[1].dot(32, 0, 2)) == bits(0x1p-30f));
  checkGemmShaped(ops[0], ops[1]);
}

TEST_CASE("pairDotExact: products from 2^-112 and below 2^126, no special values",
          "[sim][contract]") {
  // Biased exponents: 2^e is e + 127.
  auto range = [](int lo, int hi, bool special = false) {
    sim::Bf16Exponents r;
    r.lo = lo + 127, r.hi = hi + 127, r.special = special;
    return r;
  };
  CHECK(sim::pairDotExact(range(-3, 2), range(-20, -1)));      // ordinary operands
  CHECK(sim::pairDotExact(range(-56, 0), range(-56, 0)));      // smallest product 2^-112
  CHECK_FALSE(sim::pairDotExact(range(-56, 0), range(-57, 0))); // 2^-113
  CHECK(sim::pairDotExact(range(0, 62), range(0, 62)));        // largest below 2^126
  CHECK_FALSE(sim::pairDotExact(range(0, 62), range(0, 63)));  // up to 2^127
  CHECK_FALSE(sim::pairDotExact(range(0, 0, true), range(0, 0)));
  CHECK_FALSE(sim::pairDotExact(range(0, 0), range(0, 0, true)));
  sim::Bf16Exponents zeros; // only zeros: every product is zero
  CHECK(sim::pairDotExact(zeros, range(-126, 127)));
  uint8_t values[8] = {0x00, 0x00, 0x00, 0x80, 0x80, 0x3f, 0x01, 0x00}; // +0, -0, 1, subnormal
  sim::Bf16Exponents scanned;
  scanned.add(values, 3);
  CHECK((scanned.lo == 127 && scanned.hi == 127 && !scanned.special));
  scanned.add(values + 6, 1);
  CHECK(scanned.special);
}

TEST_CASE("sequential lane folding: a flit per slot and lane, the interleaved values in "
          "element 0", "[sim][contract][lanes]") {
  Rig rig;
  isa::SliceBitmap s = twoSlices();
  Gemv g0(11), g3(12);
  for (auto [slice, g] : {std::pair<int, Gemv *>{0, &g0}, {3, &g3}}) {
    rig.put(slice, 0, g->w);
    rig.put(slice, 8192, g->x);
  }
  loadWeights(rig, s, 0);
  // Two windows (rows {0, 1}, then {2, 3}) of two slots (one row each), both 32-element chunks
  // accumulated. Runs the pass and returns the exec command's index (its trace entry).
  auto pass = [&](const isa::ContractConfig &c, int64_t outBase, int64_t outFlits,
                  bool cast = false) {
    int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 8192, 128, 32).values());
    int64_t k = rig.config(isa::Unit::Contract, c.values());
    std::vector<int64_t> configs{f, k};
    uint16_t units = kFetchCollect | isa::UnitContract | isa::UnitCommit;
    if (cast) {
      configs.push_back(
          rig.config(isa::Unit::Cast, isa::CastConfig{isa::CastMode::F32ToBf16}.values()));
      units |= isa::UnitCast;
    }
    configs.push_back(rig.config(isa::Unit::Commit,
                                 commitLinear(s, outBase, outFlits, cast ? 8 : 32).values()));
    rig.pass(units, configs);
    return rig.e.commands.size() - 2; // the exec, before its wait
  };
  struct Case {
    int64_t lanesLog2, trfBase, inter, seq;
    size_t interExec = 0, seqExec = 0;
  };
  // L = 8 reads the 8-lane layout at 0; L = 4 reads lane l's 16 KB segment at 8192, which is
  // the 8-lane segment 2l + 1 (as in the GEMV test).
  std::vector<Case> cases{{3, 0, 16384, 16896}, {2, 8192, 20480, 20992}};
  for (Case &k : cases) {
    isa::ContractConfig c;
    c.pack = 2, c.lanesLog2 = k.lanesLog2, c.packetElems = 32, c.trfBase = k.trfBase;
    c.window = 1, c.slots = 2;
    c.limits[0] = 2, c.trfStrides[0] = 256;                     // window: rows {0,1}, {2,3}
    c.limits[6] = 2, c.trfStrides[6] = 128, c.accStrides[6] = 1; // row -> slot
    c.limits[7] = 2, c.streamStrides[7] = 1, c.trfStrides[7] = 64;
    CHECK(c.laneMode == isa::LaneMode::Interleaved);
    k.interExec = pass(c, k.inter, 2 * 2);
    c.laneMode = isa::LaneMode::Sequential;
    int64_t lanes = int64_t(1) << k.lanesLog2;
    k.seqExec = pass(c, k.seq, 2 * 2 * lanes); // windows x slots x L flits
  }
  // L = 8 again, then the Cast Engine and 8-byte commits: each lane's bf16 value leads its
  // 8 bytes (the Cast Engine sees the 32 sequential flits).
  isa::ContractConfig c8;
  c8.pack = 2, c8.lanesLog2 = 3, c8.packetElems = 32, c8.window = 1, c8.slots = 2;
  c8.limits[0] = 2, c8.trfStrides[0] = 256;
  c8.limits[6] = 2, c8.trfStrides[6] = 128, c8.accStrides[6] = 1;
  c8.limits[7] = 2, c8.streamStrides[7] = 1, c8.trfStrides[7] = 64;
  c8.laneMode = isa::LaneMode::Sequential;
  size_t castExec = pass(c8, 24576, 32, /*cast=*/true);
  LaunchResult r;
  Status st = rig.run(&r);
  INFO(st.message());
  REQUIRE(st.ok());

  for (auto [slice, g] : {std::pair<int, Gemv *>{0, &g0}, {3, &g3}})
    for (const Case &k : cases) {
      int64_t lanes = int64_t(1) << k.lanesLog2;
      auto inter = rig.get<uint32_t>(slice, k.inter, 4 * 8);
      auto seq = rig.get<uint32_t>(slice, k.seq, 4 * lanes * 8);
      for (int w = 0; w < 2; ++w)
        for (int a = 0; a < 2; ++a)
          for (int l = 0; l < 8; ++l) {
            int row = 2 * w + a, flit = 2 * w + a;
            INFO("slice " << slice << " L " << lanes << " window " << w << " slot " << a
                          << " lane " << l);
            int src = lanes == 8 ? l : 2 * l + 1;
            CHECK(inter[flit * 8 + l] == (l < lanes ? bits(g->dot(src, row)) : 0u));
            if (l >= lanes)
              continue;
            // Sequential: flit (window, slot, lane) holds the same bits in element 0.
            const uint32_t *o = &seq[static_cast<size_t>(((2 * w + a) * lanes + l) * 8)];
            CHECK(o[0] == inter[flit * 8 + l]);
            for (int e = 1; e < 8; ++e)
              CHECK(o[e] == 0u);
          }
      auto cast = rig.get<uint16_t>(slice, 24576, 32 * 4);
      auto inter8 = rig.get<uint32_t>(slice, cases[0].inter, 4 * 8);
      for (int f = 0; f < 32; ++f) {
        INFO("slice " << slice << " cast flit " << f);
        CHECK(cast[4 * f] == f32ToBf16(bitsFloat(inter8[(f / 8) * 8 + f % 8])));
        CHECK(cast[4 * f + 1] == 0);
        CHECK(cast[4 * f + 2] == 0);
        CHECK(cast[4 * f + 3] == 0);
      }
    }

  // Timing: the same formula; the flits counted downstream are the lane folder's real output.
  const TargetModel &t = defaultTarget();
  auto cycles = [&](size_t exec) { return r.trace[exec].end - r.trace[exec].start; };
  TensorPassShape k;
  k.fetchAccesses = 4, k.flits = 4, k.contractIterations = 8, k.contractPacketElems = 32;
  k.contractSlots = 2;
  for (const Case &c : cases) {
    k.commitWrites = 4;
    CHECK(cycles(c.interExec) == tensorPassCycles(t, k));
    k.commitWrites = 4 << c.lanesLog2;
    CHECK(cycles(c.seqExec) == tensorPassCycles(t, k));
  }
  CHECK(cycles(cases[0].seqExec) == 32 + t.pipelineFillCycles + 5 + 2 + t.contractLaneFoldCycles);
  k.castFlits = 32, k.commitWrites = 32;
  CHECK(cycles(castExec) == tensorPassCycles(t, k));
  CHECK(r.trace[castExec].engines ==
        std::vector<std::string>{"fetch", "collect", "contract", "cast", "commit"});
}

TEST_CASE("sequential lane folding: the commit must take windows x slots x L flits",
          "[sim][contract][lanes]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  isa::ContractConfig c = gemvContract(); // 4 slots, 8 lanes, one window
  c.laneMode = isa::LaneMode::Sequential;
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 8192, 128, 32).values());
  int64_t k = rig.config(isa::Unit::Contract, c.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 16384, 4, 32).values());
  rig.pass(kFetchCollect | isa::UnitContract | isa::UnitCommit, {f, k, w});
  CHECK(rig.run().message() == "command #3 `rngd.exec main [fetch, collect, contract, commit]`: "
                               "commit nest makes 4 writes but the pass carries 32 flits per "
                               "slice");
}

TEST_CASE("i8 contraction: i32 products and wrap-around sums, three slots per window",
          "[sim][contract]") {
  Rig rig;
  isa::SliceBitmap s = slices(7, 1);
  Lcg r(9);
  std::vector<int8_t> w(2 * 96), x(64); // 2 lanes x 3 rows x 32; 2 packets of 32
  for (auto &v : w)
    v = static_cast<int8_t>(r.next() >> 24);
  for (auto &v : x)
    v = static_cast<int8_t>(r.next() >> 24);
  w[0] = x[0] = -128; // -128 x -128 = 16384 stays exact in i32
  rig.put(7, 0, w);
  rig.put(7, 1024, x);
  int64_t f0 = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 192, 32, 3).values());
  int64_t tw = rig.config(isa::Unit::TrfWrite, isa::TrfWriteConfig{64, 1, 96}.values());
  rig.pass(kFetchCollect | isa::UnitTrf, {f0, tw}, isa::Context::Sub);
  isa::ContractConfig c;
  c.pack = 1, c.lanesLog2 = 1, c.mac = isa::MacType::I8, c.packetElems = 32;
  c.trfBase = 64, c.window = 1, c.slots = 3;
  c.limits[0] = 2, c.streamStrides[0] = 1;                    // output loop: packet
  c.limits[7] = 3, c.trfStrides[7] = 32, c.accStrides[7] = 1; // rows into slots 0..2
  int64_t f1 = rig.config(isa::Unit::Fetch, fetchLinear(s, 1024, 64, 32).values());
  int64_t k = rig.config(isa::Unit::Contract, c.values());
  int64_t cm = rig.config(isa::Unit::Commit, commitLinear(s, 4096, 6, 32).values());
  rig.pass(kFetchCollect | isa::UnitContract | isa::UnitCommit, {f1, k, cm});
  REQUIRE(rig.run().ok());
  auto y = rig.get<int32_t>(7, 4096, 48);
  for (int p = 0; p < 2; ++p)
    for (int row = 0; row < 3; ++row)
      for (int lane = 0; lane < 8; ++lane) {
        int32_t expect = 0;
        if (lane < 2)
          for (int j = 0; j < 32; ++j)
            expect += int32_t(x[32 * p + j]) * int32_t(w[lane * 96 + row * 32 + j]);
        INFO("packet " << p << " row " << row << " lane " << lane);
        CHECK(y[(p * 3 + row) * 8 + lane] == expect);
      }
}

TEST_CASE("contraction shape errors name the pass and the bound", "[sim][contract]") {
  auto attempt = [](auto patch) {
    Rig rig;
    isa::SliceBitmap s = slices(0, 1);
    isa::ContractConfig c = gemvContract();
    isa::FetchConfig f = fetchLinear(s, 8192, 128, 32);
    patch(c, f);
    int64_t fi = rig.config(isa::Unit::Fetch, f.values());
    int64_t k = rig.config(isa::Unit::Contract, c.values());
    int64_t flits = 1;
    for (int i = 0; i < c.window; ++i)
      flits *= c.limits[i];
    int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 16384, flits * c.slots, 32).values());
    rig.pass(kFetchCollect | isa::UnitContract | isa::UnitCommit, {fi, k, w});
    return rig.run().message();
  };
  CHECK(attempt([](isa::ContractConfig &, isa::FetchConfig &) {}) == "");
  CHECK(attempt([](isa::ContractConfig &c, isa::FetchConfig &) { c.limits[7] = 3; }) ==
        "command #3 `rngd.exec main [fetch, collect, contract, commit]`: contract stream packet "
        "index reaches [0, 2], outside the 2 packets of the stream");
  CHECK(attempt([](isa::ContractConfig &c, isa::FetchConfig &) { c.trfBase = 8192 - 448; })
            .find("contract reads TRF bytes [7744, 8256) of each lane segment, outside [0, 8192) "
                  "(8 lanes)") != std::string::npos);
  CHECK(attempt([](isa::ContractConfig &c, isa::FetchConfig &) { c.trfBase = 1; })
            .find("multiples of the 2-byte element") != std::string::npos);
  CHECK(attempt([](isa::ContractConfig &, isa::FetchConfig &f) { f.limits[7] = 3; })
            .find("contract packs 2 flits per packet, but the stream has 3 flits") !=
        std::string::npos);
}

TEST_CASE("TRF hazards: a deleted wait is caught, disjoint lane halves overlap legally",
          "[sim][contract][hazard]") {
  isa::SliceBitmap s = slices(0, 1);
  Gemv g(5);
  // Deleted `rngd.wait sub`: the contraction reads lane 0's [0, 512) while the write runs.
  Rig rig;
  rig.put(0, 0, g.w);
  rig.put(0, 8192, g.x);
  loadWeights(rig, s, 0, /*wait=*/false);
  contractPass(rig, s, gemvContract(), 16384, 4);
  Status st = rig.run();
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("command #6 `rngd.exec main [fetch, collect, contract, commit]` reads "
                          "TRF slice 0 [0, 512) while command #2 `rngd.exec sub [fetch, collect, "
                          "trf]` (in flight until cycle ") == 0);

  // Double buffering: the next weights go to [4096, 4608) of every lane while the contraction
  // reads [0, 512) of every lane: no lane range overlaps, so the two passes run concurrently.
  Rig ok;
  ok.put(0, 0, g.w);
  ok.put(0, 8192, g.x);
  loadWeights(ok, s, 0);
  loadWeights(ok, s, 4096, /*wait=*/false);
  contractPass(ok, s, gemvContract(), 16384, 4);
  ok.e.commands.push_back(waitCtx(isa::Context::Sub));
  LaunchResult r;
  REQUIRE(ok.run(&r).ok());
  CHECK(r.trace[10].start < r.trace[6].end); // the contraction starts before the write ends
  auto y = ok.get<uint32_t>(0, 16384, 32);
  CHECK(y[8 + 2] == bits(g.dot(2, 1)));
  CHECK(ok.get<uint16_t>(0, 8192 + 4096, 1, sim::SliceMemory::Trf)[0] == g.w[256]);
}

TEST_CASE("a TRF-write pass with 64 same-bank fetches during a DMA breaks the bank rule",
          "[sim][hazard]") {
  for (int64_t n : {63, 64}) {
    Rig rig;
    rig.e.args.push_back(arg("x", ArgKind::In, DType::I8, {256}, 0));
    rig.e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(1024), 256));
    isa::SliceBitmap s = slices(0, 1);
    // A column walk: every 8-byte access 128 bytes apart hits bank 0.
    int64_t f = rig.config(isa::Unit::Fetch, fetchCfg(s, 0, 3, 8, {{n, 128}}).values());
    int64_t w = rig.config(isa::Unit::TrfWrite, isa::TrfWriteConfig{0, 0, n * 8}.values());
    rig.pass(kFetchCollect | isa::UnitTrf, {f, w}, isa::Context::Sub, false);
    rig.e.commands.insert(rig.e.commands.end(), {dma(0, 0), waitTag(0), waitCtx(isa::Context::Sub)});
    Status st = rig.run();
    INFO(st.message());
    if (n == 63)
      CHECK(st.ok());
    else
      CHECK(st.message() == "command #2 `rngd.exec sub [fetch, collect, trf]`: fetch makes 64 "
                            "consecutive accesses to DM bank 0 (limit: fewer than 64) while "
                            "command #3 `rngd.dma 0 tag 0` runs concurrently");
  }
}

TEST_CASE("TRF and VRF writes check their byte counts and bounds", "[sim][registers]") {
  auto attempt = [](bool trf, std::vector<int64_t> values, int64_t bytes) {
    Rig rig;
    isa::SliceBitmap s = slices(0, 1);
    int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, bytes, 32).values());
    int64_t w = rig.config(trf ? isa::Unit::TrfWrite : isa::Unit::VrfWrite, values);
    rig.pass(kFetchCollect | (trf ? isa::UnitTrf : isa::UnitVrf), {f, w});
    return rig.run().message();
  };
  CHECK(attempt(true, {0, 2, 256}, 1024) == "");
  CHECK(attempt(true, {0, 2, 200}, 1024) ==
        "command #2 `rngd.exec main [fetch, collect, trf]`: trf write receives 1024 valid bytes "
        "per slice, but lanes x lane_bytes = 4 x 200 = 800");
  CHECK(attempt(true, {16256, 2, 256}, 1024).find("trf write covers bytes [16256, 16512) of "
                                                  "each lane segment, past its 16384 bytes") !=
        std::string::npos);
  CHECK(attempt(false, {8000, 192}, 192) == "");
  CHECK(attempt(false, {8000, 256}, 256).find("vrf write covers bytes [8000, 8256), past the "
                                              "VRF's 8192 bytes") != std::string::npos);
  CHECK(attempt(false, {0, 100}, 128).find("vrf write receives 128 valid bytes per slice, but "
                                           "its bytes field is 100") != std::string::npos);
}
