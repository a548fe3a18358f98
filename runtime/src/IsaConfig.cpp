// Configuration blocks: the unit field tables, LSB-first bit packing across 64-bit words, the
// semantic rules of each unit, and typed views (docs/isa.md, "Configuration blocks").
#include "rngd/Executable.h" // formatHex
#include "rngd/Isa.h"

namespace rngd::isa {
namespace {

std::vector<UnitSpec> buildSpecs() {
  std::vector<UnitSpec> specs;
  specs.push_back({Unit::Fetch,
                   "fetch",
                   {{"base", 22, 1, false},
                    {"access_log2", 3, 1, false},
                    {"packet_bytes", 16, 1, false},
                    {"cast", 4, 1, false},
                    {"limits", 17, 8, false},
                    {"strides", 24, 8, true},
                    {"slices", 64, 8, false}}});
  specs.push_back({Unit::Vector,
                   "vector",
                   {{"steps", 4, 1, false},
                    {"alu", 5, 8, false},
                    {"op", 6, 8, false},
                    {"mode", 2, 8, false},
                    {"imm", 32, 8, false},
                    {"imm2", 32, 8, false},
                    {"vrf_base", 13, 1, false},
                    {"vrf_flit_stride", 16, 1, true},
                    {"vrf_elem_stride", 3, 1, false},
                    {"vrf_period", 16, 1, false},
                    {"reduce_slots", 4, 1, false},
                    {"reduce_tree", 1, 1, false},
                    {"inter_group_log2", 4, 1, false}}});
  specs.push_back({Unit::Cast, "cast", {{"mode", 4, 1, false}}});
  specs.push_back({Unit::Commit,
                   "commit",
                   {{"base", 22, 1, false},
                    {"write_bytes", 6, 1, false},
                    {"limits", 17, 8, false},
                    {"strides", 24, 8, true},
                    {"slices", 64, 8, false},
                    {"cast", 2, 1, false}}});
  specs.push_back({Unit::Contract,
                   "contract",
                   {{"pack", 2, 1, false},
                    {"lanes_log2", 2, 1, false},
                    {"mac", 2, 1, false},
                    {"packet_elems", 7, 1, false},
                    {"trf_base", 17, 1, false},
                    {"window", 4, 1, false},
                    {"slots", 8, 1, false},
                    {"limits", 17, 8, false},
                    {"stream_strides", 16, 8, true},
                    {"trf_strides", 24, 8, true},
                    {"acc_strides", 9, 8, false},
                    {"lane_mode", 1, 1, false}}});
  specs.push_back({Unit::TrfWrite,
                   "trf_write",
                   {{"base", 17, 1, false}, {"lanes_log2", 2, 1, false}, {"lane_bytes", 17, 1, false}}});
  specs.push_back({Unit::VrfWrite, "vrf_write", {{"base", 13, 1, false}, {"bytes", 14, 1, false}}});
  specs.push_back({Unit::Switch,
                   "switch",
                   {{"mode", 3, 1, false},
                    {"slice1", 9, 1, false},
                    {"slice0", 9, 1, false},
                    {"time0", 17, 1, false}}});
  specs.push_back({Unit::Transpose,
                   "transpose",
                   {{"elem_log2", 2, 1, false},
                    {"in_rows", 5, 1, false},
                    {"in_cols", 6, 1, false},
                    {"out_rows", 6, 1, false}}});
  return specs;
}

std::string fieldLabel(const UnitSpec &spec, const FieldSpec &f, unsigned i) {
  std::string s = std::string(spec.name) + "." + f.name;
  if (f.count > 1)
    s += "[" + std::to_string(i) + "]";
  return s;
}

// A 64-bit unsigned field holds any int64 (its bit pattern); narrower fields hold their range.
bool fits(const FieldSpec &f, int64_t v) {
  if (f.bits >= 64)
    return true;
  if (f.isSigned) {
    int64_t half = int64_t(1) << (f.bits - 1);
    return v >= -half && v < half;
  }
  return v >= 0 && v < (int64_t(1) << f.bits);
}

uint64_t maskOf(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

void putBits(std::vector<uint64_t> &words, size_t pos, unsigned bits, uint64_t raw) {
  size_t w = pos / 64;
  unsigned shift = pos % 64;
  words[w] |= raw << shift;
  if (shift + bits > 64)
    words[w + 1] |= raw >> (64 - shift);
}

uint64_t getBits(const std::vector<uint64_t> &words, size_t pos, unsigned bits) {
  size_t w = pos / 64;
  unsigned shift = pos % 64;
  uint64_t raw = words[w] >> shift;
  if (shift + bits > 64)
    raw |= words[w + 1] << (64 - shift);
  return raw & maskOf(bits);
}

size_t totalBits(const UnitSpec &spec) {
  size_t bits = 0;
  for (const FieldSpec &f : spec.fields)
    bits += size_t(f.bits) * f.count;
  return bits;
}

bool checkLimits(const char *unit, const std::vector<int64_t> &v, size_t first,
                 std::string &why) {
  for (int i = 0; i < kSequencerLoops; ++i) {
    int64_t l = v[first + i];
    if (l < 1 || l > kMaxLoopLimit) {
      why = std::string(unit) + ".limits[" + std::to_string(i) + "] = " + std::to_string(l) +
            " is outside 1.." + std::to_string(kMaxLoopLimit);
      return false;
    }
  }
  return true;
}

template <typename Array> void copyOut(const std::vector<int64_t> &v, size_t &at, Array &a) {
  for (auto &x : a)
    x = static_cast<typename Array::value_type>(v[at++]);
}
template <typename Array> void copyIn(std::vector<int64_t> &v, const Array &a) {
  for (auto x : a)
    v.push_back(static_cast<int64_t>(x));
}


// Vector block value positions (table order, arrays expanded).
constexpr size_t kVSteps = 0, kVAlu = 1, kVOp = 9, kVMode = 17, kVImm = 25, kVImm2 = 33,
                 kVVrfBase = 41, kVVrfFlitStride = 42, kVVrfElemStride = 43, kVVrfPeriod = 44,
                 kVReduceSlots = 45, kVReduceTree = 46, kVInterGroupLog2 = 47;
// Contract block value positions.
constexpr size_t kCPack = 0, kCLanesLog2 = 1, kCMac = 2, kCPacketElems = 3, kCTrfBase = 4,
                 kCWindow = 5, kCSlots = 6, kCLimits = 7, kCStreamStrides = 15,
                 kCTrfStrides = 23, kCAccStrides = 31,
                 kCLaneMode = kCAccStrides + kSequencerLoops; // the last field
// Commit block: base, write_bytes, limits[8], strides[8], slices[8], then cast.
constexpr size_t kMCast = 2 + 3 * kSequencerLoops;

bool failWith(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

bool validateVector(const std::vector<int64_t> &v, std::string &why) {
  int64_t steps = v[kVSteps];
  if (steps > kMaxVectorSteps)
    return failWith(why, "vector.steps = " + std::to_string(steps) + " exceeds " +
                             std::to_string(kMaxVectorSteps));
  // Unused steps must be zero so that a block has exactly one encoding.
  const char *stepFields[] = {"alu", "op", "mode", "imm", "imm2"};
  for (int s = static_cast<int>(steps); s < kMaxVectorSteps; ++s)
    for (int f = 0; f < 5; ++f)
      if (v[kVAlu + f * kMaxVectorSteps + s] != 0)
        return failWith(why, "vector step " + std::to_string(s) + " is unused (steps = " +
                                 std::to_string(steps) + ") but its " + stepFields[f] +
                                 " is nonzero");
  int64_t lastAlu = 0;
  bool stash = false, intra = false, inter = false;
  for (int s = 0; s < steps; ++s) {
    int64_t alu = v[kVAlu + s], op = v[kVOp + s], mode = v[kVMode + s];
    std::string at = "vector step " + std::to_string(s);
    const char *name = aluName(alu);
    if (!name)
      return failWith(why, at + ": unknown ALU " + std::to_string(alu));
    if (alu == int64_t(Alu::Logic))
      return failWith(why, at + ": the Logic ALU has no implemented ops yet");
    if (!aluAllows(alu, op))
      return failWith(why, at + ": ALU " + name + " does not implement op " +
                               (vectorOpName(op) ? vectorOpName(op) : std::to_string(op).c_str()));
    if (mode > int64_t(OperandMode::Stash))
      return failWith(why, at + ": operand mode " + std::to_string(mode) +
                               " is not 0 (immediate), 1 (VRF) or 2 (stash)");
    if (inter)
      return failWith(why, at + " follows InterReduce, which must be the last step");
    if (alu == int64_t(Alu::Stash)) {
      stash = true; // not an ALU: copies the current value, anywhere in the chain
      continue;
    }
    if (alu <= lastAlu)
      return failWith(why, at + " uses " + name + " after " + aluName(lastAlu) +
                               "; ALUs run in stage order, each at most once per pass");
    lastAlu = alu;
    if (stepReadsOperand(alu, op) && mode == int64_t(OperandMode::Stash) && !stash)
      return failWith(why, at + " reads the stash, but no earlier Stash step of the same flits "
                               "saved a value");
    if (alu == int64_t(Alu::IntraReduce)) {
      intra = true;
      stash = false; // the reducer emits new flits: nothing stashed for them
    }
    inter |= alu == int64_t(Alu::InterReduce);
  }
  int64_t elem = v[kVVrfElemStride];
  if (elem != 0 && elem != 4)
    return failWith(why, "vector.vrf_elem_stride = " + std::to_string(elem) +
                             " is not 0 (broadcast) or 4 (consecutive 32-bit values)");
  int64_t slots = v[kVReduceSlots];
  if (slots > 8 || (intra && slots < 1))
    return failWith(why, "vector.reduce_slots = " + std::to_string(slots) + " is outside 1..8");
  if (v[kVInterGroupLog2] > 8)
    return failWith(why, "vector.inter_group_log2 = " + std::to_string(v[kVInterGroupLog2]) +
                             " is outside 0..8 (groups of 1..256 slices)");
  return true;
}

bool validateContract(const std::vector<int64_t> &v, std::string &why) {
  int64_t pack = v[kCPack], mac = v[kCMac];
  if (pack != 1 && pack != 2)
    return failWith(why, "contract.pack = " + std::to_string(pack) + " is not 1 or 2 flits");
  if (mac != int64_t(MacType::Bf16) && mac != int64_t(MacType::I8))
    return failWith(why, "contract.mac = " + std::to_string(mac) +
                             " is not a known MAC type (0 bf16 x bf16 -> f32, 1 i8 x i8 -> i32)");
  int64_t elems = pack * 32 / (mac == int64_t(MacType::Bf16) ? 2 : 1);
  if (v[kCPacketElems] != elems)
    return failWith(why, "contract.packet_elems = " + std::to_string(v[kCPacketElems]) +
                             " but a packet of " + std::to_string(pack) + " flits holds " +
                             std::to_string(elems) +
                             (mac == int64_t(MacType::Bf16) ? " bf16" : " i8") + " elements");
  if (v[kCWindow] > kSequencerLoops)
    return failWith(why, "contract.window = " + std::to_string(v[kCWindow]) +
                             " is outside 0..8");
  int64_t slots = v[kCSlots];
  if (slots < 1)
    return failWith(why, "contract.slots = 0; a window emits 1..255 slots");
  int64_t laneMode = v[kCLaneMode];
  if (laneMode != int64_t(LaneMode::Interleaved) && laneMode != int64_t(LaneMode::Sequential))
    return failWith(why, "contract.lane_mode = " + std::to_string(laneMode) +
                             " is not 0 (interleaved) or 1 (sequential)");
  if (!checkLimits("contract", v, kCLimits, why))
    return false;
  int64_t maxSlot = 0;
  for (int k = 0; k < kSequencerLoops; ++k)
    maxSlot += (v[kCLimits + k] - 1) * v[kCAccStrides + k];
  if (maxSlot >= slots)
    return failWith(why, "contract accumulator slot index reaches " + std::to_string(maxSlot) +
                             " (sum of (limits[k] - 1) x acc_strides[k]), not below slots = " +
                             std::to_string(slots));
  return true;
}

bool validateSwitch(const std::vector<int64_t> &v, std::string &why) {
  int64_t mode = v[0], s1 = v[1], s0 = v[2], t0 = v[3];
  if (mode < int64_t(SwitchMode::Broadcast01) || mode > int64_t(SwitchMode::TransposedBroadcast1))
    return failWith(why, "switch.mode = " + std::to_string(mode) +
                             " is not a known switch mode (1 Broadcast01, 2 Broadcast1, 3 "
                             "Transpose, 4 InterTranspose, 5 TransposedBroadcast1)");
  if (s1 < 1 || s0 < 1)
    return failWith(why, "switch.slice1 = " + std::to_string(s1) + " and slice0 = " +
                             std::to_string(s0) + " must both be at least 1");
  int64_t ring = s1 * s0;
  if (ring > 256 || (ring & (ring - 1)) != 0)
    return failWith(why, "switch ring size slice1 x slice0 = " + std::to_string(ring) +
                             " is not a power of two up to 256");
  bool usesTime0 = mode == int64_t(SwitchMode::Broadcast01) ||
                   mode == int64_t(SwitchMode::InterTranspose);
  if (usesTime0 && t0 < 1)
    return failWith(why, "switch.time0 = 0; Broadcast01 and InterTranspose need time0 >= 1");
  return true;
}

bool validateTranspose(const std::vector<int64_t> &v, std::string &why) {
  int64_t elemLog2 = v[0], rows = v[1], cols = v[2], outRows = v[3];
  if (elemLog2 > 2)
    return failWith(why, "transpose.elem_log2 = " + std::to_string(elemLog2) +
                             " is not 0 (8-bit), 1 (16-bit) or 2 (32-bit)");
  if (cols != 8 && cols != 16 && cols != 32)
    return failWith(why, "transpose.in_cols = " + std::to_string(cols) + " is not 8, 16 or 32");
  int64_t maxRows = 8 >> elemLog2;
  if (rows < 1 || rows > maxRows)
    return failWith(why, "transpose.in_rows = " + std::to_string(rows) + " is outside 1.." +
                             std::to_string(maxRows) + " for " +
                             std::to_string(8 << elemLog2) + "-bit elements");
  if (outRows < 1 || outRows > cols)
    return failWith(why, "transpose.out_rows = " + std::to_string(outRows) +
                             " is outside 1..in_cols (" + std::to_string(cols) + ")");
  return true;
}

} // namespace

const std::vector<UnitSpec> &unitSpecs() {
  static const std::vector<UnitSpec> specs = buildSpecs();
  return specs;
}

const UnitSpec *findUnit(Unit unit) {
  for (const UnitSpec &s : unitSpecs())
    if (s.unit == unit)
      return &s;
  return nullptr;
}

const UnitSpec *findUnit(const std::string &name) {
  for (const UnitSpec &s : unitSpecs())
    if (name == s.name)
      return &s;
  return nullptr;
}

uint16_t execBit(Unit unit) {
  switch (unit) {
  case Unit::Fetch: return UnitFetch;
  case Unit::Vector: return UnitVector;
  case Unit::Cast: return UnitCast;
  case Unit::Commit: return UnitCommit;
  case Unit::Contract: return UnitContract;
  case Unit::TrfWrite: return UnitTrf;
  case Unit::VrfWrite: return UnitVrf;
  case Unit::Switch: return UnitSwitch;
  case Unit::Transpose: return UnitTranspose;
  }
  return 0;
}

size_t valueCount(const UnitSpec &spec) {
  size_t n = 0;
  for (const FieldSpec &f : spec.fields)
    n += f.count;
  return n;
}

size_t wordCount(const UnitSpec &spec) { return (totalBits(spec) + 63) / 64; }

uint64_t wholeBlockMask(const UnitSpec &spec) {
  size_t n = wordCount(spec);
  return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
}

std::string checkPartialMask(const UnitSpec &spec, uint64_t mask) {
  uint64_t whole = wholeBlockMask(spec);
  if (mask == 0)
    return "a partial load of no words";
  if (mask & ~whole)
    return "load mask " + formatHex(mask) + " names words past the block's " +
           std::to_string(wordCount(spec));
  if (mask == whole)
    return "load mask " + formatHex(mask) + " is the whole block (a whole load has mask 0)";
  return "";
}

bool packBlock(const UnitSpec &spec, const std::vector<int64_t> &values,
               std::vector<uint64_t> &words, std::string &why) {
  if (values.size() != valueCount(spec)) {
    why = std::string(spec.name) + " block has " + std::to_string(values.size()) +
          " values, expected " + std::to_string(valueCount(spec));
    return false;
  }
  words.assign(wordCount(spec), 0);
  size_t pos = 0, at = 0;
  for (const FieldSpec &f : spec.fields) {
    for (unsigned i = 0; i < f.count; ++i, ++at, pos += f.bits) {
      int64_t v = values[at];
      if (!fits(f, v)) {
        why = fieldLabel(spec, f, i) + " = " + std::to_string(v) + " does not fit " +
              std::to_string(f.bits) + (f.isSigned ? " signed bits" : " unsigned bits");
        return false;
      }
      putBits(words, pos, f.bits, static_cast<uint64_t>(v) & maskOf(f.bits));
    }
  }
  return true;
}

std::vector<int64_t> unpackBlock(const UnitSpec &spec, const std::vector<uint64_t> &words) {
  std::vector<int64_t> values;
  values.reserve(valueCount(spec));
  if (words.size() < wordCount(spec))
    return values; // caller checks the word count first; never read past the words
  size_t pos = 0;
  for (const FieldSpec &f : spec.fields) {
    for (unsigned i = 0; i < f.count; ++i, pos += f.bits) {
      uint64_t raw = getBits(words, pos, f.bits);
      if (f.isSigned && f.bits < 64 && (raw >> (f.bits - 1)) & 1)
        raw |= ~maskOf(f.bits); // two's complement sign extension
      values.push_back(static_cast<int64_t>(raw));
    }
  }
  return values;
}

bool validateBlock(const UnitSpec &spec, const std::vector<int64_t> &v, std::string &why) {
  if (v.size() != valueCount(spec)) {
    why = std::string(spec.name) + " block has " + std::to_string(v.size()) +
          " values, expected " + std::to_string(valueCount(spec));
    return false;
  }
  switch (spec.unit) {
  case Unit::Fetch:
    if (v[1] > 5) {
      why = "fetch.access_log2 = " + std::to_string(v[1]) + " is outside 0..5 (1..32 bytes)";
      return false;
    }
    if (v[2] < 1) {
      why = "fetch.packet_bytes = " + std::to_string(v[2]) + " must be at least 1";
      return false;
    }
    if (v[3] != int64_t(FetchCast::None) && v[3] != int64_t(FetchCast::Bf16ToF32)) {
      why = "fetch.cast = " + std::to_string(v[3]) + " is not a known fetch cast (0 none, 1 "
            "bf16->f32)";
      return false;
    }
    return checkLimits("fetch", v, 4, why);
  case Unit::Vector:
    return validateVector(v, why);
  case Unit::Cast:
    if (v[0] < 0 || v[0] > int64_t(CastMode::I32ToI8)) {
      why = "cast.mode = " + std::to_string(v[0]) + " is not a known cast (0 none, 1 "
            "f32->bf16, 2 i32->i8)";
      return false;
    }
    return true;
  case Unit::Commit:
    if (v[1] != 8 && v[1] != 16 && v[1] != 24 && v[1] != 32) {
      why = "commit.write_bytes = " + std::to_string(v[1]) + " is not 8, 16, 24 or 32";
      return false;
    }
    if (v[kMCast] != int64_t(CommitCast::None) && v[kMCast] != int64_t(CommitCast::F32ToBf16)) {
      why = "commit.cast = " + std::to_string(v[kMCast]) + " is not a known commit cast (0 "
            "none, 1 f32->bf16)";
      return false;
    }
    return checkLimits("commit", v, 2, why);
  case Unit::Contract:
    return validateContract(v, why);
  case Unit::TrfWrite:
    if (v[2] < 1) {
      why = "trf_write.lane_bytes = " + std::to_string(v[2]) + " must be at least 1";
      return false;
    }
    return true;
  case Unit::VrfWrite:
    if (v[1] < 1) {
      why = "vrf_write.bytes = " + std::to_string(v[1]) + " must be at least 1";
      return false;
    }
    return true;
  case Unit::Switch:
    return validateSwitch(v, why);
  case Unit::Transpose:
    return validateTranspose(v, why);
  }
  why = "unknown unit";
  return false;
}

FetchConfig FetchConfig::fromValues(const std::vector<int64_t> &v) {
  FetchConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Fetch)))
    return c;
  c.base = v[0];
  c.accessLog2 = v[1];
  c.packetBytes = v[2];
  c.cast = static_cast<FetchCast>(v[3]);
  size_t at = 4;
  copyOut(v, at, c.limits);
  copyOut(v, at, c.strides);
  copyOut(v, at, c.slices);
  return c;
}

