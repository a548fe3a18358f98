// Shared by the fuzz targets that read MLIR text (tcp kernels, rngd text): one context for the
// whole run (dialects registered, no threads), a parse of the input without verification, and
// a count of the error diagnostics each step emits, so a step that fails silently is a finding.
#pragma once

#include "FuzzCheck.h"

#include "compiler/emit/EmitExecutable.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/SourceChecks.h"
#include "rngd/Executable.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <optional>
#include <vector>

// Debian's LLVM/MLIR libraries are not instrumented, but the LLVM headers our instrumented code
// includes poison and unpoison bump-allocator slabs: a slab our code started and an
// uninstrumented allocation in libMLIR then look like a use-after-poison. ASan ignores manual
// poisoning with this option (its own checks stay on).
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

namespace rngd::fuzz {

/// The context of every input; its diagnostics are swallowed and counted.
class MlirFuzz {
public:
  MlirFuzz() : context_(registry(), mlir::MLIRContext::Threading::DISABLED) {
    context_.loadAllAvailableDialects();
    context_.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
        ++errors_;
    });
  }
  mlir::MLIRContext &context() { return context_; }
  int64_t errors() const { return errors_; }

  /// The input as a module, unverified (null when it does not parse, with an error).
  mlir::OwningOpRef<mlir::ModuleOp> parse(const uint8_t *data, size_t size) {
    errors_ = 0;
    llvm::SourceMgr sources;
    sources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            llvm::StringRef(reinterpret_cast<const char *>(data), size), "input.mlir"),
        llvm::SMLoc());
    if (mlir::failed(checkSource(sources, &context_))) {
      expectError("checkSource");
      return nullptr;
    }
    auto module = mlir::parseSourceFile<mlir::ModuleOp>(
        sources, mlir::ParserConfig(&context_, /*verifyAfterParse=*/false));
    RNGD_FUZZ_CHECK(module || errors_ > 0, "refused by the parser without an error");
    return module;
  }

  /// A step that failed must have said why.
  void expectError(const char *step) {
    RNGD_FUZZ_CHECK(errors_ > 0, "%s failed without an error", step);
  }

  /// The bytes rngdc would write for the module's one rngd.executable; the loader must accept
  /// them. nullopt (with an error) when the module holds no single executable the format takes.
  std::optional<std::vector<uint8_t>> emit(mlir::ModuleOp module) {
    auto executables = llvm::to_vector(module.getOps<rngd::ExecutableOp>());
    if (executables.size() != 1)
      return std::nullopt;
    auto exe = emit::toExecutable(executables[0]);
    if (!exe) {
      expectError("toExecutable");
      return std::nullopt;
    }
    std::vector<uint8_t> bytes;
    std::string why;
    RNGD_FUZZ_CHECK(writeExecutable(*exe, bytes, why), "emitted but not writable: %s",
                    why.c_str());
    Executable loaded;
    RNGD_FUZZ_CHECK(readExecutable(bytes, loaded, why), "emitted but refused by the loader: %s",
                    why.c_str());
    return bytes;
  }

private:
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerDialects(r);
    return r;
  }
  mlir::MLIRContext context_;
  int64_t errors_ = 0;
};

} // namespace rngd::fuzz
