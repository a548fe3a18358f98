// rngd-mutate-exe IN.rngd --list
// rngd-mutate-exe IN.rngd --set FIELD=VALUE [--set ...] -o OUT.rngd
// rngd-mutate-exe IN.rngd --sweep [--seconds-per-case S] [--memory-limit-mb N]
//                 [--fields PREFIX] [--by-kind] [--verbose]
// Structured mutations of valid executables (docs/reliability.md, "Structured mutations"):
// lists where every field lives, rewrites fields at byte level and recomputes the checksum, or
// sweeps every field over interesting values and checks that the loader and the simulator stop
// each case with a message (or run it) in bounded time and memory.
#include "Fields.h"
#include "Sweep.h"

#include "rngd/Executable.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using rngd::mutate::Field;

const char *kUsage =
    "usage: rngd-mutate-exe IN.rngd --list\n"
    "       rngd-mutate-exe IN.rngd --set FIELD=VALUE [--set FIELD=VALUE]... -o OUT.rngd\n"
    "       rngd-mutate-exe IN.rngd --sweep [--seconds-per-case S] [--memory-limit-mb N]\n"
    "                       [--fields PREFIX] [--by-kind] [--verbose]\n"
    "  --list    every field: name, byte offset (.bit for bit ranges), width (bytes, or\n"
    "            bits with 'b'), value\n"
    "  --set     writes the value (decimal, -decimal or 0x hex) into the field and recomputes\n"
    "            the checksum (unless header.checksum itself is set)\n"
    "  --sweep   sets every field to interesting values, one case at a time in a child\n"
    "            process (default 10 s and 4096 MiB each), loads and runs each; exits 1 when a\n"
    "            case crashes, hangs, runs out of memory, fails without a message, or is\n"
    "            refused by the loader with a message naming neither the field nor the value\n";

struct Options {
  std::string input, output;
  bool list = false, sweep = false;
  std::vector<std::string> sets;
  rngd::mutate::SweepOptions sweepOptions;
};

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "rngd-mutate-exe: error: %s\n", message.c_str());
  std::exit(1);
}

/// A positive number for `flag` (`integer`: whole numbers only).
double positive(const std::string &flag, const std::string &text, bool integer, double max) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  bool whole = v == static_cast<double>(static_cast<uint64_t>(v));
  if (text.empty() || *end != 0 || errno == ERANGE || !(v > 0) || v > max ||
      (integer && !whole))
    die(flag + " takes a positive " + (integer ? "integer" : "number") + " up to " +
        std::to_string(static_cast<uint64_t>(max)) + ", got '" + text + "'");
  return v;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  auto value = [&](int &i, const std::string &flag) -> std::string {
    if (i + 1 >= argc)
      die(flag + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--sweep") {
      o.sweep = true;
    } else if (a == "--set") {
      o.sets.push_back(value(i, a));
    } else if (a == "-o") {
      o.output = value(i, a);
    } else if (a == "--seconds-per-case") {
      o.sweepOptions.secondsPerCase = positive(a, value(i, a), false, 3600);
    } else if (a == "--memory-limit-mb") {
      o.sweepOptions.memoryLimitBytes =
          static_cast<uint64_t>(positive(a, value(i, a), true, 1 << 20)) << 20;
    } else if (a == "--fields") {
      o.sweepOptions.fieldPrefix = value(i, a);
    } else if (a == "--by-kind") {
      o.sweepOptions.byKind = true;
    } else if (a == "--verbose") {
      o.sweepOptions.verbose = true;
    } else if (!a.empty() && a[0] == '-') {
      die("unknown option '" + a + "'\n" + kUsage);
    } else if (o.input.empty()) {
      o.input = a;
    } else {
      die("more than one input file ('" + o.input + "' and '" + a + "')");
    }
  }
  if (o.input.empty())
    die(std::string("no input file\n") + kUsage);
  int modes = int(o.list) + int(o.sweep) + int(!o.sets.empty());
  if (modes != 1)
    die(std::string("give exactly one of --list, --set or --sweep\n") + kUsage);
  if (!o.sets.empty() && o.output.empty())
    die("--set needs -o OUT.rngd");
  if (o.sets.empty() && !o.output.empty())
    die("-o goes with --set");
  return o;
}

std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    die("cannot open '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad())
    die("cannot read '" + path + "'");
  return bytes;
}

/// The field named `name`, or an error that says what the record has.
const Field &findField(const std::vector<Field> &fields, const std::string &name,
                       const std::string &path) {
  for (const Field &f : fields)
    if (f.name == name)
      return f;
  std::string record = name.substr(0, name.find('.'));
  std::string siblings;
  for (const Field &f : fields)
    if (f.name.compare(0, record.size() + 1, record + ".") == 0 || f.name == record)
      siblings += (siblings.empty() ? "" : ", ") + f.name;
  if (siblings.empty())
    die("'" + path + "' has no field '" + name + "' and no record '" + record +
        "' (--list prints every field)");
  die("'" + path + "' has no field '" + name + "'; record '" + record + "' has " + siblings);
}

void list(const std::vector<uint8_t> &file, const std::vector<Field> &fields) {
  for (const Field &f : fields)
    std::cout << f.name << " " << rngd::mutate::formatOffset(f) << " "
              << rngd::mutate::formatWidth(f) << " "
              << rngd::mutate::formatValue(f, rngd::mutate::readRaw(file, f)) << "\n";
}

void set(const Options &o, std::vector<uint8_t> file, const std::vector<Field> &fields) {
  bool checksumSet = false;
  for (const std::string &s : o.sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      die("--set expects FIELD=VALUE, got '" + s + "'");
    const Field &f = findField(fields, s.substr(0, eq), o.input);
    uint64_t raw = 0;
    std::string why;
    if (!rngd::mutate::parseValue(f, s.substr(eq + 1), raw, why))
      die(why);
    rngd::mutate::writeRaw(file, f, raw);
    checksumSet |= f.isChecksum;
  }
  if (!checksumSet)
    rngd::mutate::recomputeChecksum(file);
  std::ofstream out(o.output, std::ios::binary);
  out.write(reinterpret_cast<const char *>(file.data()), static_cast<std::streamsize>(file.size()));
  out.close();
  if (!out)
    die("cannot write '" + o.output + "'");
}

} // namespace

int main(int argc, char **argv) {
  Options o = parseArgs(argc, argv);
  std::vector<uint8_t> file = readFile(o.input);
  std::vector<Field> fields;
  std::string why;
  if (!rngd::mutate::mapFields(file, fields, why))
    die("'" + o.input + "' is not an executable the loader accepts (the fields are found "
        "through its records): " + why);
  if (o.list) {
    list(file, fields);
    return 0;
  }
  if (o.sweep)
    return rngd::mutate::runSweep(o.input, file, fields, o.sweepOptions, std::cout) ? 1 : 0;
  set(o, std::move(file), fields);
  return 0;
}
