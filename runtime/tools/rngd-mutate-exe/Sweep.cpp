#include "Sweep.h"

#include "rngd/Executable.h"
#include "rngd/Runtime.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <iomanip>
#include <map>
#include <new>
#include <ostream>
#include <sstream>

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rngd::mutate {
namespace {

/// What a case's child reports through its pipe: one outcome byte, then the message.
enum class Outcome : char {
  Loader = 'L',    // Kernel::fromBytes refused the file
  Simulator = 'S', // Device::launch refused the run
  Ran = 'R',       // the run finished
  Escaped = 'X',   // an exception left the runtime API (a defect: the API returns a Status)
};

constexpr size_t kMaxMessageBytes = 4096;
// The simulator's message when an allocation failed: the case needed more host memory than its
// bound, which a check before the allocation should have refused.
constexpr const char *kOutOfMemoryMarker = "out of host memory";

struct CaseResult {
  bool finished = false; // the child reported an outcome and exited normally
  Outcome outcome = Outcome::Ran;
  std::string message;
  std::string failure; // empty: the case passed
  double seconds = 0;
};

void writeAll(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

/// Loads `bytes` (Kernel::fromBytes) and launches them on a fresh device with the default
/// SimOptions (no trace). `keep`: leave the kernel and the device allocated, for a process
/// about to _exit (tearing its address space down at once is far cheaper than freeing them).
Outcome loadAndLaunch(const std::vector<uint8_t> &bytes, bool keep, std::string &message) {
  try {
    std::unique_ptr<Kernel> kernel;
    Status st = Kernel::fromBytes(bytes, kernel);
    if (!st) {
      message = st.message();
      return Outcome::Loader;
    }
    auto device = std::make_unique<Device>(kernel->target());
    LaunchOptions options;
    options.sim.recordTrace = false;
    LaunchResult result;
    st = device->launch(*kernel, result, options);
    if (keep) {
      kernel.release();
      device.release();
    }
    message = st.message();
    return st ? Outcome::Ran : Outcome::Simulator;
  } catch (const std::exception &e) {
    message = std::string("exception escaped the runtime API: ") + e.what();
    return Outcome::Escaped;
  }
}

/// The child's work: load the mutated bytes and launch them, report, exit.
[[noreturn]] void runChild(const std::vector<uint8_t> &bytes, uint64_t memoryLimit, int fd) {
  rlimit as{memoryLimit, memoryLimit};
  setrlimit(RLIMIT_AS, &as);
  rlimit core{0, 0}; // a crash is reported by the parent, not dumped
  setrlimit(RLIMIT_CORE, &core);
  std::string message;
  Outcome outcome = loadAndLaunch(bytes, /*keep=*/true, message);
  if (message.size() > kMaxMessageBytes)
    message.resize(kMaxMessageBytes);
  writeAll(fd, std::string(1, static_cast<char>(outcome)) + message);
  ::_exit(0);
}

/// Reads the child's report until it closes the pipe or the deadline passes.
bool readReport(int fd, std::chrono::steady_clock::time_point deadline, std::string &report) {
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return false;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      continue; // re-check the deadline
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return true; // EOF: the child is done (or died)
    if (report.size() < kMaxMessageBytes + 1)
      report.append(buf, static_cast<size_t>(n));
  }
}

/// Runs one mutated file in a child; fills everything but the judgement.
CaseResult runCase(const std::vector<uint8_t> &bytes, const SweepOptions &o) {
  CaseResult r;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    r.failure = std::string("cannot fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    runChild(bytes, o.memoryLimitBytes, fds[1]);
  }
  ::close(fds[1]);
  auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(o.secondsPerCase));
  std::string report;
  bool inTime = readReport(fds[0], deadline, report);
  ::close(fds[0]);
  if (!inTime)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream bound;
  bound << o.secondsPerCase;
  if (!inTime) {
    r.failure = "still running after " + bound.str() + " s (killed)";
    return r;
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    r.failure = "crashed: signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    return r;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || report.empty()) {
    r.failure = "the case's process exited with status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                " without reporting an outcome";
    return r;
  }
  r.finished = true;
  r.outcome = static_cast<Outcome>(report[0]);
  r.message = report.substr(1);
  return r;
}

bool contains(const std::string &text, const std::string &part) {
  return !part.empty() && text.find(part) != std::string::npos;
}

/// Whether `message` names the field (one of its keywords) or the value it was set to.
bool namesFieldOrValue(const std::string &message, const Field &f, uint64_t raw) {
  for (const std::string &k : f.keywords)
    if (contains(message, k))
      return true;
  return contains(message, formatValue(f, raw)) || contains(message, std::to_string(raw)) ||
         contains(message, formatHex(raw));
}

/// The verdict on a finished case: empty when it passed.
std::string judge(const CaseResult &r, const Field &f, uint64_t raw) {
  if (!r.failure.empty())
    return r.failure;
  switch (r.outcome) {
  case Outcome::Escaped:
    return r.message;
  case Outcome::Ran:
    return "";
  case Outcome::Loader:
  case Outcome::Simulator:
    break;
  }
  if (r.message.empty())
    return "refused without a message";
  if (contains(r.message, kOutOfMemoryMarker))
    return "exceeded the memory bound (an allocation failed): " + r.message;
  if (r.outcome == Outcome::Loader && !namesFieldOrValue(r.message, f, raw))
    return "the loader's message names neither the field nor the value: " + r.message;
  return "";
}

struct Row {
  size_t fields = 0, cases = 0, loader = 0, simulator = 0, ran = 0, failed = 0;
  void add(const Row &o) {
    fields += o.fields, cases += o.cases, loader += o.loader, simulator += o.simulator,
        ran += o.ran, failed += o.failed;
  }
};

void printTable(std::ostream &out, const std::vector<std::string> &order,
                const std::map<std::string, Row> &rows) {
  size_t w = std::string("total").size();
  for (const std::string &k : order)
    w = std::max(w, k.size());
  auto line = [&](const std::string &name, const Row &r) {
    out << std::left << std::setw(static_cast<int>(w)) << name << std::right << std::setw(8)
        << r.fields << std::setw(8) << r.cases << std::setw(8) << r.loader << std::setw(11)
        << r.simulator << std::setw(7) << r.ran << std::setw(8) << r.failed << "\n";
  };
  out << std::left << std::setw(static_cast<int>(w)) << "class" << std::right << std::setw(8)
      << "fields" << std::setw(8) << "cases" << std::setw(8) << "loader" << std::setw(11)
      << "simulator" << std::setw(7) << "ran" << std::setw(8) << "failed" << "\n";
  Row total;
  for (const std::string &k : order) {
    line(k, rows.at(k));
    total.add(rows.at(k));
  }
  line("total", total);
}

} // namespace

