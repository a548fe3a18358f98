#include "qwen3/host/JsonSnippet.h"

namespace rngd::qwen3 {

std::string jsonSnippet(const nlohmann::json &v, size_t maxChars) {
  auto count = [](size_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  if (v.is_array())
    return "an array of " + count(v.size(), "element", "elements");
  if (v.is_object())
    return "an object of " + count(v.size(), "member", "members");
  if (v.is_string() && v.get_ref<const std::string &>().size() > maxChars)
    return nlohmann::json(v.get_ref<const std::string &>().substr(0, maxChars))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "...";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rngd::qwen3