std::vector<int64_t> FetchConfig::values() const {
  std::vector<int64_t> v{base, accessLog2, packetBytes, static_cast<int64_t>(cast)};
  copyIn(v, limits);
  copyIn(v, strides);
  copyIn(v, slices);
  return v;
}

VectorConfig VectorConfig::fromValues(const std::vector<int64_t> &v) {
  VectorConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Vector)))
    return c;
  c.steps = v[kVSteps];
  for (int s = 0; s < kMaxVectorSteps; ++s) {
    c.step[s].alu = v[kVAlu + s];
    c.step[s].op = v[kVOp + s];
    c.step[s].mode = v[kVMode + s];
    c.step[s].imm = static_cast<uint32_t>(v[kVImm + s]);
    c.step[s].imm2 = static_cast<uint32_t>(v[kVImm2 + s]);
  }
  c.vrfBase = v[kVVrfBase];
  c.vrfFlitStride = v[kVVrfFlitStride];
  c.vrfElemStride = v[kVVrfElemStride];
  c.vrfPeriod = v[kVVrfPeriod];
  c.reduceSlots = v[kVReduceSlots];
  c.reduceTree = v[kVReduceTree];
  c.interGroupLog2 = v[kVInterGroupLog2];
  return c;
}

std::vector<int64_t> VectorConfig::values() const {
  std::vector<int64_t> v{steps};
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].alu);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].op);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(step[s].mode);
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(static_cast<int64_t>(step[s].imm));
  for (int s = 0; s < kMaxVectorSteps; ++s)
    v.push_back(static_cast<int64_t>(step[s].imm2));
  for (int64_t x : {vrfBase, vrfFlitStride, vrfElemStride, vrfPeriod, reduceSlots, reduceTree,
                    interGroupLog2})
    v.push_back(x);
  return v;
}

