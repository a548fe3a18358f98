// Loader, kernel HBM spaces, device buffers and argument binding, launches on the simulator.
#include "rngd/Runtime.h"

#include "rngd/HostData.h"

#include <algorithm>
#include <cstring>

namespace rngd {

Status loadExecutableBytes(const std::vector<uint8_t> &bytes, Executable &out) {
  std::string why;
  if (!readExecutable(bytes, out, why))
    return Status::failure(why);
  return Status::success();
}

Status loadExecutableFile(const std::string &path, Executable &out) {
  std::vector<uint8_t> bytes;
  Status st = readFile(path, bytes);
  return st ? loadExecutableBytes(bytes, out) : st;
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
  const TargetModel &target = *findExecutableTarget(exe, why);
  uint64_t capacity = target.hbmCapacityBytes;
  if (exe.hbmBytes > capacity)
    return Status::failure("kernel '" + exe.kernelName + "' needs " +
                           std::to_string(exe.hbmBytes) + " bytes of HBM, the device has " +
                           std::to_string(capacity));
  std::unique_ptr<Kernel> k(new Kernel(target));
  // calloc: the OS hands out zero pages lazily, so a large HBM space costs only what is touched.
  uint8_t *p = static_cast<uint8_t *>(std::calloc(exe.hbmBytes ? exe.hbmBytes : 1, 1));
  if (!p)
    return Status::failure("cannot allocate " + std::to_string(exe.hbmBytes) +
                           " bytes of HBM for kernel '" + exe.kernelName + "'");
  k->hbm_.reset(p);
  k->bound_.assign(exe.args.size(), nullptr);
  k->boundOffset_.assign(exe.args.size(), 0);
  k->boundCount_.assign(exe.args.size(), nullptr);
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

uint8_t *Kernel::storage(const ArgInfo &a) const {
  Buffer *b = bound_[&a - exe_.args.data()];
  size_t i = size_t(&a - exe_.args.data());
  return b ? b->data() + boundOffset_[i] : hbm_.get() + a.hbmOffset;
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
    std::memcpy(storage(*a), data, bytes);
  return st;
}

Status Kernel::download(const std::string &name, void *data, uint64_t bytes) const {
  const ArgInfo *a;
  Status st = argFor(*this, name, bytes, a);
  if (st && bytes)
    std::memcpy(data, storage(*a), bytes);
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
  std::memset(storage(*a), 0, a->bytes);
  return Status::success();
}

Status Kernel::bind(const std::string &name, Buffer &buffer) {
  const ArgInfo *a;
  if (Status st = argFor(*this, name, buffer.bytes(), a); !st) {
    if (!a)
      return st;
    return Status::failure("cannot bind argument '" + name + "' (" +
                           std::to_string(a->bytes) + " bytes) to buffer '" + buffer.name() +
                           "' (" + std::to_string(buffer.bytes()) + " bytes)");
  }
  return bind(name, buffer, 0);
}

Status Kernel::bind(const std::string &name, Buffer &buffer, uint64_t offset) {
  const ArgInfo *a = findArg(name);
  if (!a)
    return argFor(*this, name, 0, a);
  if (offset > buffer.bytes() || a->bytes > buffer.bytes() - offset)
    return Status::failure("cannot bind argument '" + name + "' (" + std::to_string(a->bytes) +
                           " bytes) at offset " + std::to_string(offset) + " of buffer '" +
                           buffer.name() + "' (" + std::to_string(buffer.bytes()) + " bytes)");
  size_t i = a - exe_.args.data();
  for (size_t j = 0; j < exe_.args.size(); ++j) {
    const ArgInfo &other = exe_.args[j];
    if (j == i || bound_[j] != &buffer)
      continue;
    // Views of one buffer alias only where their bytes overlap.
    const uint64_t at = boundOffset_[j];
    const bool overlap = offset < at + other.bytes && at < offset + a->bytes;
    if (overlap && (a->kind != ArgKind::In || other.kind != ArgKind::In))
      return Status::failure("cannot bind argument '" + name + "' to bytes [" +
                             std::to_string(offset) + ", +" + std::to_string(a->bytes) +
                             ") of buffer '" + buffer.name() + "': argument '" + other.name +
                             "' is bound to bytes [" + std::to_string(at) + ", +" +
                             std::to_string(other.bytes) +
                             ") of it and the kernel writes one of them");
  }
  setBinding(i, &buffer, offset);
  return Status::success();
}

void Kernel::setBinding(size_t arg, Buffer *buffer, uint64_t offset) {
  if (boundCount_[arg])
    --*boundCount_[arg];
  boundCount_[arg] = buffer ? buffer->bindings_ : nullptr;
  if (boundCount_[arg])
    ++*boundCount_[arg];
  bound_[arg] = buffer;
  boundOffset_[arg] = offset;
}

Kernel::~Kernel() {
  for (std::shared_ptr<int> &count : boundCount_)
    if (count)
      --*count;
}

Status Kernel::unbind(const std::string &name) {
  const ArgInfo *a = findArg(name);
  if (!a)
    return argFor(*this, name, 0, a);
  setBinding(size_t(a - exe_.args.data()), nullptr, 0);
  return Status::success();
}

Status Buffer::checkRange(const char *verb, uint64_t bytes, uint64_t offset) const {
  if (offset <= bytes_ && bytes <= bytes_ - offset)
    return Status::success();
  return Status::failure(std::string("cannot ") + verb + " bytes [" + std::to_string(offset) +
                         ", +" + std::to_string(bytes) + ") of buffer '" + name_ + "' (" +
                         std::to_string(bytes_) + " bytes)");
}

Status Buffer::write(const void *data, uint64_t bytes, uint64_t offset) {
  Status st = checkRange("write", bytes, offset);
  if (st && bytes)
    std::memcpy(data_.get() + offset, data, bytes);
  return st;
}

Status Buffer::read(void *data, uint64_t bytes, uint64_t offset) const {
  Status st = checkRange("read", bytes, offset);
  if (st && bytes)
    std::memcpy(data, data_.get() + offset, bytes);
  return st;
}

Device::Device(const TargetModel &target) : target_(target), dm_(target) {
  if (target_.hbmCapacityBytes > 0)
    free_[0] = target_.hbmCapacityBytes;
}

uint64_t Device::largestFree() const {
  uint64_t best = 0;
  for (const auto &[offset, bytes] : free_)
    best = std::max(best, bytes);
  return best;
}

Status Device::allocate(const std::string &name, uint64_t bytes, Buffer *&out) {
  out = nullptr;
  const uint64_t align = static_cast<uint64_t>(target_.hbmArgumentAlignment);
  const uint64_t capacity = target_.hbmCapacityBytes;
  const uint64_t padded = bytes > capacity ? capacity + 1 : (bytes + align - 1) / align * align;
  auto fit = std::find_if(free_.begin(), free_.end(),
                          [&](const auto &range) { return range.second >= padded; });
  if (bytes == 0 || fit == free_.end())
    return Status::failure(
        "cannot allocate buffer '" + name + "' of " + std::to_string(bytes) + " bytes: " +
        (bytes == 0 ? std::string("a buffer needs at least one byte")
                    : "the device HBM has " + std::to_string(used_) + " of " +
                          std::to_string(capacity) + " bytes in use, the largest free range " +
                          std::to_string(largestFree()) + " bytes"));
  // calloc: zero pages are handed out lazily, so untouched capacity costs no host memory.
  uint8_t *p = static_cast<uint8_t *>(std::calloc(bytes, 1));
  if (!p)
    return Status::failure("cannot allocate buffer '" + name + "' of " + std::to_string(bytes) +
                           " bytes: out of host memory");
  const uint64_t offset = fit->first, rest = fit->second - padded;
  free_.erase(fit);
  if (rest > 0)
    free_[offset + padded] = rest;
  std::unique_ptr<Buffer> b(new Buffer());
  b->data_.reset(p);
  b->name_ = name;
  b->bytes_ = bytes;
  b->address_ = target_.hbmAddressBase + offset;
  b->device_ = this;
  used_ += padded;
  out = b.get();
  buffers_.push_back(std::move(b));
  return Status::success();
}

Status Device::release(Buffer &buffer) {
  auto it = std::find_if(buffers_.begin(), buffers_.end(),
                         [&](const std::unique_ptr<Buffer> &b) { return b.get() == &buffer; });
  if (it == buffers_.end())
    return Status::failure("cannot release buffer '" + buffer.name() +
                           "': it belongs to another device");
  if (buffer.bindings() > 0)
    return Status::failure("cannot release buffer '" + buffer.name() + "': " +
                           std::to_string(buffer.bindings()) +
                           " kernel argument(s) are bound to it (unbind them first)");
  const uint64_t align = static_cast<uint64_t>(target_.hbmArgumentAlignment);
  uint64_t offset = buffer.address_ - target_.hbmAddressBase;
  uint64_t bytes = (buffer.bytes_ + align - 1) / align * align;
  used_ -= bytes;
  buffers_.erase(it);
  // Merge with the free ranges that end where this one starts and start where it ends.
  auto next = free_.lower_bound(offset);
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      bytes += prev->second;
      free_.erase(prev);
    }
  }
  if (next != free_.end() && offset + bytes == next->first) {
    bytes += next->second;
    free_.erase(next);
  }
  free_[offset] = bytes;
  return Status::success();
}

Status Device::launch(Kernel &kernel, LaunchResult &result, const LaunchOptions &options) {
  const Executable &exe = kernel.executable();
  if (&kernel.target() != &target_)
    return Status::failure("kernel '" + exe.kernelName + "' is compiled for " +
                           kernel.target().name + ", this device is " + target_.name);
  sim::HbmSpace hbm{kernel.hbm(), kernel.hbmBytes(), {}};
  for (size_t i = 0; i < exe.args.size(); ++i) {
    Buffer *b = kernel.binding(i);
    if (!b)
      continue;
    if (&b->device() != this)
      return Status::failure("kernel '" + exe.kernelName + "': argument '" + exe.args[i].name +
                             "' is bound to buffer '" + b->name() + "' of another device");
    hbm.bound.push_back(
        {exe.args[i].hbmOffset, exe.args[i].bytes, b->data() + kernel.bindingOffset(i)});
  }
  std::sort(hbm.bound.begin(), hbm.bound.end(),
            [](const sim::HbmBinding &a, const sim::HbmBinding &b) { return a.offset < b.offset; });
  sim::SimResult r;
  Status st = sim::simulate(exe, hbm, dm_, options.sim, r, target_);
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
