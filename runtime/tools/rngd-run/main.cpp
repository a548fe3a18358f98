// rngd-run FILE.rngd [--input NAME=PATH]... [--output NAME=PATH]... [--seed N
//          [--fill unit|uniform|normal]] [--trace OUT.json [--trace-format=schedule|chrome]]
//          [--quiet]
// Loads an executable, fills its arguments (files, a seeded fill, or zeros), runs it on the
// simulator and writes the requested outputs and trace.
#include "rngd/Bf16.h"
#include "rngd/Timeline.h"
#include "rngd/HostData.h"
#include "rngd/Runtime.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

const char *kUsage =
    "usage: rngd-run FILE.rngd [--input NAME=PATH]... [--output NAME=PATH]... [--seed N\n"
    "                [--fill unit|uniform|normal]] [--trace OUT.json\n"
    "                [--trace-format=schedule|chrome]] [--quiet]\n"
    "  files are raw little-endian data of the argument's dtype and shape, or .npy\n"
    "  (bf16 as '<u2' bit patterns; '<f4' input is rounded to bf16); inputs without a file\n"
    "  are zero, or with --seed N drawn from a splitmix64 stream per argument:\n"
    "  --fill unit     bf16/f32 uniform in [0, 1) (the default)\n"
    "  --fill uniform  bf16/f32 uniform in [-1, 1)\n"
    "  --fill normal   bf16/f32 approximately standard normal (sum of 12 uniforms - 6)\n"
    "  i32/i8 inputs are integers in [-8, 8) with every --fill\n";

enum class Fill { Unit, Uniform, Normal };

struct Options {
  std::string file;
  std::vector<std::pair<std::string, std::string>> inputs, outputs;
  std::optional<uint64_t> seed;
  Fill fill = Fill::Unit;
  bool fillGiven = false;
  std::string trace;
  std::string traceFormat = "schedule";
  bool quiet = false;
};

rngd::Status parseArgs(int argc, char **argv, Options &o) {
  auto pair = [](const std::string &flag, const std::string &v,
                 std::vector<std::pair<std::string, std::string>> &out) {
    size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
      return rngd::Status::failure(flag + " expects NAME=PATH, got '" + v + "'");
    out.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    return rngd::Status::success();
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool hasValue = i + 1 < argc;
    rngd::Status st;
    if (a == "--quiet") {
      o.quiet = true;
    } else if (a.rfind("--trace-format=", 0) == 0) {
      o.traceFormat = a.substr(std::string("--trace-format=").size());
      if (o.traceFormat != "schedule" && o.traceFormat != "chrome")
        return rngd::Status::failure("--trace-format is 'schedule' or 'chrome', got '" +
                                     o.traceFormat + "'");
    } else if (a == "--fill" || a.rfind("--fill=", 0) == 0) {
      std::string v;
      if (a == "--fill") {
        if (!hasValue)
          return rngd::Status::failure("--fill needs a value: unit, uniform or normal");
        v = argv[++i];
      } else {
        v = a.substr(std::string("--fill=").size());
      }
      if (v == "unit")
        o.fill = Fill::Unit;
      else if (v == "uniform")
        o.fill = Fill::Uniform;
      else if (v == "normal")
        o.fill = Fill::Normal;
      else
        return rngd::Status::failure("--fill is 'unit', 'uniform' or 'normal', got '" + v + "'");
      o.fillGiven = true;
    } else if (a == "--input" || a == "--output" || a == "--seed" || a == "--trace") {
      if (!hasValue)
        return rngd::Status::failure(a + " needs a value");
      std::string v = argv[++i];
      if (a == "--input")
        st = pair(a, v, o.inputs);
      else if (a == "--output")
        st = pair(a, v, o.outputs);
      else if (a == "--trace")
        o.trace = v;
      else {
        size_t used = 0;
        try {
          o.seed = std::stoull(v, &used, 0);
        } catch (...) {
          used = 0;
        }
        if (used == 0 || used != v.size())
          return rngd::Status::failure("--seed expects an unsigned integer, got '" + v + "'");
      }
      if (!st)
        return st;
    } else if (!a.empty() && a[0] == '-') {
      return rngd::Status::failure("unknown option '" + a + "'");
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      return rngd::Status::failure("more than one executable given ('" + o.file + "', '" + a +
                                   "')");
    }
  }
  if (o.file.empty())
    return rngd::Status::failure("no executable given");
  if (o.fillGiven && !o.seed)
    return rngd::Status::failure("--fill chooses the distribution of --seed's values: give --seed N");
  return rngd::Status::success();
}

