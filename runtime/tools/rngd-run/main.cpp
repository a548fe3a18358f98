// rngd-run FILE.rngd [--input NAME=PATH]... [--output NAME=PATH]... [--seed N]
//          [--trace OUT.json [--trace-format=schedule|chrome]] [--quiet]
// Loads an executable, fills its arguments (files, a seeded fill, or zeros), runs it on the
// simulator and writes the requested outputs and trace.
#include "rngd/Timeline.h"
#include "rngd/HostData.h"
#include "rngd/Runtime.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

const char *kUsage =
    "usage: rngd-run FILE.rngd [--input NAME=PATH]... [--output NAME=PATH]... [--seed N]\n"
    "                [--trace OUT.json [--trace-format=schedule|chrome]] [--quiet]\n"
    "  files are raw little-endian data of the argument's dtype and shape, or .npy\n"
    "  (bf16 as '<u2' bit patterns; '<f4' input is rounded to bf16)\n";

struct Options {
  std::string file;
  std::vector<std::pair<std::string, std::string>> inputs, outputs;
  std::optional<uint64_t> seed;
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
  return rngd::Status::success();
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
      rngd::fillSeeded(args[i], *o.seed, i, bytes);
      if (!(st = k->upload(args[i].name, bytes.data(), bytes.size())))
        return st;
    }
  }
  rngd::Device device;
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
