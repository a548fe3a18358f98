// The .rngd executable file: what rngdc writes and the runtime loads. docs/executable-format.md
// documents the byte layout. Plain C++; the compiler links this library to write files.
#pragma once

#include "rngd/Isa.h"
#include "rngd/machine/TargetModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd {

enum class DType : uint32_t { BF16 = 1, F32 = 2, I32 = 3, I8 = 4 };
int64_t dtypeBytes(DType d);
const char *dtypeName(DType d);
bool parseDType(const std::string &s, DType &out);

enum class ArgKind : uint32_t { In = 0, Out = 1, InOut = 2 };
const char *argKindName(ArgKind k);
bool parseArgKind(const std::string &s, ArgKind &out);

struct ArgInfo {
  std::string name;
  std::string mapping;           // HBM element mapping, e.g. "[T, N, D]"
  ArgKind kind = ArgKind::In;
  DType dtype = DType::BF16;
  std::vector<int64_t> shape;    // logical shape, at most 4 dims
  uint64_t hbmOffset = 0;        // byte offset in the kernel's HBM space
  uint64_t bytes = 0;
};

struct ConfigBlock {
  isa::Unit unit = isa::Unit::Fetch;
  std::vector<int64_t> values;   // table order, arrays expanded (isa::UnitSpec)
  // 0: a load writes the whole block; else bit w set = its load writes register word w only
  // (the other words already hold the block's values: the simulator checks that).
  uint64_t partialMask = 0;
};

struct Executable {
  static constexpr uint32_t kFormatVersion = 3;
  std::string kernelName;
  std::string targetName;
  uint64_t targetHash = 0;
  std::string compilerVersion;
  uint32_t flags = 0;
  uint64_t predictedMakespan = 0;
  uint64_t hbmBytes = 0;         // size of the kernel's HBM space (all arguments)
  std::vector<ArgInfo> args;
  std::vector<uint32_t> commands;
  std::vector<ConfigBlock> configs;
  std::vector<isa::Descriptor> descriptors;
};

/// The machine the executable names (targetName, one rngd::findTarget knows, whose hash is
/// targetHash, whose limits fit the encoding: isa::checkTargetEncoding); nullptr with a
/// message naming the known targets, both hashes or the limit otherwise.
const TargetModel *findExecutableTarget(const Executable &exe, std::string &why);

/// The rules every executable obeys, shared by writer and loader: its target is known (and
/// every machine number below is that target's); names are MLIR identifiers
/// and quoted strings are printable without escapes; argument records are consistent (dtype,
/// kind, rank <= 8, bytes, aligned offsets inside hbmBytes, no overlap); config blocks fit
/// their unit tables; descriptors pass isa::checkDescriptor on the target (its DMA engines,
/// loops and trip counts); every command word decodes and references an existing config block
/// or descriptor.
bool validateExecutable(const Executable &exe, std::string &why);

/// Serialises deterministically. Fails (with a message) only for values that do not fit the
/// format, e.g. a config field wider than its register.
bool writeExecutable(const Executable &exe, std::vector<uint8_t> &out, std::string &why);

/// Validates magic, version, sizes, checksum, every section bound and every record, then
/// decodes. Never reads outside `bytes`; returns false with a message on any defect.
bool readExecutable(const std::vector<uint8_t> &bytes, Executable &exe, std::string &why);

/// "0x" + lowercase hex without padding: the text form of hashes and addresses.
std::string formatHex(uint64_t v);

/// FNV-1a 64 over a byte range; the file checksum.
uint64_t fnv1a64(const uint8_t *data, size_t size);

/// The rngd dialect text of an executable (what `rngd-dump` prints and `rngdc` assembles).
std::string printExecutable(const Executable &exe);

} // namespace rngd
