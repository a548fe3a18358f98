// The runtime API: load a .rngd file into a validated Executable, give it an HBM space with one
// buffer per argument, launch it on a device (the simulator) and read the results. Every failure
// is a Status; nothing in the library aborts or exits.
//
//   rngd::Device device;
//   std::unique_ptr<rngd::Kernel> k;
//   if (auto st = rngd::Kernel::open("add.rngd", k); !st) ... st.message()
//   k->upload("x", host.data(), host.size());
//   rngd::LaunchResult r;
//   device.launch(*k, r);            // r.makespan, r.trace
//   k->download("y", out.data(), out.size());
#pragma once

#include "rngd/Executable.h"
#include "rngd/Simulator.h"
#include "rngd/Status.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace rngd {

/// HBM capacity of one RNGD chip (48 GB, MACHINE.md section 1). A kernel whose HBM space is
/// larger cannot run. Belongs in TargetModel; kept here until the target model carries it.
constexpr uint64_t kDeviceHbmBytes = 48ull << 30;

/// Reads and validates an executable (readExecutable: magic, version, target hash, checksum,
/// every section and record).
Status loadExecutableFile(const std::string &path, Executable &out);
Status loadExecutableBytes(const std::vector<uint8_t> &bytes, Executable &out);

/// A loaded kernel and its HBM space (hbmBytes, zero-filled; argument i at args[i].hbmOffset).
/// The HBM contents persist across launches, so inout arguments (caches, state) carry over.
class Kernel {
public:
  static Status open(const std::string &path, std::unique_ptr<Kernel> &out);
  static Status fromBytes(const std::vector<uint8_t> &bytes, std::unique_ptr<Kernel> &out);
  /// For executables built in memory: validated like a loaded file (rules and target hash).
  static Status fromExecutable(Executable exe, std::unique_ptr<Kernel> &out);

  const Executable &executable() const { return exe_; }
  const ArgInfo *findArg(const std::string &name) const;
  /// "x (in bf16 [8]), y (out bf16 [8])": for messages that list the arguments.
  std::string describeArgs() const;

  /// Copies exactly the argument's byte size; any other size is an error naming both.
  Status upload(const std::string &arg, const void *data, uint64_t bytes);
  Status download(const std::string &arg, void *data, uint64_t bytes) const;
  Status download(const std::string &arg, std::vector<uint8_t> &out) const;
  Status zero(const std::string &arg);

  uint8_t *hbm() { return hbm_.get(); }
  const uint8_t *hbm() const { return hbm_.get(); }
  uint64_t hbmBytes() const { return exe_.hbmBytes; }

private:
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  Kernel() = default;
  Executable exe_;
  std::unique_ptr<uint8_t, Free> hbm_;
};

struct LaunchOptions {
  sim::SimOptions sim;
};

struct LaunchResult {
  int64_t makespan = 0;            // simulated cycles of the launch
  std::vector<sim::TraceOp> trace; // one entry per command (when options.sim.recordTrace)
};

/// The simulated chip. Its Data Memory persists across launches, as on the device.
class Device {
public:
  explicit Device(const TargetModel &target = defaultTarget());
  Status launch(Kernel &kernel, LaunchResult &result, const LaunchOptions &options = {});
  /// The trace of `result` as schedule-format JSON.
  std::string traceJson(const Kernel &kernel, const LaunchResult &result) const;
  sim::DataMemory &dataMemory() { return dm_; }
  const TargetModel &target() const { return target_; }

private:
  const TargetModel &target_;
  sim::DataMemory dm_;
};

} // namespace rngd
