// Fuzz target: config.json (parseHfConfig, as readHfConfig does before any weight is read). Properties of an accepted config: it validates,
// and hfConfigJson writes it back in a form that parses to the same values.
#include "FuzzCheck.h"

#include "qwen3/host/HfModel.h"

#include <string>

using namespace rngd::qwen3;

namespace {

bool same(const Qwen3Config &a, const Qwen3Config &b) {
  return a.hiddenSize == b.hiddenSize && a.numHeads == b.numHeads &&
         a.numKvHeads == b.numKvHeads && a.headDim == b.headDim &&
         a.intermediateSize == b.intermediateSize && a.vocabSize == b.vocabSize &&
         a.numLayers == b.numLayers && a.ropeTheta == b.ropeTheta &&
         a.rmsNormEps == b.rmsNormEps && a.tieWordEmbeddings == b.tieWordEmbeddings &&
         a.maxPositionEmbeddings == b.maxPositionEmbeddings;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Qwen3Config config;
  std::string error;
  if (!parseHfConfig(text, config, error)) {
    RNGD_FUZZ_CHECK(!error.empty(), "rejected without a message");
    return 0;
  }
  std::string validateError;
  RNGD_FUZZ_CHECK(config.validate(validateError), "accepted but invalid: %s",
                  validateError.c_str());
  Qwen3Config again;
  RNGD_FUZZ_CHECK(parseHfConfig(hfConfigJson(config), again, error),
                  "hfConfigJson's output does not parse: %s", error.c_str());
  RNGD_FUZZ_CHECK(same(config, again), "hfConfigJson does not round-trip");
  return 0;
}
