#include "qwen3/host/HbmLayout.h"

#include "dialects/tcp/Mapping/Mapping.h"

#include <stdexcept>

namespace rngd::qwen3 {

HbmLayout HbmLayout::of(const ArgInfo &arg,
                        const std::vector<std::pair<std::string, int64_t>> &axes) {
  mapping::AxisEnv env;
  for (const auto &[name, size] : axes)
    env.add(name, size);
  mapping::Error err;
  std::optional<mapping::Mapping> m = mapping::Mapping::parse(arg.mapping, env, err);
  if (!m)
    throw std::runtime_error("argument " + arg.name + "'s mapping \"" + arg.mapping +
                             "\": " + err.str());
  HbmLayout layout;
  layout.cells_ = size_t(m->size());
  // Each axis's contribution at every value, the other axes at 0.
  std::vector<std::pair<std::string, int64_t>> index;
  for (const auto &[name, size] : axes)
    index.push_back({name, 0});
  for (size_t a = 0; a < axes.size(); ++a) {
    std::vector<size_t> column(size_t(axes[a].second));
    for (int64_t v = 0; v < axes[a].second; ++v) {
      index[a].second = v;
      std::optional<int64_t> at = m->position(index);
      if (!at)
        throw std::runtime_error("argument " + arg.name + "'s mapping \"" + arg.mapping +
                                 "\" holds no cell for " + axes[a].first + " = " +
                                 std::to_string(v));
      column[size_t(v)] = size_t(*at);
    }
    index[a].second = 0;
    layout.contribution_.push_back(std::move(column));
  }
  return layout;
}

size_t HbmLayout::at(std::initializer_list<int64_t> index) const {
  size_t offset = 0, a = 0;
  for (int64_t v : index)
    offset += contribution_[a++][size_t(v)];
  return offset;
}

} // namespace rngd::qwen3
