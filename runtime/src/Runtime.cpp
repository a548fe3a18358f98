// Loader, kernel HBM buffers and launches on the simulator device.
#include "rngd/Runtime.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace rngd {

Status loadExecutableBytes(const std::vector<uint8_t> &bytes, Executable &out) {
  std::string why;
  if (!readExecutable(bytes, out, why))
    return Status::failure(why);
  return Status::success();
}

Status loadExecutableFile(const std::string &path, Executable &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::failure("cannot open '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad())
    return Status::failure("cannot read '" + path + "'");
  return loadExecutableBytes(bytes, out);
}

Status Kernel::open(const std::string &path, std::unique_ptr<Kernel> &out) {
  Executable exe;
  Status st = loadExecutableFile(path, exe);
  if (!st)
    return st;
  return fromExecutable(std::move(exe), out);
}

Status Kernel::fromBytes(const std::vector<uint8_t> &bytes, std::unique_ptr<Kernel> &out) {
  Executable exe;
  Status st = loadExecutableBytes(bytes, exe);
  if (!st)
    return st;
  return fromExecutable(std::move(exe), out);
}

Status Kernel::fromExecutable(Executable exe, std::unique_ptr<Kernel> &out) {
  std::string why;
  if (!validateExecutable(exe, why))
    return Status::failure(why);
  if (exe.targetHash != defaultTarget().hash())
    return Status::failure("target hash mismatch: the executable was compiled for hash " +
                           formatHex(exe.targetHash) + ", this runtime's target '" +
                           defaultTarget().name + "' is " + formatHex(defaultTarget().hash()));
  if (exe.hbmBytes > kDeviceHbmBytes)
    return Status::failure("kernel '" + exe.kernelName + "' needs " +
                           std::to_string(exe.hbmBytes) + " bytes of HBM, the device has " +
                           std::to_string(kDeviceHbmBytes));
  std::unique_ptr<Kernel> k(new Kernel());
  // calloc: the OS hands out zero pages lazily, so a large HBM space costs only what is touched.
  uint8_t *p = static_cast<uint8_t *>(std::calloc(exe.hbmBytes ? exe.hbmBytes : 1, 1));
  if (!p)
    return Status::failure("cannot allocate " + std::to_string(exe.hbmBytes) +
                           " bytes of HBM for kernel '" + exe.kernelName + "'");
  k->hbm_.reset(p);
  k->exe_ = std::move(exe);
  out = std::move(k);
  return Status::success();
}

const ArgInfo *Kernel::findArg(const std::string &name) const {
  for (const ArgInfo &a : exe_.args)
    if (a.name == name)
      return &a;
  return nullptr;
}

std::string Kernel::describeArgs() const {
  std::string s;
  for (const ArgInfo &a : exe_.args) {
    s += (s.empty() ? "" : ", ") + a.name + " (" + argKindName(a.kind) + " " +
         dtypeName(a.dtype) + " [";
    for (size_t i = 0; i < a.shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(a.shape[i]);
    s += "])";
  }
  return s.empty() ? "none" : s;
}

static Status argFor(const Kernel &k, const std::string &name, uint64_t bytes,
                     const ArgInfo *&out) {
  out = k.findArg(name);
  if (!out)
    return Status::failure("kernel '" + k.executable().kernelName + "' has no argument '" +
                           name + "'; its arguments are: " + k.describeArgs());
  if (bytes != out->bytes)
    return Status::failure("argument '" + name + "' has " + std::to_string(out->bytes) +
                           " bytes, the host buffer " + std::to_string(bytes));
  return Status::success();
}

Status Kernel::upload(const std::string &name, const void *data, uint64_t bytes) {
  const ArgInfo *a;
  Status st = argFor(*this, name, bytes, a);
  if (st && bytes)
    std::memcpy(hbm_.get() + a->hbmOffset, data, bytes);
  return st;
}

Status Kernel::download(const std::string &name, void *data, uint64_t bytes) const {
  const ArgInfo *a;
  Status st = argFor(*this, name, bytes, a);
  if (st && bytes)
    std::memcpy(data, hbm_.get() + a->hbmOffset, bytes);
  return st;
}

Status Kernel::download(const std::string &name, std::vector<uint8_t> &out) const {
  const ArgInfo *a = findArg(name);
  out.resize(a ? a->bytes : 0);
  return download(name, out.data(), out.size());
}

Status Kernel::zero(const std::string &name) {
  const ArgInfo *a = findArg(name);
  if (!a)
    return argFor(*this, name, 0, a);
  std::memset(hbm_.get() + a->hbmOffset, 0, a->bytes);
  return Status::success();
}

Device::Device(const TargetModel &target) : target_(target), dm_(target) {}

Status Device::launch(Kernel &kernel, LaunchResult &result, const LaunchOptions &options) {
  sim::SimResult r;
  Status st = sim::simulate(kernel.executable(), kernel.hbm(), kernel.hbmBytes(), dm_,
                            options.sim, r, target_);
  result.makespan = r.makespan;
  result.trace = std::move(r.ops);
  return st;
}

std::string Device::traceJson(const Kernel &kernel, const LaunchResult &result) const {
  sim::SimResult r;
  r.makespan = result.makespan;
  r.ops = result.trace;
  return sim::traceJson(kernel.executable(), r, target_);
}

} // namespace rngd
