// Executable model helpers: dtype and argument-kind names, the file checksum, and the
// semantic rules shared by writer and loader (validateExecutable).
#include "FileLayout.h"
#include "rngd/machine/TargetModel.h"
#include "rngd/Executable.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace rngd {

int64_t dtypeBytes(DType d) {
  switch (d) {
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I8:
    return 1;
  }
  return 0;
}

const char *dtypeName(DType d) {
  switch (d) {
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::I32:
    return "i32";
  case DType::I8:
    return "i8";
  }
  return "?";
}

bool parseDType(const std::string &s, DType &out) {
  for (DType d : {DType::BF16, DType::F32, DType::I32, DType::I8})
    if (s == dtypeName(d)) {
      out = d;
      return true;
    }
  return false;
}

const char *argKindName(ArgKind k) {
  switch (k) {
  case ArgKind::In:
    return "in";
  case ArgKind::Out:
    return "out";
  case ArgKind::InOut:
    return "inout";
  }
  return "?";
}

bool parseArgKind(const std::string &s, ArgKind &out) {
  for (ArgKind k : {ArgKind::In, ArgKind::Out, ArgKind::InOut})
    if (s == argKindName(k)) {
      out = k;
      return true;
    }
  return false;
}

std::string formatHex(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

uint64_t fnv1a64(const uint8_t *data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace layout {
const char *sectionName(uint32_t kind) {
  switch (kind) {
  case kStrings:
    return "strings";
  case kArgs:
    return "args";
  case kCommands:
    return "commands";
  case kConfigs:
    return "configs";
  case kDescriptors:
    return "descriptors";
  }
  return "unknown";
}
} // namespace layout

namespace {

// MLIR bare identifiers, so `@name` prints without quoting.
bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  });
}

// Printable ASCII without quote or backslash, so `"text"` needs no escapes.
bool isPlainText(const std::string &s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; });
}

bool checkArg(const TargetModel &t, const Executable &exe, size_t i, std::string &why) {
  const ArgInfo &a = exe.args[i];
  std::string label = "argument #" + std::to_string(i) + " '" + a.name + "'";
  if (!isIdentifier(a.name)) {
    why = label + ": name is not an identifier ([A-Za-z_][A-Za-z0-9_$.]*)";
    return false;
  }
  if (!isPlainText(a.mapping)) {
    why = label + ": mapping has a quote, backslash or non-printable character";
    return false;
  }
  if (dtypeBytes(a.dtype) == 0) {
    why = label + ": unknown dtype " + std::to_string(static_cast<uint32_t>(a.dtype));
    return false;
  }
  if (a.kind != ArgKind::In && a.kind != ArgKind::Out && a.kind != ArgKind::InOut) {
    why = label + ": unknown kind " + std::to_string(static_cast<uint32_t>(a.kind));
    return false;
  }
  if (a.shape.size() > layout::kMaxRank) {
    why = label + ": rank " + std::to_string(a.shape.size()) + " exceeds " +
          std::to_string(layout::kMaxRank);
    return false;
  }
  uint64_t elements = 1;
  for (int64_t d : a.shape) {
    if (d < 1) {
      why = label + ": dimension " + std::to_string(d) + " is not positive";
      return false;
    }
    if (elements > std::numeric_limits<uint64_t>::max() / 8 / static_cast<uint64_t>(d)) {
      why = label + ": shape overflows 64-bit byte counts";
      return false;
    }
    elements *= static_cast<uint64_t>(d);
  }
  uint64_t bytes = elements * static_cast<uint64_t>(dtypeBytes(a.dtype));
  if (a.bytes != bytes) {
    why = label + ": bytes " + std::to_string(a.bytes) + " != " + std::to_string(elements) +
          " elements x " + std::to_string(dtypeBytes(a.dtype)) + " bytes (" +
          std::to_string(bytes) + ")";
    return false;
  }
  uint64_t align = static_cast<uint64_t>(t.hbmArgumentAlignment);
  if (a.hbmOffset % align != 0) {
    why = label + ": HBM offset " + std::to_string(a.hbmOffset) + " is not " +
          std::to_string(align) + "-byte aligned";
    return false;
  }
  if (a.hbmOffset > exe.hbmBytes || a.bytes > exe.hbmBytes - a.hbmOffset) {
    why = label + ": HBM range [" + std::to_string(a.hbmOffset) + ", +" +
          std::to_string(a.bytes) + ") ends past the kernel's HBM size " +
          std::to_string(exe.hbmBytes);
    return false;
  }
  for (size_t j = 0; j < i; ++j) {
    const ArgInfo &b = exe.args[j];
    if (b.name == a.name) {
      why = label + ": name repeats argument #" + std::to_string(j);
      return false;
    }
    if (a.hbmOffset < b.hbmOffset + b.bytes && b.hbmOffset < a.hbmOffset + a.bytes) {
      why = label + ": HBM range overlaps argument #" + std::to_string(j) + " '" + b.name + "'";
      return false;
    }
  }
  return true;
}

