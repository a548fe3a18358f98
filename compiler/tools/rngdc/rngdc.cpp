// rngdc: compile a tcp kernel (or assemble an rngd text form) into an .rngd executable.
//
//   rngdc IN.mlir -o OUT.rngd [--dump-schedule S.json] [--emit=tcp|rngd|asm]
#include "compiler/emit/CriticalPath.h"
#include "compiler/emit/EmitExecutable.h"
#include "compiler/emit/MemoryReport.h"
#include "compiler/emit/ScheduleJson.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/ParseKernel.h"

#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/IR/TcpDialect.h"
#include "rngd/Timeline.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include <map>
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace {

enum class Emit { Binary, Tcp, Rngd, Asm };

// --help lists these and the few LLVM/MLIR flags in kShownFlags; every other flag LLVM and MLIR
// register (hundreds, e.g. --mlir-print-op-generic) still works but is not listed.
llvm::cl::OptionCategory rngdcOptions("rngdc options");
constexpr const char *kShownFlags[] = {"stats",
                                       "mlir-print-ir-after-all",
                                       "mlir-print-ir-before-all",
                                       "mlir-print-debuginfo",
                                       "mlir-print-op-on-diagnostic",
                                       "mlir-timing"};

#ifndef RNGDC_VERSION
#define RNGDC_VERSION "rngdc 0.0.0"
#endif

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<input .mlir>"),
                                     llvm::cl::Required, llvm::cl::cat(rngdcOptions));
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("output file (.rngd, or text)"),
                                      llvm::cl::cat(rngdcOptions),
                                      llvm::cl::value_desc("file"));
llvm::cl::opt<std::string> scheduleFile("dump-schedule",
                                        llvm::cl::desc("write the schedule JSON here"),
                                        llvm::cl::cat(rngdcOptions),
                                        llvm::cl::value_desc("file"));
llvm::cl::opt<std::string> traceFormat(
    "trace-format", llvm::cl::desc("format of --dump-schedule: schedule (default) or chrome"),
    llvm::cl::init("schedule"), llvm::cl::value_desc("schedule|chrome"),
    llvm::cl::cat(rngdcOptions));
llvm::cl::opt<std::string> targetName(
    "target",
    llvm::cl::desc("the machine to compile for: rngd-1chip (default) or rngd-1cluster; a module "
                   "may name it itself with `tcp.target`"),
    llvm::cl::value_desc("name"), llvm::cl::cat(rngdcOptions));
llvm::cl::opt<bool> criticalPathFlag(
    "critical-path",
    llvm::cl::desc("print the chain of DMAs and passes that sets the makespan, and why each waits"),
    llvm::cl::cat(rngdcOptions));
llvm::cl::opt<bool> memoryReportFlag(
    "memory-report", llvm::cl::desc("print where each DM/TRF/VRF tensor lives and each peak"),
    llvm::cl::cat(rngdcOptions));
llvm::cl::opt<Emit> emit(
    "emit", llvm::cl::desc("what to produce"), llvm::cl::init(Emit::Binary),
    llvm::cl::cat(rngdcOptions),
    llvm::cl::values(clEnumValN(Emit::Binary, "binary", "the .rngd executable (default)"),
                     clEnumValN(Emit::Tcp, "tcp", "scheduled tcp with addresses and cycles"),
                     clEnumValN(Emit::Rngd, "rngd", "the rngd text form (as rngd-dump prints)"),
                     clEnumValN(Emit::Asm, "asm", "a listing of command words")));

int fail(const llvm::Twine &message) {
  llvm::errs() << "rngdc: " << message << "\n";
  return 1;
}

bool writeFile(StringRef path, StringRef bytes) {
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << "rngdc: " << error << "\n";
    return false;
  }
  out->os() << bytes;
  out->keep();
  return true;
}

/// "  tcp.dma 3" lines for every op name in `op`, sorted by name.
void printOpCounts(Operation *op, StringRef title) {
  std::map<std::string, int64_t> counts;
  op->walk([&](Operation *inner) {
    if (!llvm::isa<ModuleOp>(inner))
      ++counts[inner->getName().getStringRef().str()];
  });
  llvm::errs() << "op counts (" << title << "):\n";
  for (const auto &[name, count] : counts)
    llvm::errs() << llvm::format("  %-24s %8lld\n", name.c_str(), static_cast<long long>(count));
}

