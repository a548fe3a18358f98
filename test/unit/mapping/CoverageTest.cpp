// checkCoverage: every tensor axis tiled exactly once; broadcast only where allowed.
#include "Helpers.h"

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

const std::vector<bool> kDmBroadcast = {true, true, false}; // cluster, slice, element

std::vector<Level> dm(const AxisEnv &e, const std::string &cluster, const std::string &slice,
                      const std::string &elem) {
  return {level(cluster, e, 256 * 4 * kMiB), level(slice, e, 4 * kMiB), level(elem, e, 2)};
}

Error coverageError(const std::vector<Level> &levels, const std::vector<std::string> &axes,
                    const AxisEnv &e) {
  Error err;
  CHECK_FALSE(checkCoverage(levels, kDmBroadcast, axes, e, err));
  return err;
}

} // namespace

TEST_CASE("coverage: legal placements", "[mapping][coverage]") {
  AxisEnv e = env({{"H", 1024}, {"W", 151936}, {"D", 64}, {"Q", 2048}, {"One", 1}});
  Error err;
  CHECK(checkCoverage(dm(e, "1 # 2", "H / 4 # 256", "H % 4"), kDmBroadcast, {"H"}, e, err));
  CHECK(checkCoverage(dm(e, "H / 512", "H / 4 % 128 # 256", "H % 4"), kDmBroadcast, {"H"}, e, err));
  // Replication over slices with a broadcast axis.
  CHECK(checkCoverage(dm(e, "1 # 2", "D, 1 # 4", "H"), kDmBroadcast, {"H"}, e, err));
  // Padded axis: W padded to 19 blocks of 8192.
  CHECK(checkCoverage(dm(e, "1 # 2", "W # 155648 / 8192 # 256", "W # 155648 % 8192"), kDmBroadcast,
                      {"W"}, e, err));
  // Ceil blocks are a legal tiling too.
  CHECK(checkCoverage(dm(e, "1 # 2", "W / 8192 # 256", "W # 155648 % 8192"), kDmBroadcast, {"W"}, e,
                      err));
  // Two axes split over levels; a size-1 axis need not be mapped.
  CHECK(checkCoverage(dm(e, "Q / 1024", "[Q / 4 % 256]", "[H, Q % 4]"), kDmBroadcast,
                      {"Q", "H", "One"}, e, err));
}

TEST_CASE("coverage: errors name the axis and term", "[mapping][coverage][errors]") {
  AxisEnv e = env({{"H", 1024}, {"W", 8}, {"D", 64}});
  SECTION("missing axis") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4", "H % 4"), {"H", "W"}, e);
    CHECK(err.term == "W");
    CHECK(err.message == "axis W = 8 is not mapped by any level");
  }
  SECTION("covered twice") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4", "[H % 4, W, H % 2]"), {"H", "W"}, e);
    CHECK(err.term == "`H % 2`");
    CHECK(err.message.find("H is covered twice") != std::string::npos);
    CHECK(err.message.find("`H % 4` (level 2)") != std::string::npos);
    Error top = coverageError(dm(e, "1 # 2", "H", "H % 4"), {"H"}, e);
    CHECK(top.term == "`H % 4`");
    CHECK(top.message.find("H is covered twice (also by `H` (level 1))") != std::string::npos);
  }
  SECTION("gap") {
    Error err = coverageError(dm(e, "1 # 2", "H / 8", "H % 4"), {"H"}, e);
    CHECK(err.term == "`H / 8`");
    CHECK(err.message == "gap in H = 1024: nothing holds `H / 4 % 2`");
  }
  SECTION("gap at the bottom") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4", "1"), {"H"}, e);
    CHECK(err.message == "gap in H = 1024: nothing holds `H % 4`");
  }
  SECTION("top digit missing") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4 % 128", "H % 4"), {"H"}, e);
    CHECK(err.term == "`H / 4 % 128`");
    CHECK(err.message == "H = 1024 is covered only below 512: nothing holds `H / 512`");
  }
  SECTION("broadcast axis in the element level") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4", "[D, H % 4]"), {"H"}, e);
    CHECK(err.term == "`D`");
    CHECK(err.message ==
          "axis D is not an axis of the tensor, and level 2 cannot broadcast (replicate)");
  }
  SECTION("a view leaves values uncovered") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4 = 128", "H % 4"), {"H"}, e);
    CHECK(err.term == "`H / 4 = 128`");
    CHECK(err.message.find("holds only 128 of the 256 values") != std::string::npos);
  }
  SECTION("unknown tensor axis") {
    Error err = coverageError(dm(e, "1 # 2", "H / 4", "H % 4"), {"H", "Nope"}, e);
    CHECK(err.message == "unknown axis Nope");
  }
}
