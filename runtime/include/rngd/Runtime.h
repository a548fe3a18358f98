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
//
// Data that outlives one kernel (weights, a KV cache, activations passed from kernel to kernel)
// lives in device buffers: `device.allocate("w", bytes, buf)` places a buffer in the device's
// HBM and `k->bind("w", *buf)` makes the argument's HBM range refer to it for every later
// launch, so nothing is copied between launches (docs/runtime.md).
#pragma once

#include "rngd/Executable.h"
#include "rngd/Simulator.h"
#include "rngd/Status.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd {

/// Reads and validates an executable (readExecutable: magic, version, target hash, checksum,
/// every section and record).
Status loadExecutableFile(const std::string &path, Executable &out);
Status loadExecutableBytes(const std::vector<uint8_t> &bytes, Executable &out);

class Device;

/// A buffer in a device's HBM, owned by the device (it lives until Device::release or the
/// device's end). Any number of kernels may bind arguments of the same size to it.
class Buffer {
public:
  const std::string &name() const { return name_; }
  uint64_t bytes() const { return bytes_; }
  /// Its place in the device's HBM (descriptor address space: hbmAddressBase + offset).
  uint64_t address() const { return address_; }
  const Device &device() const { return *device_; }
  /// Copy [offset, offset + bytes) in or out; a range past the end is an error naming both.
  Status write(const void *data, uint64_t bytes, uint64_t offset = 0);
  Status read(void *data, uint64_t bytes, uint64_t offset = 0) const;
  uint8_t *data() { return data_.get(); }
  const uint8_t *data() const { return data_.get(); }
  /// How many kernel arguments are bound to it now (a bound buffer cannot be released).
  int bindings() const { return *bindings_; }

private:
  friend class Device;
  friend class Kernel;
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  Buffer() = default;
  Status checkRange(const char *verb, uint64_t bytes, uint64_t offset) const;
  std::string name_;
  uint64_t bytes_ = 0, address_ = 0;
  /// Shared with the kernels bound to it, so that a kernel that outlives the device can still
  /// drop its count.
  std::shared_ptr<int> bindings_ = std::make_shared<int>(0);
  const Device *device_ = nullptr;
  std::unique_ptr<uint8_t, Free> data_;
};

/// A loaded kernel and its HBM space (hbmBytes, zero-filled; argument i at args[i].hbmOffset).
/// The HBM contents persist across launches, so inout arguments (caches, state) carry over.
/// An argument bound to a device buffer reads and writes that buffer instead of its range of
/// the kernel's own space; upload, download and zero follow the binding.
class Kernel {
public:
  static Status open(const std::string &path, std::unique_ptr<Kernel> &out);
  static Status fromBytes(const std::vector<uint8_t> &bytes, std::unique_ptr<Kernel> &out);
  /// For executables built in memory: validated like a loaded file (rules and target hash).
  static Status fromExecutable(Executable exe, std::unique_ptr<Kernel> &out);
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  /// Unbinds every argument (the buffers' counts; it touches no buffer, which may be gone).
  ~Kernel();

  const Executable &executable() const { return exe_; }
  /// The machine the executable was compiled for (its target name and hash).
  const TargetModel &target() const { return target_; }
  const ArgInfo *findArg(const std::string &name) const;
  /// "x (in bf16 [8]), y (out bf16 [8])": for messages that list the arguments.
  std::string describeArgs() const;

  /// Copies exactly the argument's byte size; any other size is an error naming both.
  Status upload(const std::string &arg, const void *data, uint64_t bytes);
  Status download(const std::string &arg, void *data, uint64_t bytes) const;
  Status download(const std::string &arg, std::vector<uint8_t> &out) const;
  Status zero(const std::string &arg);

  /// Binds an argument to a device buffer of exactly its byte size (the shape may differ, as
  /// when q_out [Q] feeds q [N, G, D]). A buffer may back several arguments of one kernel
  /// only when the kernel writes none of them.
  Status bind(const std::string &arg, Buffer &buffer);
  /// Binds an argument to bytes [offset, offset + its size) of a larger buffer: a view, as when
  /// a block of T key rows is the first T rows of a KV-cache chunk. The range must lie inside
  /// the buffer.
  Status bind(const std::string &arg, Buffer &buffer, uint64_t offset);
  /// Back to the kernel's own HBM range for the argument.
  Status unbind(const std::string &arg);
  /// The buffer argument i is bound to, or nullptr.
  Buffer *binding(size_t arg) const { return bound_[arg]; }
  /// Where in that buffer the argument starts (0 unless bound as a view).
  uint64_t bindingOffset(size_t arg) const { return boundOffset_[arg]; }

  uint8_t *hbm() { return hbm_.get(); }
  const uint8_t *hbm() const { return hbm_.get(); }
  uint64_t hbmBytes() const { return exe_.hbmBytes; }

private:
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  explicit Kernel(const TargetModel &target) : target_(target) {}
  /// Where argument `a`'s bytes live now: its binding or its range of hbm_.
  uint8_t *storage(const ArgInfo &a) const;
  const TargetModel &target_;
  Executable exe_;
  std::unique_ptr<uint8_t, Free> hbm_;
  std::vector<Buffer *> bound_; // per argument; nullptr = the kernel's own range
  std::vector<uint64_t> boundOffset_; // per argument: the view's start in its buffer
  std::vector<std::shared_ptr<int>> boundCount_; // per argument: its buffer's binding count
  void setBinding(size_t arg, Buffer *buffer, uint64_t offset);
};

struct LaunchOptions {
  sim::SimOptions sim;
};

struct LaunchResult {
  int64_t makespan = 0;            // simulated cycles of the launch
  std::vector<sim::TraceOp> trace; // one entry per command (when options.sim.recordTrace)
};

/// The simulated chip. Its Data Memory and its HBM buffers persist across launches, as on the
/// device.
class Device {
public:
  /// A device of `target`; it runs only kernels compiled for that target (Kernel::target()).
  explicit Device(const TargetModel &target = defaultTarget());
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  /// A zero-filled buffer of `bytes` in the device's HBM (hbmArgumentAlignment-aligned, never
  /// moved), at the lowest free address that holds it. Fails, naming the numbers, when no free
  /// range of the target's HBM capacity is large enough.
  Status allocate(const std::string &name, uint64_t bytes, Buffer *&out);
  /// Returns the buffer's HBM range to the device (merged with its free neighbours) and frees
  /// it; `buffer` is invalid afterwards. Fails, changing nothing, when a kernel argument is
  /// still bound to it or it belongs to another device.
  Status release(Buffer &buffer);
  /// Bytes of HBM taken by buffers (with alignment padding) and how many buffers.
  uint64_t hbmUsed() const { return used_; }
  size_t bufferCount() const { return buffers_.size(); }
  /// The largest free range: the largest buffer (padded) that can be allocated now.
  uint64_t largestFree() const;
  /// Runs the kernel; every bound buffer must belong to this device.
  Status launch(Kernel &kernel, LaunchResult &result, const LaunchOptions &options = {});
  /// The trace of `result` as schedule-format JSON.
  std::string traceJson(const Kernel &kernel, const LaunchResult &result) const;
  sim::DataMemory &dataMemory() { return dm_; }
  const TargetModel &target() const { return target_; }

private:
  const TargetModel &target_;
  sim::DataMemory dm_;
  uint64_t used_ = 0;                // padded bytes of the live buffers
  std::map<uint64_t, uint64_t> free_; // free ranges of HBM: offset -> bytes, disjoint, merged
  std::vector<std::unique_ptr<Buffer>> buffers_;
};

} // namespace rngd