/// --fill uniform / normal for a bf16 or f32 argument; the stream starts as fillSeeded's does
/// (state from (seed, stream) mixed once). uniform: bf16 k/128 for k in [-128, 128) and f32
/// k/2^23 - 1, both exact, so no rounding reaches 1.0. normal: the sum of 12 uniforms in [0, 1)
/// minus 6 (mean 0, variance 1, within [-6, 6)), in double with only additions, so the bytes
/// are the same on every platform; then rounded to the argument's type (nearest even).
void fillSigned(const rngd::ArgInfo &arg, Fill fill, uint64_t seed, uint64_t stream,
                std::vector<uint8_t> &bytes) {
  uint64_t state = seed ^ (0x632be59bd9b4e019ull * (stream + 1));
  state = rngd::splitmix64(state);
  const bool bf16 = arg.dtype == rngd::DType::BF16;
  const uint64_t n = arg.bytes / (bf16 ? 2 : 4);
  bytes.assign(arg.bytes, 0);
  for (uint64_t i = 0; i < n; ++i) {
    float f;
    if (fill == Fill::Uniform) {
      uint64_t z = rngd::splitmix64(state);
      f = bf16 ? static_cast<float>(static_cast<int>(z >> 56) - 128) / 128.0f
               : static_cast<float>(z >> 41) / 8388608.0f - 1.0f;
    } else {
      double sum = 0;
      for (int k = 0; k < 12; ++k)
        sum += static_cast<double>(rngd::splitmix64(state) >> 11) * 0x1.0p-53;
      f = static_cast<float>(sum - 6.0);
    }
    if (bf16) {
      uint16_t b = rngd::f32ToBf16(f);
      std::memcpy(&bytes[2 * i], &b, 2);
    } else {
      std::memcpy(&bytes[4 * i], &f, 4);
    }
  }
}

rngd::Status run(const Options &o) {
  std::unique_ptr<rngd::Kernel> k;
  rngd::Status st = rngd::Kernel::open(o.file, k);
  if (!st)
    return rngd::Status::failure(o.file + ": " + st.message());
  auto argOf = [&](const std::string &name, const rngd::ArgInfo *&a) {
    a = k->findArg(name);
    if (!a)
      return rngd::Status::failure("kernel '" + k->executable().kernelName +
                                   "' has no argument '" + name +
                                   "'; its arguments are: " + k->describeArgs());
    return rngd::Status::success();
  };
  std::map<std::string, bool> given;
  for (const auto &[name, path] : o.inputs) {
    const rngd::ArgInfo *a;
    std::vector<uint8_t> bytes;
    if (!(st = argOf(name, a)) || !(st = rngd::readArgFile(path, *a, bytes)) ||
        !(st = k->upload(name, bytes.data(), bytes.size())))
      return st;
    given[name] = true;
  }
  for (const auto &[name, path] : o.outputs) {
    const rngd::ArgInfo *a;
    if (!(st = argOf(name, a)))
      return st;
  }
  if (o.seed) {
    const auto &args = k->executable().args;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind == rngd::ArgKind::Out || given.count(args[i].name))
        continue;
      std::vector<uint8_t> bytes;
      bool isFloat = args[i].dtype == rngd::DType::BF16 || args[i].dtype == rngd::DType::F32;
      if (o.fill != Fill::Unit && isFloat)
        fillSigned(args[i], o.fill, *o.seed, i, bytes);
      else
        rngd::fillSeeded(args[i], *o.seed, i, bytes);
      if (!(st = k->upload(args[i].name, bytes.data(), bytes.size())))
        return st;
    }
  }
  rngd::Device device(k->target()); // the machine the executable was compiled for
  rngd::LaunchOptions lo;
  lo.sim.recordTrace = !o.trace.empty();
  rngd::LaunchResult r;
  if (!(st = device.launch(*k, r, lo)))
    return st;
  for (const auto &[name, path] : o.outputs) {
    std::vector<uint8_t> bytes;
    if (!(st = k->download(name, bytes)) ||
        !(st = rngd::writeArgFile(path, *k->findArg(name), bytes)))
      return st;
  }
  if (!o.trace.empty()) {
    std::string text = device.traceJson(*k, r), why;
    if (o.traceFormat == "chrome") {
      rngd::Timeline timeline;
      if (!rngd::readTimeline(text, timeline, why))
        return rngd::Status::failure(why);
      text = rngd::chromeTrace(timeline);
    }
    std::ofstream out(o.trace, std::ios::binary);
    out << text;
    if (!out)
      return rngd::Status::failure("cannot write '" + o.trace + "'");
  }
  if (!o.quiet) {
    double us = static_cast<double>(r.makespan) / (device.target().coreClockGHz * 1000.0);
    std::printf("makespan: %lld cycles (%.3f us at %g GHz)\n",
                static_cast<long long>(r.makespan), us, device.target().coreClockGHz);
  }
  return rngd::Status::success();
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  Options o;
  rngd::Status st = parseArgs(argc, argv, o);
  if (st)
    st = run(o);
  if (!st) {
    std::fprintf(stderr, "rngd-run: %s\n", st.message().c_str());
    if (o.file.empty())
      std::fputs(kUsage, stderr);
    return 1;
  }
  return 0;
}