namespace {
/// The values ascending, each once, without `original`.
std::vector<uint64_t> ascendingWithout(std::vector<uint64_t> v, uint64_t original) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  v.erase(std::remove(v.begin(), v.end(), original), v.end());
  return v;
}
} // namespace

std::vector<uint64_t> interestingValues(const Field &f, uint64_t original) {
  uint64_t mask = widthMask(f);
  uint64_t top = uint64_t(1) << (f.bits - 1); // the signed minimum
  if (f.reserved) // must be zero: its lowest bit, its highest bit, all its bits
    return ascendingWithout({1, top, mask}, original);
  std::vector<uint64_t> v = {0, 1, 2, mask, top, mask >> 1, // mask >> 1: the signed maximum
                             (original - 1) & mask, (original + 1) & mask};
  for (unsigned p : {16u, 31u, 32u, 40u, 63u})
    if (p < f.bits)
      v.push_back(uint64_t(1) << p); // 2^16 = 65,536 is the loop-limit bound
  if (f.bits > 16)
    v.push_back((uint64_t(1) << 16) + 1);
  return ascendingWithout(v, original);
}

size_t runSweep(const std::string &path, const std::vector<uint8_t> &file,
                const std::vector<Field> &fields, const SweepOptions &o, std::ostream &out) {
  // The unmutated file must run: a sweep measures what the mutations change. Running it here
  // also binds the runtime's symbols once, before the children would each do it.
  std::string baseline;
  if (loadAndLaunch(file, /*keep=*/false, baseline) != Outcome::Ran) {
    out << "sweep of " << path << ": the unmutated executable does not run: " << baseline
        << "\n";
    return 1;
  }
  std::vector<std::string> order;
  std::map<std::string, Row> rows;
  std::vector<std::string> failures;
  size_t cases = 0, swept = 0;
  double slowest = 0;
  std::string slowestCase;
  auto start = std::chrono::steady_clock::now();
  for (const Field &f : fields) {
    if (f.isChecksum || f.name.compare(0, o.fieldPrefix.size(), o.fieldPrefix) != 0)
      continue; // the checksum is recomputed after every change
    const std::string &rowName = o.byKind ? f.kind : f.group;
    if (!rows.count(rowName))
      order.push_back(rowName);
    Row &row = rows[rowName];
    ++row.fields;
    ++swept;
    uint64_t original = readRaw(file, f);
    for (uint64_t raw : interestingValues(f, original)) {
      std::vector<uint8_t> bytes = file;
      writeRaw(bytes, f, raw);
      recomputeChecksum(bytes);
      CaseResult r = runCase(bytes, o);
      std::string verdict = judge(r, f, raw);
      std::string label = f.name + "=" + formatValue(f, raw);
      ++cases;
      ++row.cases;
      if (r.seconds > slowest) {
        slowest = r.seconds;
        slowestCase = label;
      }
      if (!verdict.empty()) {
        ++row.failed;
        failures.push_back(label + ": " + verdict);
      } else if (r.outcome == Outcome::Loader) {
        ++row.loader;
      } else if (r.outcome == Outcome::Simulator) {
        ++row.simulator;
      } else {
        ++row.ran;
      }
      if (o.verbose)
        out << label << ": "
            << (!verdict.empty()                   ? "FAIL " + verdict
                : r.outcome == Outcome::Loader    ? "loader: " + r.message
                : r.outcome == Outcome::Simulator ? "simulator: " + r.message
                                                  : std::string("ran"))
            << "\n";
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "sweep of " << path << ": " << swept << " fields, " << cases << " cases (each in a "
      << "child: " << o.secondsPerCase << " s, " << (o.memoryLimitBytes >> 20)
      << " MiB address space)\n";
  printTable(out, order, rows);
  for (const std::string &f : failures)
    out << "FAIL " << f << "\n";
  out << (failures.empty() ? "PASS" : "FAILED") << ": " << failures.size() << " of " << cases
      << " cases failed\n";
  out.flush();
  std::ostringstream t;
  t << std::fixed << std::setprecision(2) << seconds << " s in total, slowest case "
    << slowestCase << " " << slowest << " s";
  std::fprintf(stderr, "rngd-mutate-exe: %s\n", t.str().c_str());
  return failures.size();
}

} // namespace rngd::mutate
