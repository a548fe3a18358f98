// The RNGD command stream as rngdc emits it and the simulator executes it: 32-bit command
// words, configuration blocks of fixed-width register fields, and DMA descriptors.
// docs/isa.md documents every encoding; this header is the single table both sides use.
// Its constants are the encoding's own capacity (field widths, array sizes of the binary
// format); the machine's limits are the executable's TargetModel's, and the rules
// (validateBlock, checkDescriptor) take them from there.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rngd/IsaDescriptor.h"
#include "rngd/machine/TargetModel.h"

namespace rngd::isa {

// ---- Command words: opcode [31:25], operand [24:0] ---------------------------------------
enum class Opcode : uint8_t {
  Config = 0x04, // [24] context, [23] bank, [19:0] config block index: load the block
  Exec = 0x10,   // [24] context, [23] bank, [9:0] unit bitmap: start a Tensor Unit pass
  Wait = 0x11,   // [24] context, [16] type (0 context, 1 DMA tag), [5:0] tag
  Dma = 0x13,    // [24:6] descriptor index, [5:0] tag: start a DMA command
};

enum class Context : uint8_t { Main = 0, Sub = 1 };

/// Engines an `exec` starts (bit positions of the unit bitmap).
enum UnitBit : uint16_t {
  UnitFetch = 1u << 0,
  UnitSwitch = 1u << 1,
  UnitCollect = 1u << 2,
  UnitContract = 1u << 3,
  UnitVector = 1u << 4,
  UnitCast = 1u << 5,
  UnitTranspose = 1u << 6,
  UnitCommit = 1u << 7,
  UnitTrf = 1u << 8, // the pass ends by writing the Tensor Register File
  UnitVrf = 1u << 9, // the pass ends by writing the Vector Register File
};
constexpr uint16_t kKnownUnits = 0x3ff;

/// Register banks per context: main has two (a pass runs on one while the next pass's blocks
/// load into the other), sub one.
constexpr unsigned kMainBanks = 2;

/// One command, its fields as wide as the text form allows: checkCommand says whether each
/// fits its bits, so encode() never drops one.
struct Command {
  Opcode opcode = Opcode::Exec;
  Context context = Context::Main;
  int64_t bank = 0;       // Config, Exec: the context's register bank (main 0/1, sub 0)
  int64_t index = 0;      // Config: block index; Dma: descriptor index
  int64_t units = 0;      // Exec
  bool waitOnTag = false; // Wait
  int64_t tag = 0;        // Wait, Dma
};

// The largest values the command word's fields hold (encoding capacity).
constexpr uint32_t kMaxConfigIndex = (1u << 20) - 1;
constexpr uint32_t kMaxDescriptorIndex = (1u << 19) - 1;
constexpr uint32_t kMaxTag = 63;

/// Bit layout of a command word, for the codec and the tools that edit words.
constexpr uint32_t kOpcodeShift = 25, kOpcodeBits = 7; // [31:25]
constexpr uint32_t kContextBit = 1u << 24;             // load, exec, context wait: sub
constexpr uint32_t kBankBit = 1u << 23;                // load, exec: main's bank 1
constexpr uint32_t kWaitTagBit = 1u << 16;             // wait: on a DMA tag
constexpr uint32_t kTagMask = kMaxTag;                 // dma, tag wait: the tag [5:0]
/// A tag wait's [15:0]: the tag and the reserved bits 15:6 above it, decoded as one number so
/// that a tag past 63 is refused by name.
constexpr uint32_t kWaitTagFieldMask = 0xffff;
constexpr uint32_t kConfigIndexMask = kMaxConfigIndex; // load: the block index [19:0]
constexpr uint32_t kDmaIndexShift = 6;                 // dma: the descriptor index [24:6]

/// The word of a command that passed checkCommand.
uint32_t encode(const Command &c);
/// Decodes a word; returns std::nullopt (and a reason) for unknown opcodes or reserved bits.
std::optional<Command> decode(uint32_t word, std::string &why);
/// Fails when a field does not fit its bits, so encode() would lose information.
bool checkCommand(const Command &c, std::string &why);

const char *contextName(Context c); // "main" | "sub"
/// Name of bit `bit` of the exec unit bitmap ("fetch", ..., "commit", "trf", "vrf"); nullptr
/// if unknown.
const char *unitBitName(unsigned bit);
constexpr unsigned kUnitBits = 10;
/// The command's line in the rngd text form, without indentation, e.g. "rngd.wait tag 3".
std::string formatCommand(const Command &c);

// ---- Configuration blocks -------------------------------------------------------------------
// rngd/IsaUnits.def defines every unit's fields once; the enum, the field table and the typed
// views below expand from it.
enum class Unit : uint32_t {
#define RNGD_UNIT(Name, id, mnemonic, bit) Name = id,
#define RNGD_FIELD(...)
#define RNGD_ARRAY(...)
#define RNGD_UNIT_END(Name)
#include "rngd/IsaUnits.def"
};

struct FieldSpec {
  const char *name;
  uint8_t bits;
  uint16_t count; // > 1 for arrays (printed as name = [a, b, ...])
  bool isSigned;
};

struct UnitSpec {
  Unit unit;
  const char *name; // mnemonic in the rngd text form
  std::vector<FieldSpec> fields;
};

/// All configuration units in id order.
const std::vector<UnitSpec> &unitSpecs();
const UnitSpec *findUnit(Unit unit);
const UnitSpec *findUnit(const std::string &name);
/// The exec bit of the engine a configuration unit belongs to (trf_write: trf, vrf_write: vrf).
uint16_t execBit(Unit unit);
/// Number of scalar values (arrays expanded) and of 64-bit words of a block.
size_t valueCount(const UnitSpec &spec);
size_t wordCount(const UnitSpec &spec);
/// The mask of all of a block's words (bit w = word w).
uint64_t wholeBlockMask(const UnitSpec &spec);
/// Why `mask` is not a partial load of a block of `spec` (empty when it is: nonzero, within
/// the block, not the whole block).
std::string checkPartialMask(const UnitSpec &spec, uint64_t mask);

/// Packs values (table order, arrays expanded) LSB-first into 64-bit words. Fails with a
/// message naming the field when a value does not fit its width.
bool packBlock(const UnitSpec &spec, const std::vector<int64_t> &values,
               std::vector<uint64_t> &words, std::string &why);
std::vector<int64_t> unpackBlock(const UnitSpec &spec, const std::vector<uint64_t> &words);
/// Semantic rules beyond field widths (known modes and casts, the Vector Engine's ALU/op table
/// and step order, contraction, switch and transpose parameter ranges; docs/isa.md lists
/// them). Writer and loader both call it. Every machine number comes from `target`: loop
/// limits 1..maxSequencerEntrySize in its maxSequencerEntries entries, accesses up to
/// maxFetchAccessBytes, write_bytes a multiple of commitStrideAlignment up to flitBytes, a
/// switch ring within a cluster's slices, the Transpose Engine's row bytes, ...
bool validateBlock(const TargetModel &target, const UnitSpec &spec,
                   const std::vector<int64_t> &values, std::string &why);

// Fetch block values: base, access_log2, packet_bytes, cast, limits[8], strides[8], slices[8].
// Commit block values: base, write_bytes, limits[8], strides[8], slices[8], cast.
// `slices` is a 512-bit slice-enable bitmap as eight 64-bit words (bit s = global slice s).
enum class FetchCast : int64_t { None = 0, Bf16ToF32 = 1 };
/// The commit adapter's cast (main context only): each flit's 32-bit words become bf16 (round
/// to nearest even, as the Cast Engine) before the trim, without occupying the Vector Engine.
enum class CommitCast : int64_t { None = 0, F32ToBf16 = 1 };
enum class CastMode : int64_t { None = 0, F32ToBf16 = 1, I32ToI8 = 2 };

/// Vector Engine ALUs, numbered in pipeline stage order (a block lists its steps in increasing
/// ALU order, each ALU at most once). `Stash` is not an ALU: the step copies the current value
/// into the single stash slot, which a later step may read as its operand. Binary ops compute
/// `x op operand`; Fma computes `x * operand + imm2`; unary ops ignore the operand. Both enums
/// and which ALU runs which op come from rngd/IsaAlus.def.
enum class VectorOp : int64_t {
#define RNGD_VECTOR_OP(Name, id, takesOperand) Name = id,
#include "rngd/IsaAlus.def"
};
enum class Alu : int64_t {
#define RNGD_ALU(Name, id, way, ops) Name = id,
#define RNGD_OP(Name) 0
#include "rngd/IsaAlus.def"
};
/// The lane width class of an ALU: Int (Way8, 32-bit fixed point), Float (Way4, f32), Reduce
/// (f32, combines flits or slices), None (Logic, Stash).
enum class AluWay { None, Int, Float, Reduce };
enum class OperandMode : int64_t { Immediate = 0, Vrf = 1, Stash = 2 };
/// "FxpAdd", ..., "Stash"; nullptr for an unknown id.
const char *aluName(int64_t alu);
AluWay aluWay(int64_t alu);
/// "None", "Add", ..., "ToI32"; nullptr for an unknown id.
const char *vectorOpName(int64_t op);
/// Whether `alu` implements `op` (rngd/IsaAlus.def). Logic implements nothing yet.
bool aluAllows(int64_t alu, int64_t op);
/// Ops that read an operand: Add, Mul, Sub, Div, Max, Min (binary) and Fma (ternary) on the
/// ALUs that compute them (not IntraReduce/InterReduce, which combine flits or slices).
bool stepReadsOperand(int64_t alu, int64_t op);
constexpr int kMaxVectorSteps = 8; // steps a vector block holds: its per-step arrays' size

/// Switch Engine configurations (docs/isa.md gives the slice/time permutation of each).
enum class SwitchMode : int64_t {
  Broadcast01 = 1,
  Broadcast1 = 2,
  Transpose = 3,
  InterTranspose = 4,
  TransposedBroadcast1 = 5,
};
enum class MacType : int64_t { Bf16 = 0, I8 = 1 };

// Array sizes of the blocks, the encoding's capacity. How many sequencer entries a machine has
// and how many iterations each runs are its TargetModel's (maxSequencerEntries,
// maxSequencerEntrySize); entries past the machine's hold limit 1.
constexpr int kSequencerLoops = 8;   // fetch/commit/contract loop entries; entry 0 is outermost
constexpr int kSliceBitmapWords = 8; // 512-bit slice-enable bitmaps
using SliceBitmap = std::array<uint64_t, kSliceBitmapWords>;

template <typename T, size_t N> constexpr std::array<T, N> filledArray(T v) {
  std::array<T, N> a{};
  for (T &x : a)
    x = v;
  return a;
}

/// The Contraction Engine's lane folder: how a window's accumulators leave. Interleaved: one
/// flit per slot holding the 8 lanes. Sequential: per slot (slot order), one flit per lane
/// (lane order) holding that lane's value in element 0, elements 1..7 zero.
enum class LaneMode : int64_t { Interleaved = 0, Sequential = 1 };

// Typed views of the blocks (FetchConfig, VectorConfig, ...), members in table order.
// fromValues expects valueCount(spec) values (validated blocks) and gives the defaults
// otherwise; values() gives the vector packBlock takes.
#define RNGD_UNIT(Name, id, mnemonic, bit)                                                       \
  struct Name##Config {                                                                          \
    static constexpr Unit kUnit = Unit::Name;
#define RNGD_FIELD(member, name, bits, isSigned, Type, init) Type member = init;
#define RNGD_ARRAY(member, name, bits, count, isSigned, Type, init)                             \
  std::array<Type, count> member = filledArray<Type, count>(init);
#define RNGD_UNIT_END(Name)                                                                      \
  static Name##Config fromValues(const std::vector<int64_t> &v);                                 \
  std::vector<int64_t> values() const;                                                           \
  }                                                                                              \
  ;
#include "rngd/IsaUnits.def"

/// One Vector Engine step, gathered from the block's per-step arrays.
struct VectorStep {
  int64_t alu = 0, op = 0, mode = 0;
  uint32_t imm = 0, imm2 = 0;
};
VectorStep vectorStep(const VectorConfig &c, int s);
void setVectorStep(VectorConfig &c, int s, const VectorStep &step);

// ---- The encoding and the target ------------------------------------------------------------
/// Why `target` is not one this encoding can express: a limit the rules take from it is past
/// what its field or array holds (slices past the bitmap, sequencer or descriptor loops past
/// their arrays, trip counts past their fields, ...). Empty when it fits. The loader, the
/// rngd dialect and the simulator refuse such a target.
std::string checkTargetEncoding(const TargetModel &target);

} // namespace rngd::isa
