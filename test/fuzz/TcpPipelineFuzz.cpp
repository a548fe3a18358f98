// Fuzz target: a tcp kernel through what rngdc does to it: parse, put the target on the
// module, verify, schedule (tcp-allocate-memory, tcp-schedule), lower (convert-tcp-to-rngd) and
// emit. Properties: every refusal comes with an error diagnostic; what compiles emits an
// executable the loader accepts; compiling the same text twice gives the same bytes.
#include "MlirFuzz.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <optional>
#include <vector>

namespace {

std::optional<std::vector<uint8_t>> compile(rngd::fuzz::MlirFuzz &fuzz, const uint8_t *data,
                                            size_t size) {
  auto module = fuzz.parse(data, size);
  if (!module)
    return std::nullopt;
  if (mlir::failed(rngd::setModuleTarget(*module, "")) || mlir::failed(mlir::verify(*module))) {
    fuzz.expectError("target or verification");
    return std::nullopt;
  }
  if (!module->getOps<rngd::ExecutableOp>().empty())
    return std::nullopt; // already lowered: the rngd_asm target's input
  mlir::PassManager pm(&fuzz.context());
  rngd::buildSchedulePipeline(pm);
  rngd::buildLoweringPipeline(pm);
  if (mlir::failed(pm.run(*module))) {
    fuzz.expectError("the pipeline");
    return std::nullopt;
  }
  return fuzz.emit(*module);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static rngd::fuzz::MlirFuzz fuzz;
  auto first = compile(fuzz, data, size);
  if (!first)
    return 0;
  auto second = compile(fuzz, data, size);
  RNGD_FUZZ_CHECK(second && *second == *first, "compiling the same text twice differs");
  return 0;
}
