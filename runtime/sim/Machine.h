// State shared by the simulator's engines for one run: the executable, the target, the memories
// and the guards. Internal to rngd_sim.
#pragma once

#include "rngd/machine/CostModel.h"
#include "Footprint.h"
#include "rngd/Simulator.h"


namespace rngd::sim {

struct Env {
  const Executable &exe;
  const TargetModel &target;
  const HbmSpace &hbm;
  DataMemory &dm;
  const SimOptions &options;
};

inline std::string hexString(uint64_t v) { return formatHex(v); }

/// A byte range of a descriptor address, resolved to a memory.
struct Place {
  bool dm = false;
  int64_t slice = 0;   // dm only
  uint64_t offset = 0; // HBM offset, or byte offset within the slice
  uint8_t *ptr = nullptr;
};

/// Resolves [addr, addr + len) in the descriptor address space (docs/isa.md, "Address
/// spaces"); fails when it is not wholly inside the kernel's HBM or one DM slice.
bool resolveAddress(const Env &env, uint64_t addr, uint64_t len, Place &out, std::string &why);

struct DmaOutcome {
  Effects effects;
  DmaRoute route = DmaRoute::HbmToHbm;
  int64_t packets = 0;
  int64_t cycles = 0;
  DmaTraffic traffic; // bytes through HBM and into each cluster's DM
};

/// Moves every packet of a descriptor and reports its footprint and cycles. `label` names the
/// command in errors.
Status runDma(const Env &env, const std::string &label, const isa::Descriptor &d,
              DmaOutcome &out);

/// The configuration registers one `exec` uses (nullptr = not loaded).
struct PassConfig {
  isa::Context context = isa::Context::Main;
  uint8_t bank = 0; // the context's register bank the pass reads
  uint16_t units = 0;
  const isa::FetchConfig *fetch = nullptr;
  const isa::SwitchConfig *switchUnit = nullptr;
  const isa::ContractConfig *contract = nullptr;
  const isa::VectorConfig *vector = nullptr;
  const isa::CastConfig *cast = nullptr;
  const isa::TransposeConfig *transpose = nullptr;
  const isa::CommitConfig *commit = nullptr;
  const isa::TrfWriteConfig *trfWrite = nullptr;
  const isa::VrfWriteConfig *vrfWrite = nullptr;
};

struct PassOutcome {
  Effects effects;
  TensorPassShape shape;
  int64_t cycles = 0;
  bool usesVectorEngine = false;
  int64_t sameBankRun = 0; // longest run of consecutive accesses to one DM bank
  std::string sameBankWhat;
};

/// Runs one Tensor Unit pass on every enabled slice (docs/simulator.md, "Tensor Unit pass").
Status runPass(const Env &env, const std::string &label, const PassConfig &config,
               PassOutcome &out);

} // namespace rngd::sim
