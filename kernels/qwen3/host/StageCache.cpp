#include "qwen3/host/StageCache.h"

#include "compiler/placement/Qwen3Compile.h"
#include "rngd/Executable.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rngd::qwen3 {

namespace {


std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t hashText(const std::string &s) {
  return fnv1a64(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

bool exists(const std::string &path) { return access(path.c_str(), R_OK) == 0; }

/// mkdir -p.
bool makeDirs(const std::string &path) {
  for (size_t at = 1; at <= path.size(); ++at)
    if (at == path.size() || path[at] == '/') {
      std::string prefix = path.substr(0, at);
      if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
        return false;
    }
  return true;
}

bool writeAtomically(const std::string &path, const void *data, size_t size) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(static_cast<const char *>(data), std::streamsize(size));
    if (!out)
      return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

} // namespace

placement::Qwen3Shape shapeOf(const Qwen3Config &c) {
  placement::Qwen3Shape s;
  s.hidden = c.hiddenSize;
  s.intermediate = c.intermediateSize;
  s.heads = c.numHeads;
  s.kvHeads = c.numKvHeads;
  s.headDim = c.headDim;
  s.vocab = c.vocabSize;
  s.layers = c.numLayers;
  s.rmsNormEps = c.rmsNormEps;
  s.ropeTheta = c.ropeTheta;
  s.tied = c.tieWordEmbeddings;
  return s;
}

const StageInterface &stageInterface(const Qwen3Config &config, const TargetModel &target) {
  static std::map<std::string, StageInterface> known;
  std::ostringstream key;
  key << shapeOf(config).describe() << " " << target.name << " " << target.hash();
  auto it = known.find(key.str());
  if (it != known.end())
    return it->second;
  placement::Qwen3Interface io;
  std::string error;
  if (!placement::qwen3Interface(shapeOf(config), target, io, error))
    throw std::runtime_error(error);
  return known[key.str()] = StageInterface{io.paddedVocab, io.kvChunk};
}

const std::map<std::string, int64_t> &stageArgumentBytes(const Qwen3Config &config,
                                                         const TargetModel &target,
                                                         const std::string &stage, int tokens) {
  static std::map<std::string, std::map<std::string, int64_t>> known;
  std::ostringstream key;
  key << shapeOf(config).describe() << " " << target.name << " " << target.hash() << " " << stage
      << " " << tokens;
  auto it = known.find(key.str());
  if (it != known.end())
    return it->second;
  std::map<std::string, int64_t> bytes;
  std::string error;
  if (!placement::qwen3ArgumentBytes(shapeOf(config), target, stage, tokens, bytes, error))
    throw std::runtime_error(error);
  return known[key.str()] = std::move(bytes);
}

bool checkPlacement(const Qwen3Config &config, const TargetModel &target,
                    const std::vector<std::string> &stages, int tokens, std::string &error) {
  return placement::checkQwen3Placement(shapeOf(config), target, stages, tokens, error);
}

std::string cacheRoot() {
  if (const char *dir = std::getenv("RNGD_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/rngd";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/rngd";
  return "/tmp/rngd-cache";
}

const std::string &compilerBuild() {
  static const std::string build = [] {
    std::ifstream self("/proc/self/exe", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(self)), std::istreambuf_iterator<char>());
    return std::string(RNGDC_VERSION) + ", build " + hex16(hashText(bytes));
  }();
  return build;
}

std::string stageCacheDir(const Qwen3Config &config, const TargetModel &target) {
  std::ostringstream key;
  placement::Qwen3Shape s = shapeOf(config);
  key.precision(17);
  key << s.describe() << ", eps " << s.rmsNormEps << ", theta " << s.ropeTheta << ", tied "
      << s.tied << "; target " << target.name << " " << hex16(target.hash()) << "; "
      << compilerBuild();
  return cacheRoot() + "/qwen3-" + hex16(hashText(key.str()));
}

bool ensureStage(const std::string &dir, const Qwen3Config &config, const TargetModel &target,
                 const std::string &stage, int tokens, const std::string &file,
                 std::string &error, int poolChunks) {
  const std::string rngd = dir + "/" + file + ".rngd", json = dir + "/" + file + ".json";
  if (exists(rngd) && exists(json))
    return true;
  placement::StageBinary binary;
  if (!placement::compileQwen3Stage(shapeOf(config), target, stage, tokens, binary, error,
                                    poolChunks))
    return false;
  if (!makeDirs(dir)) {
    error = "cannot create the stage cache directory " + dir;
    return false;
  }
  if (!writeAtomically(rngd, binary.executable.data(), binary.executable.size()) ||
      !writeAtomically(json, binary.scheduleJson.data(), binary.scheduleJson.size())) {
    error = "cannot write " + rngd + " (the stage cache; RNGD_CACHE_DIR moves it)";
    return false;
  }
  return true;
}

} // namespace rngd::qwen3
