// printExecutable: the one text form of a compiled kernel, rngd dialect MLIR. The grammar is
// fixed (docs/executable-format.md, "Text form") because rngdc parses it back to identical bytes.
#include "rngd/Executable.h"

#include <sstream>

namespace rngd {
namespace {

template <typename T> std::string list(const std::vector<T> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

void printArg(std::ostream &os, const ArgInfo &a) {
  os << "  rngd.arg @" << a.name << " " << argKindName(a.kind) << " " << dtypeName(a.dtype) << " "
     << list(a.shape) << " \"" << a.mapping << "\" offset " << a.hbmOffset << " bytes " << a.bytes
     << "\n";
}

void printDescriptor(std::ostream &os, size_t index, const isa::Descriptor &d) {
  os << "  rngd.descriptor " << index << " " << isa::formatDescriptor(isa::descriptorValues(d))
     << "\n";
}

std::string value(const isa::FieldSpec &f, int64_t v) {
  return f.bits == 64 ? formatHex(static_cast<uint64_t>(v)) : std::to_string(v);
}

void printConfig(std::ostream &os, size_t index, const ConfigBlock &c) {
  const isa::UnitSpec *spec = isa::findUnit(c.unit);
  if (!spec || c.values.size() != isa::valueCount(*spec)) {
    os << "  // config " << index << ": malformed block\n"; // unreachable for loaded files
    return;
  }
  os << "  rngd.config " << index << " " << spec->name;
  if (c.partialMask)
    os << " words " << formatHex(c.partialMask);
  os << " {";
  size_t at = 0;
  for (size_t f = 0; f < spec->fields.size(); ++f) {
    const isa::FieldSpec &field = spec->fields[f];
    os << (f ? ", " : "") << field.name << " = ";
    if (field.count == 1) {
      os << value(field, c.values[at++]);
      continue;
    }
    os << "[";
    for (unsigned i = 0; i < field.count; ++i)
      os << (i ? ", " : "") << value(field, c.values[at++]);
    os << "]";
  }
  os << "}\n";
}

} // namespace

std::string printExecutable(const Executable &exe) {
  std::ostringstream os;
  os << "rngd.executable @" << exe.kernelName << " target \"" << exe.targetName << "\" hash "
     << formatHex(exe.targetHash) << " compiler \"" << exe.compilerVersion << "\" flags " << exe.flags
     << " makespan " << exe.predictedMakespan << " hbm " << exe.hbmBytes << " {\n";
  for (const ArgInfo &a : exe.args)
    printArg(os, a);
  for (size_t i = 0; i < exe.descriptors.size(); ++i)
    printDescriptor(os, i, exe.descriptors[i]);
  for (size_t i = 0; i < exe.configs.size(); ++i)
    printConfig(os, i, exe.configs[i]);
  for (uint32_t word : exe.commands) {
    std::string why;
    auto cmd = isa::decode(word, why);
    if (cmd)
      os << "  " << isa::formatCommand(*cmd) << "\n";
    else
      os << "  // undecodable command word " << formatHex(word) << ": " << why << "\n";
  }
  os << "}\n";
  return os.str();
}

} // namespace rngd
