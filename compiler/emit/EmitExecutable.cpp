#include "compiler/emit/EmitExecutable.h"

using namespace mlir;

namespace rngd::emit {

std::optional<Executable> toExecutable(rngd::ExecutableOp op) {
  Executable exe;
  exe.kernelName = op.getSymName().str();
  exe.targetName = op.getTarget().str();
  exe.targetHash = static_cast<uint64_t>(op.getTargetHash());
  exe.compilerVersion = op.getCompiler().str();
  exe.flags = static_cast<uint32_t>(op.getFlags());
  exe.predictedMakespan = static_cast<uint64_t>(op.getMakespan());
  exe.hbmBytes = static_cast<uint64_t>(op.getHbm());
  for (Operation &inner : op.getBody().front()) {
    if (auto arg = dyn_cast<rngd::ArgOp>(inner)) {
      ArgInfo info;
      info.name = arg.getSymName().str();
      info.mapping = arg.getMapping().str();
      if (!parseArgKind(arg.getKind().str(), info.kind)) {
        arg.emitOpError("unknown argument kind `") << arg.getKind() << "`";
        return std::nullopt;
      }
      if (!parseDType(arg.getDtype().str(), info.dtype)) {
        arg.emitOpError("unknown dtype `") << arg.getDtype() << "`";
        return std::nullopt;
      }
      info.shape.assign(arg.getShape().begin(), arg.getShape().end());
      info.hbmOffset = static_cast<uint64_t>(arg.getOffset());
      info.bytes = static_cast<uint64_t>(arg.getBytes());
      exe.args.push_back(info);
    } else if (auto d = dyn_cast<rngd::DescriptorOp>(inner)) {
      exe.descriptors.push_back(d.getIsaDescriptor());
    } else if (auto c = dyn_cast<rngd::ConfigOp>(inner)) {
      ConfigBlock block;
      block.unit = isa::findUnit(c.getUnit().str())->unit;
      block.values.assign(c.getValues().begin(), c.getValues().end());
      block.partialMask = static_cast<uint64_t>(c.getWords().value_or(0));
      exe.configs.push_back(block);
    } else {
      std::optional<isa::Command> command;
      if (auto l = dyn_cast<rngd::LoadOp>(inner))
        command = l.getCommand();
      else if (auto e = dyn_cast<rngd::ExecOp>(inner))
        command = e.getCommand();
      else if (auto w = dyn_cast<rngd::WaitOp>(inner))
        command = w.getCommand();
      else if (auto m = dyn_cast<rngd::DmaOp>(inner))
        command = m.getCommand();
      std::string why;
      if (!command) {
        inner.emitOpError("cannot be emitted into an executable");
        return std::nullopt;
      }
      if (!isa::checkCommand(*command, why)) {
        inner.emitOpError(why);
        return std::nullopt;
      }
      exe.commands.push_back(isa::encode(*command));
    }
  }
  // The file's own rules across records (argument bytes against shape and dtype, offsets
  // inside the HBM space, references between commands, configs and descriptors): what the
  // loader would refuse is refused here, at the executable.
  std::string why;
  if (!validateExecutable(exe, why)) {
    op.emitOpError("cannot be written as an executable: ") << why;
    return std::nullopt;
  }
  return exe;
}

} // namespace rngd::emit
