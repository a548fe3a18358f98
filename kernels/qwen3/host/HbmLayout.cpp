#include "qwen3/host/HbmLayout.h"

#include "dialects/tcp/Mapping/Mapping.h"

#include <cctype>
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

std::vector<std::pair<std::string, int64_t>> HbmLayout::wholeAxes(const ArgInfo &arg) {
  std::string text = arg.mapping;
  if (text.size() > 1 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  std::vector<std::pair<std::string, int64_t>> axes;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                     : comma - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name)
      identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!identifier || axes.size() >= arg.shape.size())
      throw std::runtime_error("argument " + arg.name + "'s mapping \"" + arg.mapping +
                               "\" is not whole axes in row-major order");
    axes.push_back({name, arg.shape[axes.size()]});
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (axes.size() != arg.shape.size())
    throw std::runtime_error("argument " + arg.name + "'s mapping \"" + arg.mapping +
                             "\" does not match its shape");
  return axes;
}

size_t HbmLayout::at(std::initializer_list<int64_t> index) const {
  size_t offset = 0, a = 0;
  for (int64_t v : index)
    offset += contribution_[a++][size_t(v)];
  return offset;
}

} // namespace rngd::qwen3
