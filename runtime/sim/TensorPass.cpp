// One Tensor Unit pass (`exec`), docs/simulator.md "Tensor Unit pass":
//   fetch [switch] collect [contract] [vector] [cast] [transpose] commit (commit cast, trim)
//   fetch [switch] collect trf | vrf
// Every slice runs the same broadcast configuration, so the pass is planned once (loop nests
// walked, shapes, bounds, footprint and cycles) and data then moves slice by slice in bulk,
// only on the slices whose results are written. The Switch Engine and the inter-slice reducer
// are the only cross-slice steps; passes without them stream one slice at a time.
#include "Engines.h"
#include "Machine.h"
#include "Sequencer.h"
#include "VectorEngine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the simulator stores device words in host order; it needs a little-endian host");

namespace rngd::sim {
namespace {

struct Run {
  int64_t offset;
  int64_t bytes;
};

// memcpy, with the access sizes fetches and commits use most as fixed-size copies (a move or
// two instead of a library call per access).
inline void copyAccess(uint8_t *dst, const uint8_t *src, size_t bytes) {
  switch (bytes) {
  case 8:
    std::memcpy(dst, src, 8);
    return;
  case 16:
    std::memcpy(dst, src, 16);
    return;
  case 32:
    std::memcpy(dst, src, 32);
    return;
  default:
    std::memcpy(dst, src, bytes);
  }
}

// Consecutive commit writes of whole flits to consecutive DM bytes, merged: `flits` flits from
// `firstFlit` of the output to DM from `offset` (one flit per run when writes trim flits).
struct CommitRun {
  int64_t offset, firstFlit, flits;
};

// What the fetch nest reads in every enabled slice.
struct FetchPlan {
  int64_t access = 0, accesses = 0, streamBytes = 0;
  std::vector<Run> runs; // contiguous accesses merged
  int64_t lo = 0, hi = 0;
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

template <typename F> void forEachSlice(const isa::SliceBitmap &b, F &&f) {
  for (int w = 0; w < isa::kSliceBitmapWords; ++w)
    for (uint64_t bits = b[w]; bits; bits &= bits - 1)
      f(int64_t(w) * 64 + __builtin_ctzll(bits));
}

int64_t sliceCount(const isa::SliceBitmap &b) {
  int64_t n = 0;
  for (uint64_t w : b)
    n += __builtin_popcountll(w);
  return n;
}

bool empty(const isa::SliceBitmap &b) {
  for (uint64_t w : b)
    if (w)
      return false;
  return true;
}

class Pass {
public:
  Pass(const Env &env, const std::string &label, const PassConfig &c, PassOutcome &out)
      : env_(env), t_(env.target), label_(label), c_(c), out_(out) {}

  Status run() {
    if (!checkUnits() || !planFetch() || !planSwitchStage() || !planCollect() || !planTail() ||
        !planSlices())
      return Status::failure(label_ + ": " + why_);
    out_.cycles = tensorPassCycles(t_, out_.shape);
    execute();
    return Status::success();
  }

private:
  bool fail(std::string m) {
    why_ = std::move(m);
    return false;
  }
  bool listed(uint16_t bit) const { return (c_.units & bit) != 0; }
  int64_t maxFlits() const { return env_.options.maxStreamBytesPerSlice / t_.flitBytes; }
  /// Each slice's share of the command's work cap (planFetch counts the slices).
  int64_t sliceShare() const {
    return std::max<int64_t>(1, env_.options.maxWorkPerCommand / slices_);
  }

