// A JSON value as it goes into an error message. nlohmann's dump() recurses once per nesting
// level, so dumping a value a user wrote — `"hidden_size": [[[[...]]]]` 100,000 deep — overflows
// the stack; parsing and destroying such a value do not recurse. Messages show scalars as JSON
// and arrays and objects by kind and size only.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace rngd::qwen3 {

/// `1024`, `"gelu"` (strings cut to `maxChars` with "..."), `an array of 3 elements`,
/// `an object of 2 members`.
std::string jsonSnippet(const nlohmann::json &value, size_t maxChars = 80);

} // namespace rngd::qwen3
