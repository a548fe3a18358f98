// The tensor files of a Hugging Face checkpoint directory: model.safetensors, or the files a
// sharded checkpoint lists in model.safetensors.index.json ({"weight_map": {tensor: file}}), as
// save_pretrained writes them past its shard size. Every file's header is checked when opened;
// tensor data is read on demand from the file that holds it.
#pragma once

#include "qwen3/host/Safetensors.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

class HfCheckpoint {
public:
  /// dir/model.safetensors when present, else dir/model.safetensors.index.json and the files
  /// its weight_map names (plain names in dir). False with the file named: a missing or
  /// malformed index, a file that does not open, a tensor the index places in a file that does
  /// not hold it.
  bool open(const std::string &dir, std::string &error);
  /// The file that holds tensor `name`, or nullptr.
  const SafetensorsFile *file(const std::string &name) const;
  /// The tensor's header entry, or nullptr.
  const SafetensorsFile::Entry *find(const std::string &name) const;

private:
  std::vector<std::unique_ptr<SafetensorsFile>> files_;
  std::map<std::string, const SafetensorsFile *> byTensor_;
};

} // namespace rngd::qwen3