  // ---- Planning ----------------------------------------------------------------------------
  bool checkUnits() {
    sw_ = listed(isa::UnitSwitch);
    contract_ = listed(isa::UnitContract);
    vector_ = listed(isa::UnitVector);
    cast_ = listed(isa::UnitCast);
    transpose_ = listed(isa::UnitTranspose);
    commit_ = listed(isa::UnitCommit);
    trf_ = listed(isa::UnitTrf);
    vrf_ = listed(isa::UnitVrf);
    if (!listed(isa::UnitFetch) || !listed(isa::UnitCollect))
      return fail("a pass needs fetch and collect in its unit list");
    if (int(commit_) + int(trf_) + int(vrf_) != 1)
      return fail("a pass ends in exactly one of commit, trf or vrf");
    if ((trf_ || vrf_) && (contract_ || vector_ || cast_ || transpose_))
      return fail(std::string("a pass that writes the ") + (trf_ ? "TRF" : "VRF") +
                  " runs only fetch, switch and collect before it");
    if (c_.context != isa::Context::Main) { // sub: fetch, switch, collect, vector, commit
      if (contract_)
        return fail("the Contraction Engine runs only on the main context");
      if (cast_)
        return fail("the Cast Engine runs only on the main context");
      if (transpose_)
        return fail("the Transpose Engine runs only on the main context");
    }
    const char *missing = !c_.fetch                       ? "fetch"
                          : sw_ && !c_.switchUnit         ? "switch"
                          : contract_ && !c_.contract     ? "contract"
                          : vector_ && !c_.vector         ? "vector"
                          : cast_ && !c_.cast             ? "cast"
                          : transpose_ && !c_.transpose   ? "transpose"
                          : commit_ && !c_.commit         ? "commit"
                          : trf_ && !c_.trfWrite          ? "trf_write"
                          : vrf_ && !c_.vrfWrite          ? "vrf_write"
                                                          : nullptr;
    if (missing)
      return fail(std::string("no ") + missing + " configuration is loaded in context " +
                  isa::contextName(c_.context) +
                  (c_.bank ? " bank " + std::to_string(c_.bank) : ""));
    // The commit adapter's cast is not on the Vector Engine: it alone does not occupy it.
    out_.usesVectorEngine = vector_ || cast_;
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
    // The work cap is for the whole command: each of the slices the pass runs on gets a share.
    slices_ = std::max<int64_t>(1, sliceCount(f.slices));
    int64_t cap = sliceShare();
    p.accesses = nestCount(f.limits, cap);
    if (p.accesses > cap)
      return fail(overWorkCap("fetch nest", f.limits, "accesses per slice",
                              env_.options.maxWorkPerCommand, slices_));
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
    int64_t total = int64_t(isa::kSliceBitmapWords) * 64;
    for (int64_t s = t_.totalSlices(); s < total; ++s)
      if (testSlice(f.slices, s))
        return fail("fetch enables slice " + std::to_string(s) + " but the target has " +
                    std::to_string(t_.totalSlices()));
    if (empty(f.slices))
      return fail("the fetch slice bitmap enables no slice");
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

  // Fetch packets (after the fetch cast) and the switch between slices.
  bool planSwitchStage() {
    packetIn_ = c_.fetch->packetBytes;
    packetOut_ = out_.shape.fetchCast ? 2 * packetIn_ : packetIn_;
    packetsIn_ = fetch_.streamBytes / packetIn_;
    if (!sw_) {
      packets_ = packetsIn_;
      flow_ = c_.fetch->slices;
      return true;
    }
    std::string why;
    if (!planSwitch(*c_.switchUnit, packetsIn_, c_.fetch->slices, t_, switch_, why))
      return fail(why);
    packets_ = switch_.outPackets;
    if (packets_ > env_.options.maxStreamBytesPerSlice / packetOut_)
      return fail("the switch delivers more than " +
                  std::to_string(env_.options.maxStreamBytesPerSlice) +
                  " bytes per slice, over the simulator's limit");
    flow_ = switch_.flow;
    out_.shape.switchCycles = switchCycles(switch_.ring, packetsIn_,
                                           (packetOut_ + t_.flitBytes - 1) / t_.flitBytes);
    return true;
  }

  // Collect: each packet zero-padded to whole flits.
  bool planCollect() {
    flitsPerPacket_ = (packetOut_ + t_.flitBytes - 1) / t_.flitBytes;
    if (packets_ > maxFlits() / flitsPerPacket_)
      return fail("the pass carries more than " + std::to_string(maxFlits()) +
                  " flits per slice, over the simulator's limit of " +
                  std::to_string(env_.options.maxStreamBytesPerSlice) + " bytes");
    flits_ = packets_ * flitsPerPacket_;
    validCollect_.resize(static_cast<size_t>(flits_));
    for (int64_t f = 0; f < flits_; ++f) {
      int64_t j = f % flitsPerPacket_;
      validCollect_[static_cast<size_t>(f)] =
          static_cast<uint8_t>(std::min<int64_t>(t_.flitBytes, packetOut_ - j * t_.flitBytes));
    }
    out_.shape.flits = flits_;
    return true;
  }

  bool planTail() {
    int64_t streamBytes = packets_ * packetOut_; // the valid bytes, concatenated
    if (trf_) {
      const isa::TrfWriteConfig &w = *c_.trfWrite;
      trfLanes_ = int64_t(1) << w.lanesLog2;
      trfSeg_ = t_.trfBytesPerSlice >> w.lanesLog2;
      if (trfLanes_ > t_.trfLanes)
        return fail("trf write uses " + std::to_string(trfLanes_) + " lanes, the target has " +
                    std::to_string(t_.trfLanes));
      if (streamBytes != trfLanes_ * w.laneBytes)
        return fail("trf write receives " + std::to_string(streamBytes) +
                    " valid bytes per slice, but lanes x lane_bytes = " +
                    std::to_string(trfLanes_) + " x " + std::to_string(w.laneBytes) + " = " +
                    std::to_string(trfLanes_ * w.laneBytes));
      if (w.base + w.laneBytes > trfSeg_)
        return fail("trf write covers bytes [" + std::to_string(w.base) + ", " +
                    std::to_string(w.base + w.laneBytes) + ") of each lane segment, past its " +
                    std::to_string(trfSeg_) + " bytes (" + std::to_string(trfLanes_) +
                    " lanes)");
      out_.shape.registerWrites = flits_;
      return true;
    }
    if (vrf_) {
      const isa::VrfWriteConfig &w = *c_.vrfWrite;
      if (streamBytes != w.bytes)
        return fail("vrf write receives " + std::to_string(streamBytes) +
                    " valid bytes per slice, but its bytes field is " + std::to_string(w.bytes));
      if (w.base + w.bytes > t_.vrfBytesPerSlice)
        return fail("vrf write covers bytes [" + std::to_string(w.base) + ", " +
                    std::to_string(w.base + w.bytes) + "), past the VRF's " +
                    std::to_string(t_.vrfBytesPerSlice) + " bytes");
      out_.shape.registerWrites = flits_;
      return true;
    }
    std::vector<uint8_t> valid = validCollect_;
    std::string why;
    ElemType type = ElemType::F32;
    if (contract_) {
      // A contraction step multiplies a packet into every lane: lanes x elements MACs.
      int64_t perStep = (int64_t(1) << c_.contract->lanesLog2) *
                        std::max<int64_t>(1, c_.contract->packetElems);
      if (!planContract(*c_.contract, flits_, t_, sliceShare() / perStep, maxFlits(),
                        contractPlan_, why)) {
        if (cappedProduct(c_.contract->limits, sliceShare() / perStep) >
            sliceShare() / perStep)
          why = overWorkCap("contract nest", c_.contract->limits, "iterations per slice",
                            env_.options.maxWorkPerCommand, slices_, perStep);
        return fail(why);
      }
      valid.assign(static_cast<size_t>(contractPlan_.outFlits), uint8_t(t_.flitBytes));
      out_.shape.contractIterations = contractPlan_.iterations;
      out_.shape.contractPacketElems = contractPlan_.elems;
      out_.shape.contractSlots = c_.contract->slots;
      if (c_.contract->mac == isa::MacType::I8)
        type = ElemType::I32;
    }
    if (vector_) {
      out_.shape.vectorFlits = static_cast<int64_t>(valid.size());
      if (!planVector(*c_.vector, type, std::move(valid), t_.vrfBytesPerSlice, vectorPlan_, why))
        return fail(why);
      valid = vectorPlan_.validOut;
      out_.shape.vectorFloatAlus = vectorPlan_.floatAlus;
      out_.shape.vectorIntAlus = vectorPlan_.intAlus;
      if (vectorPlan_.inter)
        out_.shape.interReduceSlices = vectorPlan_.group;
    }
    if (cast_) {
      out_.shape.castFlits = static_cast<int64_t>(valid.size());
      castMode_ = c_.cast->mode;
      validCastIn_ = valid;
      if (castMode_ != isa::CastMode::None)
        for (size_t f = 0; f < valid.size(); ++f) {
          if (valid[f] % 4 != 0)
            return fail(std::string("cast ") +
                        (castMode_ == isa::CastMode::F32ToBf16 ? "f32->bf16" : "i32->i8") +
                        " of flit " + std::to_string(f) + " with " + std::to_string(valid[f]) +
                        " valid bytes (not whole 32-bit words)");
          valid[f] = castMode_ == isa::CastMode::F32ToBf16 ? valid[f] / 2 : valid[f] / 4;
        }
    }
    if (transpose_) {
      if (!planTranspose(*c_.transpose, static_cast<int64_t>(valid.size()), transposePlan_, why))
        return fail(why);
      const isa::TransposeConfig &tc = *c_.transpose;
      out_.shape.transposeCycles =
          transposeCycles(tc.inRows, tc.inCols, tc.outRows, t_.transposeValidElements,
                          transposePlan_.groups);
      valid.assign(static_cast<size_t>(transposePlan_.outFlits),
                   static_cast<uint8_t>(tc.inRows * transposePlan_.elemBytes));
    }
    validFinal_ = std::move(valid);
    return planCommit();
  }

  bool planCommit() {
    const isa::CommitConfig &c = *c_.commit;
    int64_t cap = sliceShare();
    int64_t writes = nestCount(c.limits, cap);
    int64_t flits = static_cast<int64_t>(validFinal_.size());
    if (writes > cap)
      return fail(overWorkCap("commit nest", c.limits, "writes per slice",
                              env_.options.maxWorkPerCommand, slices_));
    if (writes != flits)
      return fail("commit nest makes " + std::to_string(writes) + " writes but the pass "
                  "carries " + std::to_string(flits) + " flits per slice");
    commitCast_ = c.cast == isa::CommitCast::F32ToBf16;
    if (commitCast_) { // the commit adapter's cast runs before the trim, on main only
      if (c_.context != isa::Context::Main)
        return fail("commit cast f32->bf16 runs only on the main context");
      validCommitCastIn_ = validFinal_;
      for (size_t j = 0; j < validFinal_.size(); ++j) {
        if (validFinal_[j] % 4 != 0)
          return fail("commit cast f32->bf16 of flit " + std::to_string(j) + " with " +
                      std::to_string(validFinal_[j]) +
                      " valid bytes (not whole 32-bit words)");
        validFinal_[j] = static_cast<uint8_t>(validFinal_[j] / 2);
      }
    }
    for (size_t j = 0; j < validFinal_.size(); ++j)
      if (c.writeBytes > validFinal_[j])
        return fail("commit writes " + std::to_string(c.writeBytes) + " bytes of each flit, "
                    "but flit " + std::to_string(j) + " has only " +
                    std::to_string(validFinal_[j]) + " valid bytes");
    int64_t limit = t_.dmBytesPerSlice - c.writeBytes;
    int64_t index = 0, lo = INT64_MAX, hi = INT64_MIN;
    BankRun banks;
    bool whole = c.writeBytes == t_.flitBytes;
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
      if (whole && !commitRuns_.empty() &&
          commitRuns_.back().offset + commitRuns_.back().flits * t_.flitBytes == a)
        ++commitRuns_.back().flits;
      else
        commitRuns_.push_back({a, index, 1});
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

  // Which slices run, and what the pass reads and writes in them.
  bool planSlices() {
    int64_t total = int64_t(isa::kSliceBitmapWords) * 64;
    if (commit_) {
      const isa::SliceBitmap &cs = c_.commit->slices;
      for (int64_t s = 0; s < total; ++s) {
        if (!testSlice(cs, s))
          continue;
        if (s >= t_.totalSlices())
          return fail("slice " + std::to_string(s) + " is enabled but the target has " +
                      std::to_string(t_.totalSlices()));
        if (!testSlice(flow_, s))
          return fail("commit enables slice " + std::to_string(s) +
                      (sw_ ? ", which no switch ring of the fetch bitmap covers"
                           : ", which the fetch bitmap does not"));
      }
      outSet_ = cs;
    } else {
      outSet_ = flow_;
    }
    computeSet_ = outSet_;
    if (vector_ && vectorPlan_.inter) {
      // Every group holding data is complete, and all of it runs to feed the reducer.
      int64_t g = vectorPlan_.group, total = t_.totalSlices();
      for (int64_t first = 0; first < total; first += g) {
        int64_t holder = -1, hole = -1; // a group past the last slice has holes
        for (int64_t s = first; s < first + g; ++s)
          (s < total && testSlice(flow_, s) ? holder : hole) = s;
        if (holder >= 0 && hole >= 0)
          return fail("InterReduce over groups of " + std::to_string(g) + " slices: slice " +
                      std::to_string(hole) + " of group [" + std::to_string(first) + ", " +
                      std::to_string(first + g) + ") is not enabled but slice " +
                      std::to_string(holder) + " holds data");
        bool wanted = false;
        for (int64_t s = first; s < first + g && s < total; ++s)
          wanted |= testSlice(outSet_, s);
        if (wanted)
          for (int64_t s = first; s < first + g; ++s)
            setSlice(computeSet_, s);
      }
    }
    Effects &e = out_.effects;
    e.reads.dm.push_back({c_.fetch->slices, static_cast<uint64_t>(fetch_.lo),
                          static_cast<uint64_t>(fetch_.hi)});
    if (commit_ && !empty(c_.commit->slices))
      e.writes.dm.push_back({c_.commit->slices, static_cast<uint64_t>(commitLo_),
                             static_cast<uint64_t>(commitHi_)});
    if (trf_) // one range per lane segment
      for (int64_t l = 0; l < trfLanes_; ++l) {
        uint64_t at = static_cast<uint64_t>(l * trfSeg_ + c_.trfWrite->base);
        e.writes.trf.push_back({flow_, at, at + static_cast<uint64_t>(c_.trfWrite->laneBytes)});
      }
    if (vrf_)
      e.writes.vrf.push_back({flow_, static_cast<uint64_t>(c_.vrfWrite->base),
                              static_cast<uint64_t>(c_.vrfWrite->base + c_.vrfWrite->bytes)});
    if (contract_)
      for (int64_t l = 0; l < contractPlan_.lanes; ++l) {
        int64_t at = l * contractPlan_.segBytes;
        e.reads.trf.push_back({flow_, static_cast<uint64_t>(at + contractPlan_.trfLo),
                               static_cast<uint64_t>(at + contractPlan_.trfHi)});
      }
    if (vector_ && vectorPlan_.readsVrf)
      e.reads.vrf.push_back({flow_, static_cast<uint64_t>(vectorPlan_.vrfLo),
                             static_cast<uint64_t>(vectorPlan_.vrfHi)});
    return true;
  }

  // ---- Data movement -----------------------------------------------------------------------
  // What one thread needs to run slices: the engines' runners and scratch buffers.
  struct Worker {
    std::unique_ptr<ContractRunner> contract;
    std::unique_ptr<VectorRunner> vector;
    std::vector<uint8_t> stream, packets, switched;
    std::vector<uint32_t> words, scratch;
    int64_t switchedKey = 0; // switchShareKey of what `switched` holds, when switchedValid
    bool switchedValid = false;
  };

  // Slices are independent within a pass (each reads and writes its own memories; a switch
  // reads the fetched packets of every slice, all fetched first; an inter-slice reduction
  // reads its own group's), so a pass runs its slices on up to two threads when it has the
  // work to pay for them: the results are the same bits whatever the split.
  // RNGD_SIM_THREADS=1 keeps one.
  static int64_t threadsFor(int64_t items) {
    int64_t n = std::min<int64_t>(2, std::max(1u, std::thread::hardware_concurrency()));
    if (const char *env = std::getenv("RNGD_SIM_THREADS"))
      n = std::max<int64_t>(1, std::min<int64_t>(n, std::atoll(env)));
    return std::min(n, items);
  }

  // A contraction always has the work; a pass that only moves data has it from this many
  // bytes fetched (a thread's start and join cost tens of microseconds; copying 1 MiB
  // hundreds).
  static constexpr int64_t kThreadedPassBytes = int64_t(1) << 20;

  // body(item, worker) for every item, the list cut into one contiguous run per worker.
  template <typename F> void forEachParallel(const std::vector<int64_t> &list, F &&body) {
    size_t n = std::min(workers_.size(), std::max<size_t>(1, list.size()));
    auto range = [&](size_t k) {
      for (size_t i = list.size() * k / n; i < list.size() * (k + 1) / n; ++i)
        body(list[i], workers_[k]);
    };
    // An exception (an allocation that fails) reaches the caller from whichever thread.
    std::vector<std::exception_ptr> errors(n);
    auto guarded = [&](size_t k) {
      try {
        range(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    std::vector<std::thread> others;
    for (size_t k = 1; k < n; ++k)
      others.emplace_back(guarded, k);
    guarded(0);
    for (std::thread &t : others)
      t.join();
    for (const std::exception_ptr &e : errors)
      if (e)
        std::rethrow_exception(e);
  }

  template <typename F> void forSlicesParallel(const isa::SliceBitmap &set, F &&body) {
    std::vector<int64_t> list;
    forEachSlice(set, [&](int64_t s) { list.push_back(s); });
    forEachParallel(list, body);
  }

  void execute() {
    isa::SliceBitmap need{}; // the slices whose fetch streams the computed slices read
    if (sw_) // every enabled slice of a ring that feeds a computed slice
      forEachSlice(computeSet_, [&](int64_t s) {
        int64_t base = switchRingBase(switch_, s);
        for (int64_t j = base; j < base + switch_.ring; ++j)
          if (testSlice(c_.fetch->slices, j))
            setSlice(need, j);
      });
    else
      need = computeSet_;
    // The workers, made before any slice runs (the threads hold references to them).
    int64_t slices = sliceCount(computeSet_);
    bool worth = contract_ || fetch_.streamBytes * sliceCount(need) >= kThreadedPassBytes;
    int64_t threads = worth ? threadsFor(slices) : 1;
    workers_.resize(static_cast<size_t>(std::max<int64_t>(1, threads)));
    for (Worker &w : workers_) {
      if (contract_)
        w.contract = std::make_unique<ContractRunner>(contractPlan_);
      if (vector_)
        w.vector = std::make_unique<VectorRunner>(vectorPlan_);
    }
    if (workers_.size() > 1) { // the memories the slices reach, allocated before threads use them
      forEachSlice(need, [&](int64_t s) { env_.dm.slice(s); });
      forEachSlice(computeSet_, [&](int64_t s) {
        env_.dm.slice(s);
        if (trf_ || contract_)
          env_.dm.memory(SliceMemory::Trf, s);
        if (vrf_ || (vector_ && vectorPlan_.readsVrf))
          env_.dm.memory(SliceMemory::Vrf, s);
      });
    }
    bool inter = vector_ && vectorPlan_.inter;
    if (!sw_ && !inter) { // slice-local: each slice streams through its worker's buffers
      forSlicesParallel(computeSet_, [&](int64_t s, Worker &w) {
        fetchSlice(s, w.packets, w);
        processSlice(s, w.packets.data(), w.words, w);
        if (commit_)
          finishSlice(s, w.words, w);
      });
      return;
    }
    int64_t total = t_.totalSlices();
    std::vector<std::vector<uint8_t>> fetched(static_cast<size_t>(total));
    std::vector<const uint8_t *> in(static_cast<size_t>(total), nullptr);
    forSlicesParallel(need, [&](int64_t s, Worker &w) {
      fetchSlice(s, fetched[static_cast<size_t>(s)], w);
      in[static_cast<size_t>(s)] = fetched[static_cast<size_t>(s)].data();
    });
    std::vector<std::vector<uint32_t>> streams(inter ? static_cast<size_t>(total) : 0);
    forSlicesParallel(computeSet_, [&](int64_t s, Worker &w) {
      const uint8_t *packets = in[static_cast<size_t>(s)];
      if (sw_) { // one run per group of slices that receive the same packets
        int64_t key = switchShareKey(switch_, s);
        if (!w.switchedValid || w.switchedKey != key) {
          w.switched.resize(static_cast<size_t>(packets_ * packetOut_));
          runSwitch(switch_, s, in, packetOut_, w.switched.data());
          w.switchedKey = key;
          w.switchedValid = true;
        }
        packets = w.switched.data();
      }
      processSlice(s, packets, w.words, w);
      if (inter)
        streams[static_cast<size_t>(s)].swap(w.words);
      else if (commit_)
        finishSlice(s, w.words, w);
    });
    if (!inter)
      return;
    int64_t g = vectorPlan_.group;
    std::vector<int64_t> groups; // each group's first slice (groups are complete: planSlices)
    for (int64_t firstSlice = 0; firstSlice < total; firstSlice += g)
      if (testSlice(computeSet_, firstSlice))
        groups.push_back(firstSlice);
    forEachParallel(groups, [&](int64_t firstSlice, Worker &) {
      std::vector<uint32_t *> group(static_cast<size_t>(g));
      for (int64_t k = 0; k < g; ++k)
        group[static_cast<size_t>(k)] = streams[static_cast<size_t>(firstSlice + k)].data();
      interReduce(vectorPlan_, group);
    });
    forSlicesParallel(outSet_, [&](int64_t s, Worker &w) {
      finishSlice(s, streams[static_cast<size_t>(s)], w);
    });
  }

  // The slice's fetch stream as packets of packetOut_ bytes (fetch cast applied).
  void fetchSlice(int64_t s, std::vector<uint8_t> &out, Worker &w) {
    const uint8_t *dm = env_.dm.slice(s);
    bool widen = out_.shape.fetchCast;
    std::vector<uint8_t> &raw = widen ? w.stream : out;
    raw.resize(static_cast<size_t>(fetch_.streamBytes));
    uint8_t *st = raw.data();
    for (const Run &r : fetch_.runs) {
      copyAccess(st, dm + r.offset, static_cast<size_t>(r.bytes));
      st += r.bytes;
    }
    if (!widen)
      return;
    size_t n = static_cast<size_t>(fetch_.streamBytes / 2);
    out.resize(4 * n);
    for (size_t e = 0; e < n; ++e) { // bf16 -> f32 widens exactly
      uint32_t w = (uint32_t(raw[2 * e]) | uint32_t(raw[2 * e + 1]) << 8) << 16;
      std::memcpy(out.data() + 4 * e, &w, 4);
    }
  }

  // Collect, then the register-file write or Contraction and the slice-local Vector steps.
  void processSlice(int64_t s, const uint8_t *packets, std::vector<uint32_t> &words, Worker &w) {
    size_t streamBytes = static_cast<size_t>(packets_ * packetOut_);
    if (trf_) {
      uint8_t *trf = env_.dm.memory(SliceMemory::Trf, s);
      int64_t lane = c_.trfWrite->laneBytes;
      for (int64_t l = 0; l < trfLanes_; ++l)
        std::memcpy(trf + l * trfSeg_ + c_.trfWrite->base, packets + l * lane,
                    static_cast<size_t>(lane));
      return;
    }
    if (vrf_) {
      std::memcpy(env_.dm.memory(SliceMemory::Vrf, s) + c_.vrfWrite->base, packets, streamBytes);
      return;
    }
    size_t span = static_cast<size_t>(flitsPerPacket_ * t_.flitBytes);
    size_t packet = static_cast<size_t>(packetOut_);
    if (span == packet) { // whole flits: the packets are the flits
      words.resize(static_cast<size_t>(flits_ * 8));
      std::memcpy(words.data(), packets, streamBytes);
    } else { // Collect pads each packet's last flit with zeros
      words.assign(static_cast<size_t>(flits_ * 8), 0);
      auto *flits = reinterpret_cast<uint8_t *>(words.data());
      for (int64_t p = 0; p < packets_; ++p)
        std::memcpy(flits + p * span, packets + p * packet, packet);
    }
    if (contract_)
      w.contract->run(words, env_.dm.memory(SliceMemory::Trf, s));
    if (vector_)
      w.vector->run(words, vectorPlan_.readsVrf ? env_.dm.memory(SliceMemory::Vrf, s)
                                                     : nullptr);
  }

  // Cast, transpose and commit (the commit adapter's cast, then the trim).
  void finishSlice(int64_t s, std::vector<uint32_t> &words, Worker &w) {
    if (cast_)
      castFlits(castMode_, words.data(), validCastIn_);
    if (transpose_)
      runTranspose(transposePlan_, words, w.scratch);
    if (commitCast_) // same conversion as the Cast Engine's f32->bf16
      castFlits(isa::CastMode::F32ToBf16, words.data(), validCommitCastIn_);
    uint8_t *dm = env_.dm.slice(s);
    const auto *flits = reinterpret_cast<const uint8_t *>(words.data());
    int64_t wb = c_.commit->writeBytes; // a run of whole flits, or one trimmed flit
    for (const CommitRun &r : commitRuns_)
      copyAccess(dm + r.offset, flits + r.firstFlit * t_.flitBytes,
                 static_cast<size_t>(r.flits > 1 ? r.flits * t_.flitBytes : wb));
  }

  const Env &env_;
  const TargetModel &t_;
  const std::string &label_;
  const PassConfig &c_;
  PassOutcome &out_;
  std::string why_;

  bool sw_ = false, contract_ = false, vector_ = false, cast_ = false, transpose_ = false,
       commit_ = false, trf_ = false, vrf_ = false, commitCast_ = false;
  FetchPlan fetch_;
  int64_t packetIn_ = 0, packetOut_ = 0, packetsIn_ = 0, packets_ = 0;
  int64_t flitsPerPacket_ = 0, flits_ = 0;
  int64_t slices_ = 1; // slices the pass runs on (its fetch bitmap), which share the work cap
  SwitchPlan switch_;
  isa::SliceBitmap flow_{}, outSet_{}, computeSet_{};
  std::vector<uint8_t> validCollect_, validCastIn_, validCommitCastIn_, validFinal_;
  ContractPlan contractPlan_;
  VectorPlan vectorPlan_;
  TransposePlan transposePlan_;
  isa::CastMode castMode_ = isa::CastMode::None;
  int64_t trfLanes_ = 1, trfSeg_ = 0;
  std::vector<CommitRun> commitRuns_; // in write order (a later write to a byte wins)
  int64_t commitLo_ = 0, commitHi_ = 0;

  std::vector<Worker> workers_; // one per thread that runs slices
};

} // namespace

Status runPass(const Env &env, const std::string &label, const PassConfig &config,
               PassOutcome &out) {
  return Pass(env, label, config, out).run();
}

} // namespace rngd::sim
