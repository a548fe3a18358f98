#include "qwen3/host/HfCheckpoint.h"

#include "qwen3/host/JsonSnippet.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace rngd::qwen3 {

namespace {

constexpr const char *kSingle = "model.safetensors";
constexpr const char *kIndex = "model.safetensors.index.json";

bool exists(const std::string &path) { return std::ifstream(path).good(); }

/// A file name the index may give: a plain name in the checkpoint's directory.
bool plainName(const std::string &name) {
  return !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..";
}

} // namespace

bool HfCheckpoint::open(const std::string &dir, std::string &error) {
  files_.clear();
  byTensor_.clear();
  if (exists(dir + "/" + kSingle) || !exists(dir + "/" + kIndex)) {
    auto file = std::make_unique<SafetensorsFile>();
    if (!file->open(dir + "/" + kSingle, error))
      return false;
    for (const auto &entry : file->entries())
      byTensor_[entry.first] = file.get();
    files_.push_back(std::move(file));
    return true;
  }
  const std::string indexPath = dir + "/" + kIndex;
  std::ifstream in(indexPath);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json index = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (index.is_discarded() || !index.is_object() || !index.contains("weight_map") ||
      !index["weight_map"].is_object()) {
    error = indexPath + ": not a JSON object with a \"weight_map\" object";
    return false;
  }
  std::map<std::string, SafetensorsFile *> opened;
  for (const auto &[tensor, value] : index["weight_map"].items()) {
    if (!value.is_string() || !plainName(value.get<std::string>())) {
      error = indexPath + ": weight_map[\"" + tensor + "\"] is " + jsonSnippet(value) +
              ", not the name of a file in the checkpoint's directory";
      return false;
    }
    const std::string name = value.get<std::string>();
    SafetensorsFile *&file = opened[name];
    if (!file) {
      files_.push_back(std::make_unique<SafetensorsFile>());
      file = files_.back().get();
      if (!file->open(dir + "/" + name, error))
        return false;
    }
    if (!file->find(tensor)) {
      error = indexPath + ": weight_map places '" + tensor + "' in " + name +
              ", which does not hold it";
      return false;
    }
    byTensor_[tensor] = file;
  }
  return true;
}

const SafetensorsFile *HfCheckpoint::file(const std::string &name) const {
  auto it = byTensor_.find(name);
  return it == byTensor_.end() ? nullptr : it->second;
}

const SafetensorsFile::Entry *HfCheckpoint::find(const std::string &name) const {
  const SafetensorsFile *f = file(name);
  return f ? f->find(name) : nullptr;
}

} // namespace rngd::qwen3
