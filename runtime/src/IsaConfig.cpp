// Configuration blocks: the unit field tables, LSB-first bit packing across 64-bit words, the
// semantic rules of each unit, and typed views (docs/isa.md, "Configuration blocks").
#include "rngd/Executable.h" // formatHex
#include "rngd/Isa.h"

#include <algorithm>

namespace rngd::isa {
namespace {

std::vector<UnitSpec> buildSpecs() {
  std::vector<UnitSpec> specs;
#define RNGD_UNIT(Name, id, mnemonic, bit) specs.push_back({Unit::Name, mnemonic, {
#define RNGD_FIELD(member, name, bits, isSigned, Type, init) {name, bits, 1, isSigned},
#define RNGD_ARRAY(member, name, bits, count, isSigned, Type, init) {name, bits, count, isSigned},
#define RNGD_UNIT_END(Name)                                                                      \
  }                                                                                              \
  });
#include "rngd/IsaUnits.def"
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

bool failWith(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

/// Trip counts 1..maxSequencerEntrySize in the target's maxSequencerEntries entries; the
/// block's entries past those are not run and hold 1.
bool checkLimits(const TargetModel &t, const char *unit,
                 const std::array<int64_t, kSequencerLoops> &limits, std::string &why) {
  for (int i = 0; i < kSequencerLoops; ++i) {
    int64_t l = limits[i], most = i < t.maxSequencerEntries ? t.maxSequencerEntrySize : 1;
    if (l < 1 || l > most)
      return failWith(why, std::string(unit) + ".limits[" + std::to_string(i) + "] = " +
                               std::to_string(l) + " is outside 1.." + std::to_string(most) +
                               (i < t.maxSequencerEntries
                                    ? ""
                                    : " (target " + t.name + "'s sequencers have " +
                                          std::to_string(t.maxSequencerEntries) + " entries)"));
  }
  return true;
}

int64_t floorLog2(int64_t v) {
  int64_t l = 0;
  while ((int64_t(2) << l) <= v)
    ++l;
  return l;
}

/// The slice-enable bitmap names only slices the target has.
bool checkSlices(const TargetModel &t, const char *unit, const SliceBitmap &slices,
                 std::string &why) {
  for (int64_t s = t.totalSlices(); s < int64_t(slices.size()) * 64; ++s)
    if ((slices[size_t(s / 64)] >> (s % 64)) & 1)
      return failWith(why, std::string(unit) + ".slices enables slice " + std::to_string(s) +
                               ", but target " + t.name + " has " +
                               std::to_string(t.totalSlices()) + " slices");
  return true;
}

bool validateFetch(const TargetModel &t, const FetchConfig &c, std::string &why) {
  int64_t maxLog2 = floorLog2(t.maxFetchAccessBytes); // the main context's; sub's is less
  if (c.accessLog2 > maxLog2)
    return failWith(why, "fetch.access_log2 = " + std::to_string(c.accessLog2) +
                             " is outside 0.." + std::to_string(maxLog2) + " (1.." +
                             std::to_string(int64_t(1) << maxLog2) + " bytes)");
  if (c.packetBytes < 1)
    return failWith(why, "fetch.packet_bytes = " + std::to_string(c.packetBytes) +
                             " must be at least 1");
  if (c.cast != FetchCast::None && c.cast != FetchCast::Bf16ToF32)
    return failWith(why, "fetch.cast = " + std::to_string(int64_t(c.cast)) +
                             " is not a known fetch cast (0 none, 1 bf16->f32)");
  return checkLimits(t, "fetch", c.limits, why) && checkSlices(t, "fetch", c.slices, why);
}

bool validateVector(const TargetModel &t, const VectorConfig &c, std::string &why) {
  int64_t steps = c.steps;
  if (steps > kMaxVectorSteps)
    return failWith(why, "vector.steps = " + std::to_string(steps) + " exceeds " +
                             std::to_string(kMaxVectorSteps));
  // Unused steps must be zero so that a block has exactly one encoding.
  for (int s = static_cast<int>(steps); s < kMaxVectorSteps; ++s) {
    VectorStep st = vectorStep(c, s);
    const char *nonzero = st.alu ? "alu" : st.op ? "op" : st.mode ? "mode" : st.imm ? "imm"
                                                               : st.imm2 ? "imm2" : nullptr;
    if (nonzero)
      return failWith(why, "vector step " + std::to_string(s) + " is unused (steps = " +
                               std::to_string(steps) + ") but its " + nonzero + " is nonzero");
  }
  int64_t lastAlu = 0;
  bool stash = false, intra = false, inter = false;
  for (int s = 0; s < steps; ++s) {
    int64_t alu = c.alu[s], op = c.op[s], mode = c.mode[s];
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
  if (c.vrfElemStride != 0 && c.vrfElemStride != 4)
    return failWith(why, "vector.vrf_elem_stride = " + std::to_string(c.vrfElemStride) +
                             " is not 0 (broadcast) or 4 (consecutive 32-bit values)");
  if (c.reduceSlots > t.vectorReduceSlots || (intra && c.reduceSlots < 1))
    return failWith(why, "vector.reduce_slots = " + std::to_string(c.reduceSlots) +
                             " is outside 1.." + std::to_string(t.vectorReduceSlots));
  if (c.interGroupLog2 < 0 || (int64_t(1) << std::min<int64_t>(c.interGroupLog2, 62)) >
                                  t.slicesPerCluster)
    return failWith(why, "vector.inter_group_log2 = " + std::to_string(c.interGroupLog2) +
                             ": groups of 2^" + std::to_string(c.interGroupLog2) +
                             " slices exceed a cluster's " +
                             std::to_string(t.slicesPerCluster));
  return true;
}

bool validateCast(const TargetModel &, const CastConfig &c, std::string &why) {
  if (int64_t(c.mode) < 0 || c.mode > CastMode::I32ToI8)
    return failWith(why, "cast.mode = " + std::to_string(int64_t(c.mode)) +
                             " is not a known cast (0 none, 1 f32->bf16, 2 i32->i8)");
  return true;
}

bool validateCommit(const TargetModel &t, const CommitConfig &c, std::string &why) {
  // A flit's leading bytes, in steps of the commit alignment: 8, 16, 24 or 32 on both targets.
  int64_t step = t.commitStrideAlignment;
  if (c.writeBytes < step || c.writeBytes > t.flitBytes || c.writeBytes % step != 0) {
    std::string sizes;
    for (int64_t b = step; b <= t.flitBytes; b += step)
      sizes += (sizes.empty() ? "" : b + step > t.flitBytes ? " or " : ", ") + std::to_string(b);
    return failWith(why, "commit.write_bytes = " + std::to_string(c.writeBytes) + " is not " +
                             sizes);
  }
  if (c.cast != CommitCast::None && c.cast != CommitCast::F32ToBf16)
    return failWith(why, "commit.cast = " + std::to_string(int64_t(c.cast)) +
                             " is not a known commit cast (0 none, 1 f32->bf16)");
  return checkLimits(t, "commit", c.limits, why) && checkSlices(t, "commit", c.slices, why);
}

bool validateContract(const TargetModel &t, const ContractConfig &c, std::string &why) {
  if (c.pack != 1 && c.pack != 2)
    return failWith(why, "contract.pack = " + std::to_string(c.pack) + " is not 1 or 2 flits");
  if (c.mac != MacType::Bf16 && c.mac != MacType::I8)
    return failWith(why, "contract.mac = " + std::to_string(int64_t(c.mac)) +
                             " is not a known MAC type (0 bf16 x bf16 -> f32, 1 i8 x i8 -> i32)");
  int64_t elems = c.pack * t.flitBytes / (c.mac == MacType::Bf16 ? 2 : 1);
  if (c.packetElems != elems)
    return failWith(why, "contract.packet_elems = " + std::to_string(c.packetElems) +
                             " but a packet of " + std::to_string(c.pack) + " flits holds " +
                             std::to_string(elems) + (c.mac == MacType::Bf16 ? " bf16" : " i8") +
                             " elements");
  if (c.window > t.maxSequencerEntries)
    return failWith(why, "contract.window = " + std::to_string(c.window) + " is outside 0.." +
                             std::to_string(t.maxSequencerEntries));
  if (c.slots < 1)
    return failWith(why, "contract.slots = 0; a window emits 1..255 slots");
  if (c.laneMode != LaneMode::Interleaved && c.laneMode != LaneMode::Sequential)
    return failWith(why, "contract.lane_mode = " + std::to_string(int64_t(c.laneMode)) +
                             " is not 0 (interleaved) or 1 (sequential)");
  if (!checkLimits(t, "contract", c.limits, why))
    return false;
  int64_t maxSlot = 0;
  for (int k = 0; k < kSequencerLoops; ++k)
    maxSlot += (c.limits[k] - 1) * c.accStrides[k];
  if (maxSlot >= c.slots)
    return failWith(why, "contract accumulator slot index reaches " + std::to_string(maxSlot) +
                             " (sum of (limits[k] - 1) x acc_strides[k]), not below slots = " +
                             std::to_string(c.slots));
  return true;
}

bool validateTrfWrite(const TargetModel &, const TrfWriteConfig &c, std::string &why) {
  if (c.laneBytes < 1)
    return failWith(why, "trf_write.lane_bytes = " + std::to_string(c.laneBytes) +
                             " must be at least 1");
  return true;
}

bool validateVrfWrite(const TargetModel &, const VrfWriteConfig &c, std::string &why) {
  if (c.bytes < 1)
    return failWith(why, "vrf_write.bytes = " + std::to_string(c.bytes) + " must be at least 1");
  return true;
}

bool validateSwitch(const TargetModel &t, const SwitchConfig &c, std::string &why) {
  if (c.mode < SwitchMode::Broadcast01 || c.mode > SwitchMode::TransposedBroadcast1)
    return failWith(why, "switch.mode = " + std::to_string(int64_t(c.mode)) +
                             " is not a known switch mode (1 Broadcast01, 2 Broadcast1, 3 "
                             "Transpose, 4 InterTranspose, 5 TransposedBroadcast1)");
  if (c.slice1 < 1 || c.slice0 < 1)
    return failWith(why, "switch.slice1 = " + std::to_string(c.slice1) + " and slice0 = " +
                             std::to_string(c.slice0) + " must both be at least 1");
  int64_t ring = c.slice1 * c.slice0;
  if (ring > t.slicesPerCluster || (ring & (ring - 1)) != 0)
    return failWith(why, "switch ring size slice1 x slice0 = " + std::to_string(ring) +
                             " is not a power of two up to a cluster's " +
                             std::to_string(t.slicesPerCluster) + " slices");
  bool usesTime0 = c.mode == SwitchMode::Broadcast01 || c.mode == SwitchMode::InterTranspose;
  if (usesTime0 && c.time0 < 1)
    return failWith(why, "switch.time0 = 0; Broadcast01 and InterTranspose need time0 >= 1");
  return true;
}

bool validateTranspose(const TargetModel &t, const TransposeConfig &c, std::string &why) {
  if (c.elemLog2 > 2)
    return failWith(why, "transpose.elem_log2 = " + std::to_string(c.elemLog2) +
                             " is not 0 (8-bit), 1 (16-bit) or 2 (32-bit)");
  if (c.inCols != 8 && c.inCols != 16 && c.inCols != 32)
    return failWith(why, "transpose.in_cols = " + std::to_string(c.inCols) +
                             " is not 8, 16 or 32");
  int64_t maxRows = t.transposeColumnBytes >> c.elemLog2;
  if (c.inRows < 1 || c.inRows > maxRows)
    return failWith(why, "transpose.in_rows = " + std::to_string(c.inRows) + " is outside 1.." +
                             std::to_string(maxRows) + " for " +
                             std::to_string(8 << c.elemLog2) + "-bit elements");
  if (c.outRows < 1 || c.outRows > c.inCols)
    return failWith(why, "transpose.out_rows = " + std::to_string(c.outRows) +
                             " is outside 1..in_cols (" + std::to_string(c.inCols) + ")");
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
#define RNGD_UNIT(Name, id, mnemonic, bit)                                                       \
  case Unit::Name:                                                                               \
    return bit;
#define RNGD_FIELD(...)
#define RNGD_ARRAY(...)
#define RNGD_UNIT_END(Name)
#include "rngd/IsaUnits.def"
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

bool validateBlock(const TargetModel &t, const UnitSpec &spec, const std::vector<int64_t> &v,
                   std::string &why) {
  if (v.size() != valueCount(spec)) {
    why = std::string(spec.name) + " block has " + std::to_string(v.size()) +
          " values, expected " + std::to_string(valueCount(spec));
    return false;
  }
  switch (spec.unit) {
#define RNGD_UNIT(Name, id, mnemonic, bit)                                                       \
  case Unit::Name:                                                                               \
    return validate##Name(t, Name##Config::fromValues(v), why);
#define RNGD_FIELD(...)
#define RNGD_ARRAY(...)
#define RNGD_UNIT_END(Name)
#include "rngd/IsaUnits.def"
  }
  why = "unknown unit";
  return false;
}

// fromValues / values: the table order, arrays expanded.
#define RNGD_UNIT(Name, id, mnemonic, bit)                                                       \
  Name##Config Name##Config::fromValues(const std::vector<int64_t> &v) {                         \
    Name##Config c;                                                                              \
    if (v.size() != valueCount(*findUnit(Unit::Name)))                                           \
      return c;                                                                                  \
    size_t at = 0;
#define RNGD_FIELD(member, name, bits, isSigned, Type, init) c.member = static_cast<Type>(v[at++]);
#define RNGD_ARRAY(member, name, bits, count, isSigned, Type, init)                             \
  for (Type & x : c.member)                                                                      \
    x = static_cast<Type>(v[at++]);
#define RNGD_UNIT_END(Name)                                                                      \
  return c;                                                                                      \
  }
#include "rngd/IsaUnits.def"

#define RNGD_UNIT(Name, id, mnemonic, bit)                                                       \
  std::vector<int64_t> Name##Config::values() const {                                            \
    std::vector<int64_t> v;
#define RNGD_FIELD(member, name, bits, isSigned, Type, init) v.push_back(static_cast<int64_t>(member));
#define RNGD_ARRAY(member, name, bits, count, isSigned, Type, init)                             \
  for (Type x : member)                                                                          \
    v.push_back(static_cast<int64_t>(x));
#define RNGD_UNIT_END(Name)                                                                      \
  return v;                                                                                      \
  }
#include "rngd/IsaUnits.def"

VectorStep vectorStep(const VectorConfig &c, int s) {
  return {c.alu[s], c.op[s], c.mode[s], c.imm[s], c.imm2[s]};
}

void setVectorStep(VectorConfig &c, int s, const VectorStep &step) {
  c.alu[s] = step.alu;
  c.op[s] = step.op;
  c.mode[s] = step.mode;
  c.imm[s] = step.imm;
  c.imm2[s] = step.imm2;
}

// ---- Vector Engine ALU / op table (rngd/IsaAlus.def) -----------------------------------------
const char *aluName(int64_t alu) {
  switch (alu) {
#define RNGD_ALU(Name, id, way, ops)                                                             \
  case id:                                                                                       \
    return #Name;
#define RNGD_OP(Name) 0
#include "rngd/IsaAlus.def"
  }
  return nullptr;
}

AluWay aluWay(int64_t alu) {
  switch (alu) {
#define RNGD_ALU(Name, id, way, ops)                                                             \
  case id:                                                                                       \
    return AluWay::way;
#define RNGD_OP(Name) 0
#include "rngd/IsaAlus.def"
  }
  return AluWay::None;
}

const char *vectorOpName(int64_t op) {
  switch (op) {
#define RNGD_VECTOR_OP(Name, id, takesOperand)                                                   \
  case id:                                                                                       \
    return #Name;
#include "rngd/IsaAlus.def"
  }
  return nullptr;
}

bool aluAllows(int64_t alu, int64_t op) {
  if (op < 0 || op >= 64)
    return false;
  uint64_t bit = uint64_t(1) << op;
  switch (alu) {
#define RNGD_ALU(Name, id, way, ops)                                                             \
  case id:                                                                                       \
    return (bit & (ops)) != 0;
#define RNGD_OP(Name) (uint64_t(1) << int64_t(VectorOp::Name))
#include "rngd/IsaAlus.def"
  }
  return false;
}

bool stepReadsOperand(int64_t alu, int64_t op) {
  // Reducers combine flits or slices; Stash copies: none reads an operand.
  if (aluWay(alu) == AluWay::Reduce || alu == int64_t(Alu::Stash))
    return false;
  switch (op) {
#define RNGD_VECTOR_OP(Name, id, takesOperand)                                                   \
  case id:                                                                                       \
    return takesOperand;
#include "rngd/IsaAlus.def"
  }
  return false;
}

} // namespace rngd::isa
