#include "compiler/placement/Qwen3Compile.h"

#include "compiler/pipelines/CompileKernel.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/placement/Qwen3Stages.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

namespace rngd::placement {

namespace {

/// A context with rngdc's dialects whose diagnostics collect into `messages`.
struct CompileContext {
  mlir::MLIRContext context;
  std::string messages;
  llvm::raw_string_ostream os{messages};
  mlir::ScopedDiagnosticHandler handler;

  CompileContext()
      : context(registry()), handler(&context, [this](mlir::Diagnostic &diag) {
          os << diag.getLocation() << ": " << diag << "\n";
          for (mlir::Diagnostic &note : diag.getNotes())
            os << "  note: " << note << "\n";
          return mlir::success();
        }) {
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }

  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerDialects(r);
    return r;
  }
};

} // namespace

bool compileQwen3Stage(const Qwen3Shape &shape, const TargetModel &target, const std::string &stage,
                       int64_t tokens, StageBinary &out, std::string &error) {
  CompileContext c;
  llvm::Expected<GeneratedStage> generated =
      buildQwen3Stage(&c.context, stage, shape, target, tokens);
  if (!generated) {
    error = llvm::toString(generated.takeError());
    return false;
  }
  CompiledKernel kernel;
  if (mlir::failed(compileKernel(*generated->module, target.name, kernel))) {
    error = "compiling the generated " + generated->name + ": " + c.messages;
    return false;
  }
  out.executable = std::move(kernel.executable);
  out.scheduleJson = std::move(kernel.scheduleJson);
  return true;
}

bool checkQwen3Placement(const Qwen3Shape &shape, const TargetModel &target,
                         const std::vector<std::string> &stages, int64_t tokens,
                         std::string &error) {
  for (const std::string &stage : stages) {
    CompileContext c;
    llvm::Expected<GeneratedStage> generated =
        buildQwen3Stage(&c.context, stage, shape, target, tokens);
    if (!generated) {
      error = llvm::toString(generated.takeError());
      return false;
    }
  }
  return true;
}

} // namespace rngd::placement
