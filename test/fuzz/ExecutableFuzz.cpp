// Fuzz target: the executable loader, then a short simulation under a work cap. The input is a
// .rngd file; its checksum field is recomputed first (as the structured mutations of
// rngd-mutate-exe do), so mutations reach the reader's section, record and command checks
// instead of all stopping at the checksum. Properties:
//  - a rejected file has a message;
//  - an accepted file writes back to bytes that load again and write back the same (the writer
//    and the reader agree on everything the reader accepts), and prints;
//  - an accepted file whose HBM space is small enough for a fuzzing process (kMaxHbmBytes)
//    launches on a device of its target under small work caps: any outcome but a crash, a
//    sanitizer report or an error without a message is fine.
#include "FuzzCheck.h"

#include "rngd/Executable.h"
#include "rngd/Runtime.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr size_t kChecksumAt = 24; // docs/executable-format.md, header field `checksum`
constexpr uint64_t kMaxHbmBytes = uint64_t(16) << 20;

void fixChecksum(std::vector<uint8_t> &bytes) {
  if (bytes.size() < kChecksumAt + 8)
    return;
  std::memset(bytes.data() + kChecksumAt, 0, 8);
  uint64_t sum = rngd::fnv1a64(bytes.data(), bytes.size());
  for (int i = 0; i < 8; ++i)
    bytes[kChecksumAt + i] = static_cast<uint8_t>(sum >> (8 * i));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  fixChecksum(bytes);
  rngd::Executable exe;
  rngd::Status st = rngd::loadExecutableBytes(bytes, exe);
  if (!st) {
    RNGD_FUZZ_CHECK(!st.message().empty(), "rejected without a message");
    return 0;
  }
  std::vector<uint8_t> written, rewritten;
  std::string why;
  RNGD_FUZZ_CHECK(rngd::writeExecutable(exe, written, why), "accepted but not writable: %s",
                  why.c_str());
  rngd::Executable again;
  RNGD_FUZZ_CHECK(rngd::readExecutable(written, again, why),
                  "accepted, written back, then refused: %s", why.c_str());
  RNGD_FUZZ_CHECK(rngd::writeExecutable(again, rewritten, why) && rewritten == written,
                  "written form does not round-trip");
  RNGD_FUZZ_CHECK(!rngd::printExecutable(exe).empty(), "accepted but prints nothing");

  // The loader callocs the HBM space (lazily zeroed pages); a fuzzing process keeps it small.
  if (exe.hbmBytes > kMaxHbmBytes)
    return 0;
  std::unique_ptr<rngd::Kernel> kernel;
  st = rngd::Kernel::fromExecutable(std::move(exe), kernel);
  if (!st) {
    RNGD_FUZZ_CHECK(!st.message().empty(), "kernel refused without a message");
    return 0;
  }
  rngd::Device device(kernel->target());
  rngd::LaunchOptions options;
  options.sim.maxCycles = int64_t(1) << 24;
  options.sim.maxWorkPerCommand = int64_t(1) << 16;
  options.sim.maxStreamBytesPerSlice = int64_t(1) << 20;
  options.sim.recordTrace = false;
  rngd::LaunchResult result;
  st = device.launch(*kernel, result, options);
  if (!st)
    RNGD_FUZZ_CHECK(!st.message().empty(), "launch failed without a message");
  else
    RNGD_FUZZ_CHECK(result.makespan >= 0 && result.makespan <= options.sim.maxCycles,
                    "makespan %lld outside [0, %lld]", static_cast<long long>(result.makespan),
                    static_cast<long long>(options.sim.maxCycles));
  return 0;
}
