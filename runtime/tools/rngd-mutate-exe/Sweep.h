// The structured-mutation sweep: every field of a valid executable set to interesting values,
// the checksum recomputed, so the loader's and the simulator's own checks are what must stop
// each case. Every case runs in a forked child under a time and an address-space bound.
#pragma once

#include "Fields.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace rngd::mutate {

struct SweepOptions {
  double secondsPerCase = 10;                  // a case still running then is killed: FAIL
  uint64_t memoryLimitBytes = uint64_t(4) << 30; // RLIMIT_AS of each case's child
  std::string fieldPrefix;                     // only fields whose name starts with it
  bool byKind = false;                         // summary rows per field kind, not per group
  bool verbose = false;                        // one line per case
};

/// The values a field is set to: 0, 1, 2, all-ones, the signed extremes, 2^31, 2^32, 2^40 and
/// 2^63 where they fit, 65,536 and 65,537 (the loop-limit bound) where they fit, the original
/// value +-1; without the original value, ascending. A reserved field (zero in every valid
/// file) gets its lowest bit, its highest bit and all its bits.
std::vector<uint64_t> interestingValues(const Field &f, uint64_t original);

/// Runs the sweep over `file` (read from `path`) and prints the summary table and every
/// failing case to `out`. Returns the number of failing cases.
size_t runSweep(const std::string &path, const std::vector<uint8_t> &file,
                const std::vector<Field> &fields, const SweepOptions &options, std::ostream &out);

} // namespace rngd::mutate
