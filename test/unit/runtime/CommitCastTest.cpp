// The commit adapter's f32 -> bf16 cast (commit.cast = 1): bit for bit the Cast Engine's
// rounding, applied before the trim, main context only, and not a Vector Engine user.
#include "rngd/machine/CostModel.h"
#include "Rig.h"
#include "rngd/Bf16.h"

#include <cstring>

using namespace rngd;
using namespace rngd::test;

namespace {

const uint16_t kFetchCommit = kFetchCollect | isa::UnitCommit;

isa::CommitConfig withCast(isa::CommitConfig c) {
  c.cast = isa::CommitCast::F32ToBf16;
  return c;
}

isa::VectorConfig addOne() {
  isa::VectorConfig v;
  v.steps = 1;
  isa::setVectorStep(v, 0, isa::VectorStep{int64_t(isa::Alu::FpFma), int64_t(isa::VectorOp::Add), 0, floatBits(1.0f)});
  return v;
}

bool signallingBf16Nan(uint16_t b) {
  return (b & 0x7f80) == 0x7f80 && (b & 0x007f) != 0 && (b & 0x0040) == 0;
}

} // namespace

TEST_CASE("commit cast: fetch bf16->f32, collect, commit f32->bf16 gives every bf16 back",
          "[sim][commit][cast]") {
  Rig rig;
  isa::SliceBitmap s = slices(3, 1);
  std::vector<uint16_t> x(65536); // every bf16 bit pattern, 128 KiB
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<uint16_t>(i);
  rig.put(3, 0, x);
  // 16-byte packets of 8 bf16 widen to one full f32 flit each; the commit cast halves it
  // back to 16 valid bytes, all of which are written.
  isa::FetchConfig f = fetchCfg(s, 0, 4, 16, {{8192, 16}});
  f.cast = isa::FetchCast::Bf16ToF32;
  int64_t fi = rig.config(isa::Unit::Fetch, f.values());
  int64_t wi = rig.config(isa::Unit::Commit, withCast(commitLinear(s, 262144, 8192, 16)).values());
  rig.pass(kFetchCommit, {fi, wi});
  LaunchResult r;
  Status st = rig.run(&r);
  INFO(st.message());
  REQUIRE(st.ok());
  std::vector<uint16_t> y = rig.get<uint16_t>(3, 262144, x.size());
  size_t exact = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("bf16 0x" << std::hex << x[i]);
    if (signallingBf16Nan(x[i])) {
      CHECK(y[i] == (x[i] | 0x0040)); // NaN stays a NaN and becomes quiet, as in the Cast Engine
    } else {
      CHECK(y[i] == x[i]);
      ++exact;
    }
  }
  CHECK(exact == 65536 - 2 * 63); // all but the signalling NaNs (either sign) come back exactly
  // No extra cycles: the same durations as a pass without the commit cast.
  TensorPassShape shape;
  shape.fetchAccesses = 8192;
  shape.fetchCast = true;
  shape.flits = 8192;
  shape.commitWrites = 8192;
  CHECK(r.trace[2].end - r.trace[2].start == tensorPassCycles(defaultTarget(), shape));
}

