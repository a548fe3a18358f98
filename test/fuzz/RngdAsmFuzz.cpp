// Fuzz target: the rngd text assembler (what rngdc does with an rngd.executable module):
// parse, verify, emit. Properties: every refusal comes with an error diagnostic; what
// assembles emits an executable the loader accepts.
#include "MlirFuzz.h"

#include "mlir/IR/Verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static rngd::fuzz::MlirFuzz fuzz;
  auto module = fuzz.parse(data, size);
  if (!module)
    return 0;
  if (mlir::failed(mlir::verify(*module))) {
    fuzz.expectError("verification");
    return 0;
  }
  fuzz.emit(*module);
  return 0;
}
