// Command words: encoding, decoding and the text form of one command (docs/isa.md).
#include "rngd/Isa.h"

#include <sstream>

namespace rngd::isa {
namespace {

constexpr uint32_t kUnitMask = kKnownUnits;

const char *const kUnitBitNames[kUnitBits] = {"fetch",  "switch", "collect",   "contract",
                                              "vector", "cast",   "transpose", "commit",
                                              "trf",    "vrf"};

std::string hex(uint32_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// Rejects bits outside `allowed`, so every accepted word re-encodes to itself.
bool reservedClear(uint32_t word, uint32_t allowed, const char *what, std::string &why) {
  uint32_t extra = word & ~allowed;
  if (extra == 0)
    return true;
  why = std::string("command word ") + hex(word) + ": reserved bits " + hex(extra) + " set in " +
        what;
  return false;
}

// The bank bit names main's second register bank; the sub context has only one.
bool mainBankOnly(uint32_t word, std::string &why) {
  if (!(word & kContextBit) || !(word & kBankBit))
    return true;
  why = "command word " + hex(word) + ": register bank 1 of the sub context, which has one bank";
  return false;
}

} // namespace

uint32_t encode(const Command &c) {
  uint32_t word = static_cast<uint32_t>(c.opcode) << kOpcodeShift;
  uint32_t ctx = c.context == Context::Sub ? kContextBit : 0;
  uint32_t bank = c.bank ? kBankBit : 0;
  switch (c.opcode) {
  case Opcode::Config:
    return word | ctx | bank | (static_cast<uint32_t>(c.index) & kConfigIndexMask);
  case Opcode::Exec:
    return word | ctx | bank | (static_cast<uint32_t>(c.units) & kUnitMask);
  case Opcode::Wait:
    if (c.waitOnTag)
      return word | kWaitTagBit | (static_cast<uint32_t>(c.tag) & kTagMask);
    return word | ctx;
  case Opcode::Dma:
    return word | ((static_cast<uint32_t>(c.index) & kMaxDescriptorIndex) << kDmaIndexShift) |
           (static_cast<uint32_t>(c.tag) & kTagMask);
  }
  return word;
}

namespace {
/// Whether 0 <= v <= max; else `why` names the field, its value and the range.
bool inRange(const char *what, int64_t v, int64_t max, std::string &why) {
  if (v >= 0 && v <= max)
    return true;
  why = std::string(what) + " " + std::to_string(v) + " is outside 0.." + std::to_string(max);
  return false;
}
} // namespace

bool checkCommand(const Command &c, std::string &why) {
  bool banked = c.opcode == Opcode::Config || c.opcode == Opcode::Exec;
  int64_t banks = c.context == Context::Main ? kMainBanks : 1;
  if (c.bank != 0 && (!banked || c.bank < 0 || c.bank >= banks)) {
    why = std::string(banked ? "register bank " + std::to_string(c.bank) + " of the " +
                                   contextName(c.context) + " context, which has " +
                                   std::to_string(banks)
                             : "a register bank on a command that takes none");
    return false;
  }
  switch (c.opcode) {
  case Opcode::Config:
    return inRange("config index", c.index, kMaxConfigIndex, why);
  case Opcode::Exec:
    if (c.units < 0 || (c.units & ~int64_t(kKnownUnits))) {
      why = "exec unit bitmap " + std::to_string(c.units) + " has units outside the " +
            std::to_string(kUnitBits) + " known ones (bitmap " + hex(kKnownUnits) + ")";
      return false;
    }
    return true;
  case Opcode::Wait:
    return !c.waitOnTag || inRange("DMA tag", c.tag, kMaxTag, why);
  case Opcode::Dma:
    return inRange("DMA descriptor index", c.index, kMaxDescriptorIndex, why) &&
           inRange("DMA tag", c.tag, kMaxTag, why);
  }
  why = "unknown opcode " + std::to_string(static_cast<unsigned>(c.opcode));
  return false;
}

std::optional<Command> decode(uint32_t word, std::string &why) {
  Command c;
  uint32_t op = word >> kOpcodeShift;
  uint32_t opBits = 0x7fu << kOpcodeShift;
  c.context = (word & kContextBit) ? Context::Sub : Context::Main;
  switch (op) {
  case static_cast<uint32_t>(Opcode::Config):
    if (!reservedClear(word, opBits | kContextBit | kBankBit | kConfigIndexMask, "config", why) ||
        !mainBankOnly(word, why))
      return std::nullopt;
    c.opcode = Opcode::Config;
    c.bank = (word & kBankBit) ? 1 : 0;
    c.index = word & kConfigIndexMask;
    return c;
  case static_cast<uint32_t>(Opcode::Exec):
    if (!reservedClear(word, opBits | kContextBit | kBankBit | kKnownUnits, "exec", why) ||
        !mainBankOnly(word, why))
      return std::nullopt;
    c.opcode = Opcode::Exec;
    c.bank = (word & kBankBit) ? 1 : 0;
    c.units = static_cast<uint16_t>(word & kKnownUnits);
    return c;
  case static_cast<uint32_t>(Opcode::Wait):
    c.opcode = Opcode::Wait;
    c.waitOnTag = (word & kWaitTagBit) != 0;
    // A tag wait has no context and a context wait no tag: one word per text form.
    if (c.waitOnTag) {
      if (!reservedClear(word, opBits | kWaitTagBit | kWaitTagFieldMask, "wait on a tag", why))
        return std::nullopt;
      c.context = Context::Main;
      c.tag = word & kWaitTagFieldMask; // bits 15:6 must be zero: a tag past 63 is named
      if (!inRange("DMA tag", c.tag, kMaxTag, why)) {
        why = "command word " + hex(word) + ": " + why;
        return std::nullopt;
      }
    } else if (!reservedClear(word, opBits | kContextBit, "wait on a context", why)) {
      return std::nullopt;
    }
    return c;
  case static_cast<uint32_t>(Opcode::Dma):
    c.opcode = Opcode::Dma;
    c.context = Context::Main;
    c.index = (word >> kDmaIndexShift) & kMaxDescriptorIndex;
    c.tag = static_cast<uint8_t>(word & kTagMask);
    return c; // every operand bit is used
  default:
    why = "command word " + hex(word) + ": unknown opcode " + hex(op);
    return std::nullopt;
  }
}

const char *contextName(Context c) { return c == Context::Sub ? "sub" : "main"; }

const char *unitBitName(unsigned bit) { return bit < kUnitBits ? kUnitBitNames[bit] : nullptr; }

std::string formatCommand(const Command &c) {
  std::string s;
  switch (c.opcode) {
  case Opcode::Config:
    return "rngd.load " + std::to_string(c.index) + " " + contextName(c.context) +
           (c.bank ? " bank " + std::to_string(c.bank) : "");
  case Opcode::Exec:
    s = std::string("rngd.exec ") + contextName(c.context) +
        (c.bank ? " bank " + std::to_string(c.bank) : "") + " [";
    for (unsigned bit = 0, n = 0; bit < kUnitBits; ++bit)
      if (c.units & (1u << bit))
        s += std::string(n++ ? ", " : "") + kUnitBitNames[bit];
    return s + "]";
  case Opcode::Wait:
    if (c.waitOnTag)
      return "rngd.wait tag " + std::to_string(c.tag);
    return std::string("rngd.wait ") + contextName(c.context);
  case Opcode::Dma:
    return "rngd.dma " + std::to_string(c.index) + " tag " + std::to_string(c.tag);
  }
  return "rngd.unknown";
}

} // namespace rngd::isa
