// One Tensor Unit pass (`exec`): fetch -> [fetch cast] -> collect -> [vector] -> [cast] ->
// commit on every slice the fetch bitmap enables. The loop nests are walked once (every slice
// runs the same broadcast configuration); data then moves slice by slice in bulk copies.
#include "Machine.h"
#include "Sequencer.h"
#include "VectorEngine.h"

#include <cstring>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the simulator stores device words in host order; it needs a little-endian host");

namespace rngd::sim {
namespace {

struct Run {
  int64_t offset;
  int64_t bytes;
};

// What the fetch nest reads in every enabled slice.
struct FetchPlan {
  int64_t access = 0, accesses = 0, streamBytes = 0;
  std::vector<Run> runs; // contiguous accesses merged
  int64_t lo = 0, hi = 0;
  int64_t sameBankRun = 0, bank = 0;
};

// Follows consecutive accesses to one DM bank (the 64-consecutive-same-bank rule).
struct BankRun {
  int64_t last = -1, run = 0, longest = 0, bank = 0;
  void add(int64_t b) {
    run = b == last ? run + 1 : 1;
    last = b;
    if (run > longest) {
      longest = run;
      bank = b;
    }
  }
};

class Pass {
public:
  Pass(const Env &env, const std::string &label, const PassConfig &c, PassOutcome &out)
      : env_(env), t_(env.target), label_(label), c_(c), out_(out) {}

  Status run() {
    if (!checkUnits() || !planFetch() || !planFlits() || !planCommit() || !checkSlices())
      return Status::failure(label_ + ": " + why_);
    out_.cycles = tensorPassCycles(t_, out_.shape);
    for (int64_t s = 0; s < t_.totalSlices(); ++s)
      if (testSlice(c_.commit->slices, s))
        runSlice(s);
    return Status::success();
  }

private:
  bool fail(std::string m) {
    why_ = std::move(m);
    return false;
  }
  bool listed(uint16_t bit) const { return (c_.units & bit) != 0; }

  bool checkUnits() {
    for (uint16_t bit : {isa::UnitSwitch, isa::UnitContract, isa::UnitTranspose})
      if (listed(bit))
        return fail(std::string("unsupported unit ") +
                    isa::unitBitName(static_cast<unsigned>(__builtin_ctz(bit))) +
                    " (the simulator runs fetch, collect, vector, cast and commit)");
    if (!listed(isa::UnitFetch) || !listed(isa::UnitCollect) || !listed(isa::UnitCommit))
      return fail("a pass needs fetch, collect and commit in its unit list");
    const char *ctx = isa::contextName(c_.context);
    if (!c_.fetch || !c_.commit || (listed(isa::UnitVector) && !c_.vector) ||
        (listed(isa::UnitCast) && !c_.cast)) {
      const char *missing = !c_.fetch ? "fetch" : !c_.commit ? "commit"
                          : (listed(isa::UnitVector) && !c_.vector) ? "vector"
                                                                    : "cast";
      return fail(std::string("no ") + missing + " configuration is loaded in context " + ctx);
    }
    out_.usesVectorEngine = listed(isa::UnitVector) || listed(isa::UnitCast);
    if (listed(isa::UnitVector)) {
      std::string why;
      if (!checkVectorSteps(*c_.vector, out_.shape.vectorFloatAlus, out_.shape.vectorIntAlus,
                            why))
        return fail(why);
    }
    return true;
  }