bool checkConfig(const TargetModel &t, const Executable &exe, size_t i, std::string &why) {
  const ConfigBlock &c = exe.configs[i];
  const isa::UnitSpec *spec = isa::findUnit(c.unit);
  std::string label = "config block " + std::to_string(i) + ": ";
  if (!spec) {
    why = label + "unknown unit " + std::to_string(static_cast<uint32_t>(c.unit));
    return false;
  }
  std::vector<uint64_t> words;
  std::string inner;
  if (!isa::packBlock(*spec, c.values, words, inner) ||
      !isa::validateBlock(t, *spec, c.values, inner)) {
    why = label + inner;
    return false;
  }
  if (c.partialMask && !(inner = isa::checkPartialMask(*spec, c.partialMask)).empty()) {
    why = label + inner;
    return false;
  }
  return true;
}

bool checkCommandWord(const Executable &exe, size_t i, std::string &why) {
  std::string inner;
  auto cmd = isa::decode(exe.commands[i], inner);
  std::string label = "command #" + std::to_string(i) + ": ";
  if (!cmd || !isa::checkCommand(*cmd, inner)) {
    why = label + inner;
    return false;
  }
  if (cmd->opcode == isa::Opcode::Config && cmd->index >= int64_t(exe.configs.size())) {
    why = label + "`" + isa::formatCommand(*cmd) + "` references config block " +
          std::to_string(cmd->index) + " but the file has " +
          std::to_string(exe.configs.size());
    return false;
  }
  if (cmd->opcode == isa::Opcode::Dma && cmd->index >= int64_t(exe.descriptors.size())) {
    why = label + "`" + isa::formatCommand(*cmd) + "` references descriptor " +
          std::to_string(cmd->index) + " but the file has " +
          std::to_string(exe.descriptors.size());
    return false;
  }
  return true;
}

} // namespace

const TargetModel *findExecutableTarget(const Executable &exe, std::string &why) {
  const TargetModel *t = findTarget(exe.targetName);
  if (!t) {
    why = "target '" + exe.targetName + "' is not one this runtime knows (" + targetNames() + ")";
    return nullptr;
  }
  if (exe.targetHash != t->hash()) {
    why = "target hash mismatch: the executable was compiled for '" + exe.targetName +
          "' with hash " + formatHex(exe.targetHash) + ", this runtime's '" + t->name +
          "' is " + formatHex(t->hash());
    return nullptr;
  }
  std::string unfit = isa::checkTargetEncoding(*t); // past the encoding's capacity: refused
  if (!unfit.empty()) {
    why = unfit;
    return nullptr;
  }
  return t;
}

bool validateExecutable(const Executable &exe, std::string &why) {
  const TargetModel *target = findExecutableTarget(exe, why);
  if (!target)
    return false;
  if (!isIdentifier(exe.kernelName)) {
    why = "kernel name '" + exe.kernelName + "' is not an identifier ([A-Za-z_][A-Za-z0-9_$.]*)";
    return false;
  }
  if (!isPlainText(exe.targetName) || !isPlainText(exe.compilerVersion)) {
    why = "target name or compiler version has a quote, backslash or non-printable character";
    return false;
  }
  for (size_t i = 0; i < exe.args.size(); ++i)
    if (!checkArg(*target, exe, i, why))
      return false;
  for (size_t i = 0; i < exe.configs.size(); ++i)
    if (!checkConfig(*target, exe, i, why))
      return false;
  for (size_t i = 0; i < exe.descriptors.size(); ++i) {
    std::string inner;
    if (!isa::checkDescriptor(*target, exe.descriptors[i], inner)) {
      why = "descriptor " + std::to_string(i) + ": " + inner;
      return false;
    }
  }
  for (size_t i = 0; i < exe.commands.size(); ++i)
    if (!checkCommandWord(exe, i, why))
      return false;
  return true;
}

} // namespace rngd