TEST_CASE("commit cast after vector add 1.0 equals the Cast Engine bit for bit",
          "[sim][commit][cast][numerics]") {
  Rig rig;
  isa::SliceBitmap s = slices(0, 2);
  const std::vector<uint32_t> special = {
      floatBits(0.00390625f), // 1 + 2^-8: a tie, even below (0x3f80)
      floatBits(0.01171875f), // 0x3f818000: a tie, odd below -> up (0x3f82)
      floatBits(0.0039673f),  // just above the tie
      0x7f7fffffu,            // max float: + 1 is unchanged, rounds up to +inf
      0xff7fffffu,            // -max float -> -inf
      0x7f7f8000u,            // a tie whose even neighbour is +inf
      0x7f7e8000u,            // a tie that stays finite (even below)
      0x7f800001u,            // signalling NaN: NaN + 1 is a quiet NaN
      0xffc00001u,            // negative quiet NaN with a payload
      0x7fc00000u,
      0x7f800000u, // +inf
      0xff800000u, // -inf
      0x80000000u, // -0 + 1 = 1
      0x00000001u, // denormal + 1 = 1
      floatBits(-1.0f),
      floatBits(-1.00390625f)}; // + 1 = -2^-8 exactly (0xbb80)
  const size_t n = 256;         // per slice: 32 flits of 8 f32
  for (int64_t slice : {0, 1}) {
    Lcg rng(static_cast<uint32_t>(7 + slice));
    std::vector<uint32_t> x(n);
    for (size_t i = 0; i < n; ++i)
      x[i] = i < special.size() && slice == 0 ? special[i] : floatBits(rng.uniform(-300, 300));
    rig.put(slice, 0, x);
  }
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 4 * n, 32).values());
  int64_t v = rig.config(isa::Unit::Vector, addOne().values());
  isa::CastConfig c;
  c.mode = isa::CastMode::F32ToBf16;
  int64_t ci = rig.config(isa::Unit::Cast, c.values());
  // Cast Engine: vector -> cast -> commit 16 bytes at 8192.
  int64_t wEngine = rig.config(isa::Unit::Commit, commitLinear(s, 8192, 32, 16).values());
  // Commit cast: vector -> commit (cast, then 16 bytes) at 16384.
  int64_t wCommit =
      rig.config(isa::Unit::Commit, withCast(commitLinear(s, 16384, 32, 16)).values());
  // Commit cast, then a trim to 8 of the 16 bf16 bytes: the first 4 elements of each flit.
  int64_t wTrim = rig.config(isa::Unit::Commit, withCast(commitLinear(s, 24576, 32, 8)).values());
  rig.pass(kFetchCommit | isa::UnitVector | isa::UnitCast, {f, v, ci, wEngine});
  rig.pass(kFetchCommit | isa::UnitVector, {wCommit});
  rig.pass(kFetchCommit | isa::UnitVector, {wTrim});
  Status st = rig.run();
  INFO(st.message());
  REQUIRE(st.ok());
  for (int64_t slice : {0, 1}) {
    std::vector<uint32_t> x = rig.get<uint32_t>(slice, 0, n);
    std::vector<uint16_t> engine = rig.get<uint16_t>(slice, 8192, n);
    std::vector<uint16_t> commit = rig.get<uint16_t>(slice, 16384, n);
    std::vector<uint16_t> trim = rig.get<uint16_t>(slice, 24576, n / 2);
    CHECK(commit == engine);
    for (size_t i = 0; i < n; ++i) {
      volatile float sum = bitsFloat(x[i]) + 1.0f; // volatile: no host contraction
      INFO("slice " << slice << " element " << i);
      CHECK(commit[i] == f32ToBf16(sum));
    }
    for (size_t i = 0; i < n / 2; ++i)
      CHECK(trim[i] == commit[(i / 4) * 8 + i % 4]);
    if (slice == 0) {
      CHECK(commit[0] == 0x3f80);
      CHECK(commit[1] == 0x3f82);
      CHECK(commit[2] == 0x3f81);
      CHECK(commit[3] == 0x7f80);
      CHECK(commit[4] == 0xff80);
      CHECK(commit[5] == 0x7f80);
      CHECK(commit[6] == 0x7f7e);
      CHECK((commit[7] & 0x7fc0) == 0x7fc0); // a quiet NaN
      CHECK(commit[8] == 0xffc0);
      CHECK(commit[12] == 0x3f80);
      CHECK(commit[14] == 0x0000);
      CHECK(commit[15] == 0xbb80);
    }
  }
}

TEST_CASE("commit cast errors: sub context, partial words, write past the halved flit, bad value",
          "[sim][commit][cast]") {
  isa::SliceBitmap s = slices(0, 1);
  {
    Rig rig; // the sub context reads 8 bytes per access; its commit adapter has no cast
    int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 64, 32, 3).values());
    int64_t w = rig.config(isa::Unit::Commit, withCast(commitLinear(s, 8192, 2, 16)).values());
    rig.pass(kFetchCommit, {f, w}, isa::Context::Sub);
    CHECK(rig.run().message() == "command #2 `rngd.exec sub [fetch, collect, commit]`: commit "
                                 "cast f32->bf16 runs only on the main context");
    // Without the cast the same pass runs.
    rig.e.configs[1].values = commitLinear(s, 8192, 2, 16).values();
    CHECK(rig.run().ok());
  }
  {
    Rig rig; // 6-byte packets: flits of 6 valid bytes are not whole 32-bit words
    int64_t f = rig.config(isa::Unit::Fetch, fetchCfg(s, 0, 1, 6, {{12, 2}}).values());
    int64_t w = rig.config(isa::Unit::Commit, withCast(commitLinear(s, 8192, 4, 8)).values());
    rig.pass(kFetchCommit, {f, w});
    CHECK(rig.run().message() == "command #2 `rngd.exec main [fetch, collect, commit]`: commit "
                                 "cast f32->bf16 of flit 0 with 6 valid bytes (not whole 32-bit "
                                 "words)");
  }
  {
    Rig rig; // a full f32 flit leaves 16 valid bytes: 24 cannot be written
    int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 64, 32).values());
    int64_t w = rig.config(isa::Unit::Commit, withCast(commitLinear(s, 8192, 2, 24)).values());
    rig.pass(kFetchCommit, {f, w});
    CHECK(rig.run().message() == "command #2 `rngd.exec main [fetch, collect, commit]`: commit "
                                 "writes 24 bytes of each flit, but flit 0 has only 16 valid "
                                 "bytes");
    // Without the cast the flits keep 32 valid bytes.
    rig.e.configs[1].values = commitLinear(s, 8192, 2, 24).values();
    CHECK(rig.run().ok());
  }
  {
    Rig rig; // cast = 2 fits the 2-bit field, but validateBlock rejects it
    int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 64, 32).values());
    std::vector<int64_t> values = commitLinear(s, 8192, 2, 16).values();
    values.back() = 2;
    int64_t w = rig.config(isa::Unit::Commit, values);
    rig.pass(kFetchCommit, {f, w});
    CHECK(rig.run().message().find("commit.cast = 2 is not a known commit cast (0 none, 1 "
                                   "f32->bf16)") != std::string::npos);
    std::vector<uint8_t> bytes;
    std::string why;
    CHECK_FALSE(writeExecutable(rig.e, bytes, why));
    CHECK(why == "config block 1: commit.cast = 2 is not a known commit cast (0 none, 1 "
                 "f32->bf16)");
  }
}

