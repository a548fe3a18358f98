// A tcp module to executable bytes in-process: what rngdc does for a file, for modules that
// programs build themselves (rngd-qwen3 compiles the generated stages this way).
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd {

struct CompiledKernel {
  std::vector<uint8_t> executable; // the .rngd file's bytes
  std::string scheduleJson;        // what rngdc --dump-schedule writes
};

/// Puts `target` on the module (setModuleTarget), verifies it, schedules it, dumps the schedule,
/// lowers it and writes the executable. Errors are diagnostics on the module's context.
mlir::LogicalResult compileKernel(mlir::ModuleOp module, llvm::StringRef target,
                                  CompiledKernel &out);

} // namespace rngd