CastConfig CastConfig::fromValues(const std::vector<int64_t> &v) {
  CastConfig c;
  if (v.size() == 1)
    c.mode = static_cast<CastMode>(v[0]);
  return c;
}

std::vector<int64_t> CastConfig::values() const { return {static_cast<int64_t>(mode)}; }

CommitConfig CommitConfig::fromValues(const std::vector<int64_t> &v) {
  CommitConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Commit)))
    return c;
  c.base = v[0];
  c.writeBytes = v[1];
  size_t at = 2;
  copyOut(v, at, c.limits);
  copyOut(v, at, c.strides);
  copyOut(v, at, c.slices);
  c.cast = static_cast<CommitCast>(v[at]);
  return c;
}

std::vector<int64_t> CommitConfig::values() const {
  std::vector<int64_t> v{base, writeBytes};
  copyIn(v, limits);
  copyIn(v, strides);
  copyIn(v, slices);
  v.push_back(static_cast<int64_t>(cast));
  return v;
}

} // namespace rngd::isa

namespace rngd::isa {

ContractConfig ContractConfig::fromValues(const std::vector<int64_t> &v) {
  ContractConfig c;
  if (v.size() != valueCount(*findUnit(Unit::Contract)))
    return c;
  c.pack = v[kCPack];
  c.lanesLog2 = v[kCLanesLog2];
  c.mac = static_cast<MacType>(v[kCMac]);
  c.packetElems = v[kCPacketElems];
  c.trfBase = v[kCTrfBase];
  c.window = v[kCWindow];
  c.slots = v[kCSlots];
  size_t at = kCLimits;
  copyOut(v, at, c.limits);
  copyOut(v, at, c.streamStrides);
  copyOut(v, at, c.trfStrides);
  copyOut(v, at, c.accStrides);
  c.laneMode = static_cast<LaneMode>(v[at]);
  return c;
}

std::vector<int64_t> ContractConfig::values() const {
  std::vector<int64_t> v{pack, lanesLog2, static_cast<int64_t>(mac), packetElems, trfBase, window,
                         slots};
  copyIn(v, limits);
  copyIn(v, streamStrides);
  copyIn(v, trfStrides);
  copyIn(v, accStrides);
  v.push_back(static_cast<int64_t>(laneMode));
  return v;
}

TrfWriteConfig TrfWriteConfig::fromValues(const std::vector<int64_t> &v) {
  TrfWriteConfig c;
  if (v.size() == 3)
    c.base = v[0], c.lanesLog2 = v[1], c.laneBytes = v[2];
  return c;
}
std::vector<int64_t> TrfWriteConfig::values() const { return {base, lanesLog2, laneBytes}; }

VrfWriteConfig VrfWriteConfig::fromValues(const std::vector<int64_t> &v) {
  VrfWriteConfig c;
  if (v.size() == 2)
    c.base = v[0], c.bytes = v[1];
  return c;
}
std::vector<int64_t> VrfWriteConfig::values() const { return {base, bytes}; }

SwitchConfig SwitchConfig::fromValues(const std::vector<int64_t> &v) {
  SwitchConfig c;
  if (v.size() == 4)
    c.mode = static_cast<SwitchMode>(v[0]), c.slice1 = v[1], c.slice0 = v[2], c.time0 = v[3];
  return c;
}
std::vector<int64_t> SwitchConfig::values() const {
  return {static_cast<int64_t>(mode), slice1, slice0, time0};
}

TransposeConfig TransposeConfig::fromValues(const std::vector<int64_t> &v) {
  TransposeConfig c;
  if (v.size() == 4)
    c.elemLog2 = v[0], c.inRows = v[1], c.inCols = v[2], c.outRows = v[3];
  return c;
}
std::vector<int64_t> TransposeConfig::values() const { return {elemLog2, inRows, inCols, outRows}; }

// ---- Vector Engine ALU / op table ------------------------------------------------------------
const char *aluName(int64_t alu) {
  static const char *const names[] = {nullptr,  "Logic", "FxpAdd",      "FxpMul", "FxpToFp",
                                      "FpFma",  "FpFpu", "FpExp",       "FpMul0", "FpMul1",
                                      "IntraReduce", "FpDiv", "FpToFxp", "Clip", "InterReduce",
                                      "Stash"};
  return alu >= 1 && alu <= 15 ? names[alu] : nullptr;
}

const char *vectorOpName(int64_t op) {
  static const char *const names[] = {"None", "Add", "Mul",     "Sub", "Div",   "Max", "Min",
                                      "Exp",  "Sqrt", "Sigmoid", "Fma", "ToF32", "ToI32"};
  return op >= 0 && op <= 12 ? names[op] : nullptr;
}

bool aluAllows(int64_t alu, int64_t op) {
  using O = VectorOp;
  auto is = [&](std::initializer_list<O> ops) {
    for (O o : ops)
      if (op == int64_t(o))
        return true;
    return false;
  };
  switch (static_cast<Alu>(alu)) {
  case Alu::Logic:
    return false;
  case Alu::FxpAdd:
    return is({O::Add, O::Sub});
  case Alu::FxpMul:
  case Alu::FpMul0:
  case Alu::FpMul1:
    return is({O::Mul});
  case Alu::FxpToFp:
    return is({O::ToF32});
  case Alu::FpFma:
    return is({O::Add, O::Sub, O::Fma});
  case Alu::FpFpu:
    return is({O::Sqrt, O::Sigmoid, O::Div});
  case Alu::FpExp:
    return is({O::Exp});
  case Alu::IntraReduce:
  case Alu::InterReduce:
    return is({O::Add, O::Max});
  case Alu::FpDiv:
    return is({O::Div});
  case Alu::FpToFxp:
    return is({O::ToI32});
  case Alu::Clip:
    return is({O::Max, O::Min, O::Add});
  case Alu::Stash:
    return is({O::None});
  }
  return false;
}

bool stepReadsOperand(int64_t alu, int64_t op) {
  if (alu == int64_t(Alu::IntraReduce) || alu == int64_t(Alu::InterReduce) ||
      alu == int64_t(Alu::Stash))
    return false;
  switch (static_cast<VectorOp>(op)) {
  case VectorOp::Add:
  case VectorOp::Mul:
  case VectorOp::Sub:
  case VectorOp::Div:
  case VectorOp::Max:
  case VectorOp::Min:
  case VectorOp::Fma:
    return true;
  default:
    return false;
  }
}

} // namespace rngd::isa
