#include "compiler/emit/EmitExecutable.h"

using namespace mlir;

namespace rngd::emit {

static isa::Context context(StringRef name) {
  return name == "sub" ? isa::Context::Sub : isa::Context::Main;
}

std::optional<Executable> toExecutable(cmd::ExecutableOp op) {
  Executable exe;
  exe.kernelName = op.getSymName().str();
  exe.targetName = op.getTarget().str();
  exe.targetHash = static_cast<uint64_t>(op.getTargetHash());
  exe.compilerVersion = op.getCompiler().str();
  exe.flags = static_cast<uint32_t>(op.getFlags());
  exe.predictedMakespan = static_cast<uint64_t>(op.getMakespan());
  exe.hbmBytes = static_cast<uint64_t>(op.getHbm());
  for (Operation &inner : op.getBody().front()) {
    if (auto arg = dyn_cast<cmd::ArgOp>(inner)) {
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
    } else if (auto d = dyn_cast<cmd::DescriptorOp>(inner)) {
      isa::Descriptor desc;
      desc.engine = static_cast<uint32_t>(d.getEngine());
      desc.src = static_cast<uint64_t>(d.getSrc());
      desc.dst = static_cast<uint64_t>(d.getDst());
      desc.packetBytes = static_cast<uint32_t>(d.getPacket());
      for (int64_t v : d.getLimits())
        desc.limits.push_back(static_cast<uint32_t>(v));
      for (int64_t v : d.getSrcStrides())
        desc.srcStrides.push_back(static_cast<int32_t>(v));
      for (int64_t v : d.getDstStrides())
        desc.dstStrides.push_back(static_cast<int32_t>(v));
      if (d.getIndirect()) {
        desc.kind = static_cast<uint32_t>(*d.getIndirect() == "gather" ? isa::DmaKind::Gather
                                                                        : isa::DmaKind::Scatter);
        desc.indexAddress = static_cast<uint64_t>(*d.getIndexAddress());
        desc.indexCount = static_cast<uint32_t>(*d.getIndexCount());
        desc.indirectLoop = static_cast<uint32_t>(*d.getIndirectLoop());
      }
      exe.descriptors.push_back(desc);
    } else if (auto c = dyn_cast<cmd::ConfigOp>(inner)) {
      ConfigBlock block;
      block.unit = isa::findUnit(c.getUnit().str())->unit;
      block.values.assign(c.getValues().begin(), c.getValues().end());
      block.partialMask = static_cast<uint64_t>(c.getWords().value_or(0));
      exe.configs.push_back(block);
    } else {
      isa::Command command;
      if (auto l = dyn_cast<cmd::LoadOp>(inner)) {
        command.opcode = isa::Opcode::Config;
        command.context = context(l.getContext());
        command.bank = static_cast<uint8_t>(l.getBank());
        command.index = static_cast<uint32_t>(l.getConfig());
      } else if (auto e = dyn_cast<cmd::ExecOp>(inner)) {
        command.opcode = isa::Opcode::Exec;
        command.context = context(e.getContext());
        command.bank = static_cast<uint8_t>(e.getBank());
        command.units = static_cast<uint16_t>(e.getUnits());
      } else if (auto w = dyn_cast<cmd::WaitOp>(inner)) {
        command.opcode = isa::Opcode::Wait;
        command.waitOnTag = w.getTag().has_value();
        if (w.getTag())
          command.tag = static_cast<uint8_t>(*w.getTag());
        else
          command.context = context(*w.getContext());
      } else if (auto m = dyn_cast<cmd::DmaOp>(inner)) {
        command.opcode = isa::Opcode::Dma;
        command.index = static_cast<uint32_t>(m.getDescriptor());
        command.tag = static_cast<uint8_t>(m.getTag());
      } else {
        inner.emitOpError("cannot be emitted into an executable");
        return std::nullopt;
      }
      exe.commands.push_back(isa::encode(command));
    }
  }
  return exe;
}

} // namespace rngd::emit