  bool planFetch() {
    const isa::FetchConfig &f = *c_.fetch;
    FetchPlan &p = fetch_;
    p.access = int64_t(1) << f.accessLog2;
    int64_t maxAccess =
        c_.context == isa::Context::Sub ? t_.subFetchAccessBytes : t_.maxFetchAccessBytes;
    if (p.access > maxAccess)
      return fail("fetch access of " + std::to_string(p.access) + " bytes exceeds the " +
                  isa::contextName(c_.context) + " context's " + std::to_string(maxAccess));
    int64_t cap = env_.options.maxWorkPerCommand;
    p.accesses = nestCount(f.limits, cap);
    if (p.accesses > cap)
      return fail("fetch nest makes more than " + std::to_string(cap) +
                  " accesses per slice, over the simulator's per-command cap");
    if (p.accesses > env_.options.maxStreamBytesPerSlice / p.access)
      return fail("fetch streams more than " +
                  std::to_string(env_.options.maxStreamBytesPerSlice) +
                  " bytes per slice, over the simulator's limit");
    p.streamBytes = p.accesses * p.access;
    if (f.packetBytes % p.access != 0)
      return fail("fetch packet of " + std::to_string(f.packetBytes) +
                  " bytes is not a multiple of the " + std::to_string(p.access) +
                  "-byte access");
    if (p.streamBytes % f.packetBytes != 0)
      return fail("fetch reads " + std::to_string(p.streamBytes) +
                  " bytes per slice, not a multiple of the " + std::to_string(f.packetBytes) +
                  "-byte packet");
    if (f.cast == isa::FetchCast::Bf16ToF32 && f.packetBytes % 2 != 0)
      return fail("fetch cast bf16->f32 needs an even packet size, got " +
                  std::to_string(f.packetBytes));
    int64_t limit = t_.dmBytesPerSlice - p.access;
    int64_t index = 0, lo = INT64_MAX, hi = INT64_MIN;
    BankRun banks;
    bool ok = walkNest(f.base, f.limits, f.strides, [&](int64_t a) {
      if (a < 0 || a > limit) {
        why_ = "fetch access " + std::to_string(index) + " reads DM offset " +
               std::to_string(a) + " (+" + std::to_string(p.access) + "), outside [0, " +
               std::to_string(t_.dmBytesPerSlice) + ")";
        return false;
      }
      if (!p.runs.empty() && p.runs.back().offset + p.runs.back().bytes == a)
        p.runs.back().bytes += p.access;
      else
        p.runs.push_back({a, p.access});
      lo = std::min(lo, a);
      hi = std::max(hi, a + p.access);
      banks.add((a / t_.dmBankBytes) % t_.dmBanks);
      ++index;
      return true;
    });
    if (!ok)
      return false;
    p.lo = lo;
    p.hi = hi;
    out_.sameBankRun = banks.longest;
    out_.sameBankWhat = "fetch makes " + std::to_string(banks.longest) +
                        " consecutive accesses to DM bank " + std::to_string(banks.bank);
    out_.shape.fetchAccesses = p.accesses;
    out_.shape.fetchCast = f.cast == isa::FetchCast::Bf16ToF32;
    return true;
  }

  // Packets -> flits: the fetch cast doubles a packet, Collect pads it to whole flits.
  bool planFlits() {
    const isa::FetchConfig &f = *c_.fetch;
    packetIn_ = f.packetBytes;
    packetOut_ = out_.shape.fetchCast ? 2 * packetIn_ : packetIn_;
    packets_ = fetch_.streamBytes / packetIn_;
    flitsPerPacket_ = (packetOut_ + t_.flitBytes - 1) / t_.flitBytes;
    for (int64_t j = 0; j < flitsPerPacket_; ++j)
      validBytes_.push_back(static_cast<int>(std::min<int64_t>(t_.flitBytes,
                                                                packetOut_ - j * t_.flitBytes)));
    flits_ = packets_ * flitsPerPacket_;
    if (flits_ > env_.options.maxStreamBytesPerSlice / t_.flitBytes)
      return fail("the pass carries " + std::to_string(flits_) + " flits per slice, over the "
                  "simulator's limit of " + std::to_string(env_.options.maxStreamBytesPerSlice) +
                  " bytes");
    out_.shape.flits = flits_;
    out_.shape.vectorFlits = listed(isa::UnitVector) ? flits_ : 0;
    out_.shape.castFlits = listed(isa::UnitCast) ? flits_ : 0;
    castMode_ = listed(isa::UnitCast) ? c_.cast->mode : isa::CastMode::None;
    if (castMode_ == isa::CastMode::F32ToBf16) {
      for (int &v : validBytes_) {
        if (v % 4 != 0)
          return fail("cast f32->bf16 of a flit with " + std::to_string(v) +
                      " valid bytes (not whole f32 words)");
        validWords_.push_back(v / 4);
        v /= 2;
      }
    }
    return true;
  }

  bool planCommit() {
    const isa::CommitConfig &c = *c_.commit;
    int64_t cap = env_.options.maxWorkPerCommand;
    int64_t writes = nestCount(c.limits, cap);
    if (writes > cap)
      return fail("commit nest makes more than " + std::to_string(cap) +
                  " writes per slice, over the simulator's per-command cap");
    if (writes != flits_)
      return fail("commit nest makes " + std::to_string(writes) + " writes but the pass "
                  "carries " + std::to_string(flits_) + " flits per slice");
    for (size_t j = 0; j < validBytes_.size(); ++j)
      if (c.writeBytes > validBytes_[j])
        return fail("commit writes " + std::to_string(c.writeBytes) + " bytes of each flit, "
                    "but flit " + std::to_string(j) + " of each packet has only " +
                    std::to_string(validBytes_[j]) + " valid bytes");
    int64_t limit = t_.dmBytesPerSlice - c.writeBytes;
    int64_t index = 0, lo = INT64_MAX, hi = INT64_MIN;
    BankRun banks;
    commitOffsets_.reserve(static_cast<size_t>(writes));
    bool ok = walkNest(c.base, c.limits, c.strides, [&](int64_t a) {
      if (a < 0 || a > limit) {
        why_ = "commit write " + std::to_string(index) + " writes DM offset " +
               std::to_string(a) + " (+" + std::to_string(c.writeBytes) + "), outside [0, " +
               std::to_string(t_.dmBytesPerSlice) + ")";
        return false;
      }
      if (a % t_.commitStrideAlignment != 0) {
        why_ = "commit write " + std::to_string(index) + " at DM offset " + std::to_string(a) +
               " is not " + std::to_string(t_.commitStrideAlignment) + "-byte aligned";
        return false;
      }
      commitOffsets_.push_back(a);
      lo = std::min(lo, a);
      hi = std::max(hi, a + c.writeBytes);
      banks.add((a / t_.dmBankBytes) % t_.dmBanks);
      ++index;
      return true;
    });
    if (!ok)
      return false;
    out_.shape.commitWrites = writes;
    if (banks.longest > out_.sameBankRun) {
      out_.sameBankRun = banks.longest;
      out_.sameBankWhat = "commit makes " + std::to_string(banks.longest) +
                          " consecutive writes to DM bank " + std::to_string(banks.bank);
    }
    commitLo_ = lo;
    commitHi_ = hi;
    return true;
  }