/// Word-by-word listing: index, encoded word, and the op it came from.
std::string listing(rngd::ExecutableOp op, const rngd::Executable &exe) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// " << op.getSymName() << ": " << exe.commands.size() << " command words, "
     << exe.configs.size() << " config blocks, " << exe.descriptors.size()
     << " descriptors\n";
  size_t word = 0;
  OpPrintingFlags flags;
  for (Operation &inner : op.getBody().front()) {
    if (llvm::isa<rngd::ArgOp, rngd::DescriptorOp, rngd::ConfigOp>(inner))
      continue;
    os << llvm::format("%04zu  0x%08x  ", word, exe.commands[word]);
    inner.print(os, flags);
    os << "\n";
    ++word;
  }
  return text;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::HideUnrelatedOptions(rngdcOptions);
  for (const char *flag : kShownFlags)
    if (llvm::cl::Option *option = llvm::cl::getRegisteredOptions().lookup(flag)) {
      option->setHiddenFlag(llvm::cl::NotHidden);
      option->addCategory(rngdcOptions);
    }
  if (llvm::cl::Option *option = llvm::cl::getRegisteredOptions().lookup("stats"))
    option->setDescription("print op counts and the time of parsing, each pass and emission");
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << RNGDC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv, "rngdc: the RNGD kernel compiler\n");

  if (outputFile.empty() && emit == Emit::Binary)
    return fail("no output file: give -o FILE (or --emit=tcp|rngd|asm to print)");

  DialectRegistry registry;
  rngd::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic names the op's location and the rule; the op itself in generic form (for a
  // function, the whole kernel) only on request.
  if (llvm::cl::Option *option =
          llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic"))
    if (option->getNumOccurrences() == 0)
      context.printOpOnDiagnostic(false);

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // LLVM's own --stats flag (statistics) also turns on rngdc's pass times and op counts.
  const bool stats = llvm::AreStatisticsEnabled();
  DefaultTimingManager timing;
  timing.setEnabled(stats);
  TimingScope root = timing.getRootScope();
  TimingScope parseTimer = root.nest("parse");
  // Verified after the target is on the module (setTarget): the checks follow the target.
  rngd::KernelParser parser(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parser.parse();
  parseTimer.stop();
  if (!module)
    return 1;
  if (stats)
    printOpCounts(*module, "input");

  bool alreadyLowered = !module->getOps<rngd::ExecutableOp>().empty();
  // The module's ops are checked against the target it now names before any pass runs.
  if (!alreadyLowered && failed(rngd::setModuleTarget(*module, targetName)))
    return 1;
  if (failed(verify(*module)))
    return 1;
  if (!alreadyLowered) {
    PassManager schedule(&context);
    if (failed(applyPassManagerCLOptions(schedule)))
      return 1;
    applyDefaultTimingPassManagerCLOptions(schedule);
    if (stats)
      schedule.enableTiming(root);
    rngd::buildSchedulePipeline(schedule);
    if (failed(schedule.run(*module)))
      return 1;
    if (criticalPathFlag)
      for (auto func : module->getOps<func::FuncOp>())
        llvm::outs() << rngd::emit::formatCriticalPath(func);
    if (memoryReportFlag)
      for (auto func : module->getOps<func::FuncOp>())
        llvm::outs() << func.getSymName() << " memory\n"
                     << rngd::emit::formatMemoryReport(rngd::emit::memoryReport(func));
    if (!scheduleFile.empty()) {
      std::string schedule = rngd::emit::scheduleJson(*module), why;
      if (traceFormat != "schedule" && traceFormat != "chrome")
        return fail("--trace-format is 'schedule' or 'chrome', got '" + traceFormat + "'");
      if (traceFormat == "chrome") {
        rngd::Timeline timeline;
        if (!rngd::readTimeline(schedule, timeline, why))
          return fail(why);
        schedule = rngd::chromeTrace(timeline);
      }
      if (!writeFile(scheduleFile, schedule))
        return 1;
    }
    if (emit == Emit::Tcp) {
      std::string text;
      llvm::raw_string_ostream os(text);
      module->print(os);
      os << "\n";
      return outputFile.empty() ? (llvm::outs() << text, 0) : !writeFile(outputFile, text);
    }
    PassManager lower(&context);
    if (failed(applyPassManagerCLOptions(lower)))
      return 1;
    applyDefaultTimingPassManagerCLOptions(lower);
    if (stats)
      lower.enableTiming(root);
    rngd::buildLoweringPipeline(lower);
    if (failed(lower.run(*module)))
      return 1;
  } else if (!scheduleFile.empty() || emit == Emit::Tcp || criticalPathFlag || memoryReportFlag) {
    return fail("the input is already an rngd executable; --dump-schedule, --emit=tcp, "
                "--critical-path and --memory-report need a tcp kernel");
  }

  auto executables = llvm::to_vector(module->getOps<rngd::ExecutableOp>());
  if (executables.size() != 1)
    return fail("expected one rngd.executable, found " + llvm::Twine(executables.size()));
  if (stats)
    printOpCounts(*module, "rngd");
  TimingScope emitTimer = root.nest("emit");
  auto exe = rngd::emit::toExecutable(executables[0]);
  if (!exe)
    return 1;

  std::string text;
  if (emit == Emit::Rngd)
    text = rngd::printExecutable(*exe);
  else if (emit == Emit::Asm)
    text = listing(executables[0], *exe);
  if (emit == Emit::Rngd || emit == Emit::Asm)
    return outputFile.empty() ? (llvm::outs() << text, 0) : !writeFile(outputFile, text);

  std::vector<uint8_t> bytes;
  std::string why;
  if (!rngd::writeExecutable(*exe, bytes, why))
    return fail(why);
  return writeFile(outputFile, StringRef(reinterpret_cast<const char *>(bytes.data()),
                                         bytes.size()))
             ? 0
             : 1;
}
