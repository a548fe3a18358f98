#include "compiler/placement/Qwen3Compile.h"

#include "compiler/pipelines/CompileKernel.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/placement/Qwen3Stages.h"

#include "dialects/tcp/IR/TcpLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// `stage` built in `c`'s context; nullopt with the placement rule it fails in `error`.
std::optional<GeneratedStage> generate(CompileContext &c, const Qwen3Shape &shape,
                                       const TargetModel &target, const std::string &stage,
                                       int64_t tokens, std::string &error,
                                       int64_t poolChunks = 1) {
  llvm::Expected<GeneratedStage> generated =
      buildQwen3Stage(&c.context, stage, shape, target, tokens, poolChunks);
  if (!generated) {
    error = llvm::toString(generated.takeError());
    return std::nullopt;
  }
  return std::move(*generated);
}

/// Each HBM argument of the generated `stage` (by tcp.name): its resolved layout.
bool argumentLayouts(const Qwen3Shape &shape, const TargetModel &target, const std::string &stage,
                     int64_t tokens, std::map<std::string, tcp::HbmLayout> &layouts,
                     std::string &error, int64_t poolChunks = 1) {
  CompileContext c;
  std::optional<GeneratedStage> generated =
      generate(c, shape, target, stage, tokens, error, poolChunks);
  if (!generated)
    return false;
  for (auto func : generated->module->getOps<mlir::func::FuncOp>())
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto name = func.getArgAttrOfType<mlir::StringAttr>(i, "tcp.name");
      auto type = llvm::dyn_cast<tcp::HbmType>(func.getArgument(i).getType());
      std::optional<tcp::HbmLayout> layout =
          name && type ? tcp::resolveHbm(func, type) : std::nullopt;
      if (!layout) {
        error = "the generated " + stage + "'s argument #" + std::to_string(i) +
                " is not a named HBM tensor: " + c.messages;
        return false;
      }
      layouts.emplace(name.str(), *layout);
    }
  return true;
}

/// The row-major dimensions of `stage`'s HBM argument `name` (its mapping's factors' cells).
bool argumentDims(const Qwen3Shape &shape, const TargetModel &target, const std::string &stage,
                  const std::string &name, std::vector<int64_t> &dims, std::string &error) {
  std::map<std::string, tcp::HbmLayout> layouts;
  if (!argumentLayouts(shape, target, stage, 1, layouts, error))
    return false;
  auto it = layouts.find(name);
  if (it == layouts.end()) {
    error = "the generated " + stage + " has no HBM argument `" + name + "`";
    return false;
  }
  dims.clear();
  for (const mapping::Factor &f : it->second.elem.factors())
    dims.push_back(f.cells);
  return true;
}

} // namespace

bool qwen3Interface(const Qwen3Shape &shape, const TargetModel &target, Qwen3Interface &out,
                    std::string &error) {
  std::vector<int64_t> head, keys;
  if (!argumentDims(shape, target, "final_layer", "lm_head_weight", head, error) ||
      !argumentDims(shape, target, "attention_forward", "k", keys, error))
    return false;
  int64_t cells = 1;
  for (int64_t d : head)
    cells *= d;
  out.paddedVocab = cells / shape.hidden;
  out.kvChunk = keys.front();
  return true;
}

bool qwen3ArgumentBytes(const Qwen3Shape &shape, const TargetModel &target,
                        const std::string &stage, int64_t tokens,
                        std::map<std::string, int64_t> &bytes, std::string &error,
                        int64_t poolChunks) {
  std::map<std::string, tcp::HbmLayout> layouts;
  if (!argumentLayouts(shape, target, stage, tokens, layouts, error, poolChunks))
    return false;
  bytes.clear();
  for (const auto &[name, layout] : layouts)
    bytes[name] = layout.bytes();
  return true;
}

bool compileQwen3Stage(const Qwen3Shape &shape, const TargetModel &target, const std::string &stage,
                       int64_t tokens, StageBinary &out, std::string &error,
                       int64_t poolChunks) {
  CompileContext c;
  std::optional<GeneratedStage> generated =
      generate(c, shape, target, stage, tokens, error, poolChunks);
  if (!generated)
    return false;
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
                         std::string &error, int64_t poolChunks) {
  for (const std::string &stage : stages) {
    CompileContext c;
    if (!generate(c, shape, target, stage, tokens, error, poolChunks))
      return false;
  }
  return true;
}

} // namespace rngd::placement