namespace {

// Main: fetch 256 f32 flits -> f32->bf16 (commit cast, or the Cast Engine) -> commit. Sub,
// issued right after without a wait: fetch -> vector add 1.0 -> commit, on other DM offsets.
Status overlapRun(bool castEngine, LaunchResult &r, Rig &rig) {
  isa::SliceBitmap s = slices(0, 4);
  int64_t fm = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 8192, 32).values());
  isa::CommitConfig wm = commitLinear(s, 16384, 256, 16);
  uint16_t mainUnits = kFetchCommit;
  std::vector<int64_t> mainConfigs{fm};
  if (castEngine) {
    isa::CastConfig c;
    c.mode = isa::CastMode::F32ToBf16;
    mainConfigs.push_back(rig.config(isa::Unit::Cast, c.values()));
    mainUnits |= isa::UnitCast;
  } else {
    wm = withCast(wm);
  }
  mainConfigs.push_back(rig.config(isa::Unit::Commit, wm.values()));
  int64_t fs = rig.config(isa::Unit::Fetch, fetchLinear(s, 32768, 256, 32, 3).values());
  int64_t v = rig.config(isa::Unit::Vector, addOne().values());
  int64_t ws = rig.config(isa::Unit::Commit, commitLinear(s, 40960, 8, 32).values());
  rig.pass(mainUnits, mainConfigs, isa::Context::Main, false);
  rig.pass(kFetchCommit | isa::UnitVector, {fs, v, ws}, isa::Context::Sub, false);
  rig.e.commands.push_back(waitCtx(isa::Context::Main));
  rig.e.commands.push_back(waitCtx(isa::Context::Sub));
  return rig.run(&r);
}

} // namespace

TEST_CASE("a commit-cast pass overlaps a vector pass on the other context; a Cast Engine pass "
          "may not",
          "[sim][commit][cast][hazard]") {
  std::vector<float> x(2048), y(64);
  Lcg rng(11);
  for (auto &e : x)
    e = rng.uniform(-4, 4);
  for (auto &e : y)
    e = rng.uniform(-4, 4);
  {
    Rig rig;
    for (int64_t slice = 0; slice < 4; ++slice) {
      rig.put(slice, 0, x);
      rig.put(slice, 32768, y);
    }
    LaunchResult r;
    Status st = overlapRun(false, r, rig);
    INFO(st.message());
    REQUIRE(st.ok());
    // Commands: 2 main loads, exec main (#2), 3 sub loads, exec sub (#6), two waits.
    CHECK(r.trace[2].engines ==
          std::vector<std::string>{"fetch", "collect", "commit"});
    CHECK(r.trace[6].start < r.trace[2].end); // the two passes really overlap
    for (int64_t slice = 0; slice < 4; ++slice) {
      std::vector<uint16_t> out = rig.get<uint16_t>(slice, 16384, x.size());
      std::vector<float> sub = rig.get<float>(slice, 40960, y.size());
      for (size_t i = 0; i < x.size(); ++i)
        CHECK(out[i] == f32ToBf16(x[i]));
      for (size_t i = 0; i < y.size(); ++i) {
        volatile float sum = y[i] + 1.0f;
        CHECK(sub[i] == sum);
      }
    }
  }
  {
    Rig rig;
    LaunchResult r;
    Status st = overlapRun(true, r, rig);
    // Commands: 3 main loads, exec main (#3), 3 sub loads, exec sub (#7).
    CHECK(st.message().find("command #7 `rngd.exec sub [fetch, collect, vector, commit]` uses "
                            "the Vector Engine from cycle ") == 0);
    CHECK(st.message().find("while command #3 `rngd.exec main [fetch, collect, cast, commit]`") !=
          std::string::npos);
  }
}
