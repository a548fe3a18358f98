// checkTargetEncoding: the rules take every machine limit from the executable's target; this
// makes sure each one fits the field or array the encoding holds it in, so that no rule accepts
// a value the record cannot carry (docs/isa.md, "The encoding and the target").
#include "rngd/Isa.h"

#include <algorithm>
#include <cstring>

namespace rngd::isa {
namespace {

int64_t maxOfBits(unsigned bits) { return bits >= 63 ? INT64_MAX : (int64_t(1) << bits) - 1; }

/// The largest value every unit's field `name` holds (rngd/IsaUnits.def's widths).
int64_t unitFieldMax(const char *name) {
  int64_t most = INT64_MAX;
  for (const UnitSpec &u : unitSpecs())
    for (const FieldSpec &f : u.fields)
      if (!std::strcmp(f.name, name))
        most = std::min(most, maxOfBits(f.bits));
  return most;
}

/// The largest value the descriptor's field `name` holds (rngd/IsaDescriptor.def's widths).
int64_t descriptorFieldMax(const char *name) {
  for (const DescriptorField &f : kDescriptorFields)
    if (!std::strcmp(f.name, name))
      return maxOfBits(8u * f.bytes - (f.isSigned ? 1 : 0));
  return 0;
}

} // namespace

std::string checkTargetEncoding(const TargetModel &t) {
  struct Bound {
    const char *limit;
    int64_t value, capacity;
    const char *holder;
  };
  const Bound bounds[] = {
      {"clusters x slicesPerCluster", t.totalSlices(), int64_t(kSliceBitmapWords) * 64,
       "bits of a slice-enable bitmap"},
      {"maxSequencerEntries", t.maxSequencerEntries, kSequencerLoops,
       "loop entries of a configuration block"},
      {"maxSequencerEntrySize", t.maxSequencerEntrySize, unitFieldMax("limits"),
       "a configuration block's `limits` holds"},
      {"maxFetchAccessBytes", t.maxFetchAccessBytes,
       int64_t(1) << unitFieldMax("access_log2"), "bytes `access_log2` can name"},
      {"flitBytes", t.flitBytes, unitFieldMax("write_bytes"), "`write_bytes` holds"},
      {"vectorReduceSlots", t.vectorReduceSlots, unitFieldMax("reduce_slots"),
       "`reduce_slots` holds"},
      {"dmaMaxLoops", t.dmaMaxLoops, kDescriptorLoops, "loop entries of a descriptor"},
      {"dmaMaxLoopIterations", t.dmaMaxLoopIterations, descriptorFieldMax("limits"),
       "a descriptor's `limits` holds"},
      {"dmaEngines", t.dmaEngines, descriptorFieldMax("engine") + 1,
       "engines a descriptor's `engine` can name"},
  };
  for (const Bound &b : bounds)
    if (b.value > b.capacity)
      return "target " + t.name + " has " + b.limit + " = " + std::to_string(b.value) +
             ", more than the " + std::to_string(b.capacity) + " " + b.holder;
  return "";
}

} // namespace rngd::isa