  bool checkSlices() {
    const isa::SliceBitmap &fs = c_.fetch->slices, &cs = c_.commit->slices;
    int64_t total = int64_t(isa::kSliceBitmapWords) * 64;
    bool any = false;
    for (int64_t s = 0; s < total; ++s) {
      bool f = testSlice(fs, s), c = testSlice(cs, s);
      if ((f || c) && s >= t_.totalSlices())
        return fail("slice " + std::to_string(s) + " is enabled but the target has " +
                    std::to_string(t_.totalSlices()));
      if (c && !f)
        return fail("commit enables slice " + std::to_string(s) +
                    ", which the fetch bitmap does not");
      any |= f;
    }
    if (!any)
      return fail("the fetch slice bitmap enables no slice");
    out_.effects.reads.dm.push_back({fs, static_cast<uint64_t>(fetch_.lo),
                                     static_cast<uint64_t>(fetch_.hi)});
    bool anyCommit = false;
    for (uint64_t w : cs)
      anyCommit |= w != 0;
    if (anyCommit)
      out_.effects.writes.dm.push_back({cs, static_cast<uint64_t>(commitLo_),
                                        static_cast<uint64_t>(commitHi_)});
    return true;
  }

  void runSlice(int64_t s) {
    uint8_t *dm = env_.dm.slice(s);
    stream_.resize(static_cast<size_t>(fetch_.streamBytes));
    uint8_t *st = stream_.data();
    for (const Run &r : fetch_.runs) {
      std::memcpy(st, dm + r.offset, static_cast<size_t>(r.bytes));
      st += r.bytes;
    }
    int64_t flitBytes = t_.flitBytes;
    flitWords_.assign(static_cast<size_t>(flits_ * flitBytes / 4), 0); // Collect pads with 0
    auto *flits = reinterpret_cast<uint8_t *>(flitWords_.data());
    int64_t packetSpan = flitsPerPacket_ * flitBytes;
    for (int64_t p = 0; p < packets_; ++p) {
      const uint8_t *in = stream_.data() + p * packetIn_;
      uint8_t *o = flits + p * packetSpan;
      if (!out_.shape.fetchCast) {
        std::memcpy(o, in, static_cast<size_t>(packetIn_));
        continue;
      }
      for (int64_t e = 0; e < packetIn_ / 2; ++e) { // bf16 -> f32 widens exactly
        uint32_t w = (uint32_t(in[2 * e]) | uint32_t(in[2 * e + 1]) << 8) << 16;
        std::memcpy(o + 4 * e, &w, 4);
      }
    }
    if (listed(isa::UnitVector))
      applyVector(*c_.vector, flitWords_.data(), flitWords_.size());
    if (castMode_ == isa::CastMode::F32ToBf16)
      castF32ToBf16(flitWords_.data(), static_cast<size_t>(flits_), validWords_);
    size_t wb = static_cast<size_t>(c_.commit->writeBytes);
    for (size_t k = 0; k < commitOffsets_.size(); ++k)
      std::memcpy(dm + commitOffsets_[k], flits + k * flitBytes, wb);
  }

  const Env &env_;
  const TargetModel &t_;
  const std::string &label_;
  const PassConfig &c_;
  PassOutcome &out_;
  std::string why_;

  FetchPlan fetch_;
  int64_t packetIn_ = 0, packetOut_ = 0, packets_ = 0, flitsPerPacket_ = 0, flits_ = 0;
  std::vector<int> validBytes_, validWords_;
  isa::CastMode castMode_ = isa::CastMode::None;
  std::vector<int64_t> commitOffsets_;
  int64_t commitLo_ = 0, commitHi_ = 0;
  std::vector<uint8_t> stream_;
  std::vector<uint32_t> flitWords_;
};

} // namespace

Status runPass(const Env &env, const std::string &label, const PassConfig &config,
               PassOutcome &out) {
  return Pass(env, label, config, out).run();
}

} // namespace rngd::sim
