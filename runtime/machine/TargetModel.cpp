#include "rngd/machine/TargetModel.h"

#include <sstream>

namespace rngd {

std::string TargetModel::describe() const {
  std::ostringstream os;
  os.precision(17); // a double's every bit
  forEachField(*this,
               [&](const char *key, const auto &value) { os << key << " = " << value << "\n"; });
  return os.str();
}

uint64_t TargetModel::hash() const {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : describe()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

const TargetModel &defaultTarget() {
  static const TargetModel model;
  return model;
}

namespace {
TargetModel oneCluster() {
  TargetModel t;
  t.name = "rngd-1cluster";
  t.clusters = 1;
  t.dmaEngines = 4;
  t.coreClockGHz = 0.8;
  return t;
}
} // namespace

const TargetModel *findTarget(const std::string &name) {
  static const TargetModel second = oneCluster();
  for (const TargetModel *t : {&defaultTarget(), &second})
    if (t->name == name)
      return t;
  return nullptr;
}

std::string targetNames() { return defaultTarget().name + ", rngd-1cluster"; }

} // namespace rngd
