// Shared helpers for the mapping unit tests.
#pragma once

#include "dialects/tcp/Mapping/Mapping.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace rngd::mapping::test {

inline AxisEnv env(std::initializer_list<std::pair<const char *, int64_t>> axes) {
  AxisEnv e;
  for (const auto &a : axes)
    e.add(a.first, a.second);
  return e;
}

/// Parses or fails the test with the error text.
inline Mapping parse(const std::string &text, const AxisEnv &e) {
  Error err;
  std::optional<Mapping> m = Mapping::parse(text, e, err);
  INFO("parsing `" << text << "`: " << err.str());
  REQUIRE(m.has_value());
  return *m;
}

/// Parses expecting an error; returns it.
inline Error parseError(const std::string &text, const AxisEnv &e) {
  Error err;
  std::optional<Mapping> m = Mapping::parse(text, e, err);
  INFO("parsing `" << text << "` unexpectedly gave " << (m ? m->str() : ""));
  REQUIRE_FALSE(m.has_value());
  return err;
}

inline Level level(const std::string &text, const AxisEnv &e, int64_t cellStride) {
  return Level{parse(text, e), cellStride};
}

constexpr int64_t kMiB = int64_t(1) << 20;

} // namespace rngd::mapping::test
