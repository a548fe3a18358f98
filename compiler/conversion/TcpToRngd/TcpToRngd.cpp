// convert-tcp-to-rngd: a scheduled tcp kernel becomes an rngd.executable.
#include "compiler/conversion/Passes.h"
#include "compiler/conversion/TcpToRngd/ArgumentLayout.h"

#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/IR/TcpPass.h"

#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace rngd::conversion {
#define GEN_PASS_DEF_CONVERTTCPTORNGD
#include "compiler/conversion/Passes.h.inc"
} // namespace rngd::conversion

using namespace mlir;
using namespace rngd;
using rngd::conversion::ArgumentLayout;
using rngd::conversion::ArgumentSlot;

#ifndef RNGDC_VERSION
#define RNGDC_VERSION "0.0.0"
#endif

namespace {

constexpr int kLoops = 8;
constexpr int kSliceWords = 8;

/// Sequencer loops padded to the 8 hardware entries (unused entries: 1 iteration, stride 0).
void appendLoops(std::vector<int64_t> &values, const std::vector<mapping::Loop> &loops) {
  for (int i = 0; i < kLoops; ++i)
    values.push_back(i < static_cast<int>(loops.size()) ? loops[i].size : 1);
  for (int i = 0; i < kLoops; ++i)
    values.push_back(i < static_cast<int>(loops.size()) ? loops[i].stride : 0);
}

/// The 512-bit slice-enable bitmap as eight 64-bit words.
void appendSlices(std::vector<int64_t> &values, const tcp::SpatialLayout &spatial) {
  uint64_t words[kSliceWords] = {};
  for (int64_t s : spatial.activeSlices(defaultTarget()))
    words[s / 64] |= uint64_t(1) << (s % 64);
  for (uint64_t w : words)
    values.push_back(static_cast<int64_t>(w));
}

int64_t log2Exact(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

int64_t dmOffset(Value v) {
  auto attr = v.getDefiningOp()->getAttrOfType<IntegerAttr>("tcp.dm_offset");
  return attr ? attr.getInt() : -1;
}

class Lowering {
public:
  Lowering(func::FuncOp func, ArgumentLayout layout)
      : func_(func), layout_(std::move(layout)), b_(func.getContext()) {}

  LogicalResult run(ModuleOp module) {
    const TargetModel &t = defaultTarget();
    auto makespan = module->getAttrOfType<IntegerAttr>("tcp.makespan");
    b_.setInsertionPointAfter(func_);
    exe_ = b_.create<cmd::ExecutableOp>(
        func_.getLoc(), func_.getSymName(), t.name, t.hash(), RNGDC_VERSION, 0,
        makespan ? makespan.getInt() : 0, layout_.totalBytes);
    Block *body = &exe_.getBody().emplaceBlock();
    records_ = OpBuilder::atBlockBegin(body);
    for (const ArgumentSlot &slot : layout_.slots) {
      auto dtype = cast<tcp::HbmType>(func_.getArgument(&slot - layout_.slots.data()).getType())
                       .getElementType();
      std::string dtypeName;
      llvm::raw_string_ostream(dtypeName) << dtype;
      records_.create<cmd::ArgOp>(func_.getLoc(), slot.name, slot.kind, dtypeName, slot.shape,
                                  slot.mapping, slot.offset, slot.bytes);
    }
    commands_ = OpBuilder::atBlockEnd(body);
    for (Operation &op : func_.getBody().front()) {
      if (auto dma = dyn_cast<tcp::DmaOp>(op)) {
        if (failed(lowerDma(dma)))
          return failure();
      } else if (auto commit = dyn_cast<tcp::CommitOp>(op)) {
        if (failed(lowerPass(commit)))
          return failure();
      }
    }
    // Records go after the args in index order; configs after descriptors.
    for (cmd::DescriptorOp d : descriptors_)
      d->moveBefore(firstCommandOrEnd(body));
    for (cmd::ConfigOp c : configs_)
      c->moveBefore(firstCommandOrEnd(body));
    func_.erase();
    return success();
  }

private:
  Operation *firstCommandOrEnd(Block *body) {
    for (Operation &op : *body)
      if (!llvm::isa<cmd::ArgOp, cmd::DescriptorOp, cmd::ConfigOp>(op))
        return &op;
    return nullptr;
  }

  uint64_t address(Value v, const tcp::DmaOpPlan &plan, bool source) {
    const TargetModel &t = defaultTarget();
    bool dm = source ? plan.dmSource.has_value() : plan.dmDest.has_value();
    if (dm)
      return t.dmAddressBase + static_cast<uint64_t>(dmOffset(v));
    auto arg = cast<BlockArgument>(v);
    return t.hbmAddressBase + static_cast<uint64_t>(layout_.slots[arg.getArgNumber()].offset);
  }

  LogicalResult lowerDma(tcp::DmaOp op) {
    auto plan = tcp::planDma(op);
    if (!plan)
      return failure();
    Value dst = op.getDest() ? op.getDest() : op.getResult();
    if ((plan->dmSource && dmOffset(op.getSource()) < 0) || (plan->dmDest && dmOffset(dst) < 0))
      return op.emitOpError("has no DM address; run tcp-allocate-memory first");
    SmallVector<int64_t> limits, srcStrides, dstStrides;
    for (const auto &loop : plan->plan.loops) {
      limits.push_back(loop.size);
      srcStrides.push_back(loop.srcStride);
      dstStrides.push_back(loop.dstStride);
    }
    int64_t index = static_cast<int64_t>(descriptors_.size());
    auto d = records_.create<cmd::DescriptorOp>(
        op.getLoc(), index, tcp::dmaEngine(*plan), address(op.getSource(), *plan, true),
        address(dst, *plan, false), plan->plan.packetBytes, limits, srcStrides, dstStrides);
    descriptors_.push_back(d);
    int64_t tag = nextTag_++ % (isa::kMaxTag + 1);
    commands_.create<cmd::DmaOp>(op.getLoc(), index, tag);
    auto wait = commands_.create<cmd::WaitOp>(op.getLoc(), StringAttr(),
                                              b_.getI64IntegerAttr(tag));
    (void)wait;
    return success();
  }

  void addConfig(Location loc, isa::Unit unit, ArrayRef<int64_t> values, StringRef ctx) {
    int64_t index = static_cast<int64_t>(configs_.size());
    configs_.push_back(records_.create<cmd::ConfigOp>(loc, index, isa::findUnit(unit)->name,
                                                      values));
    commands_.create<cmd::LoadOp>(loc, index, ctx);
  }

  LogicalResult lowerPass(tcp::CommitOp commit) {
    tcp::TensorPassOps ops = tcp::tensorPassOps(commit);
    auto fetch = tcp::planFetch(ops.fetch);
    auto store = tcp::planCommit(commit);
    if (!fetch || !store)
      return failure();
    if (dmOffset(ops.fetch.getSource()) < 0 || dmOffset(commit.getResult()) < 0)
      return commit.emitOpError("has no DM address; run tcp-allocate-memory first");
    StringRef ctx = tcp::stringifyContext(ops.fetch.getContext());
    uint16_t units = isa::UnitFetch | isa::UnitCollect | isa::UnitCommit;

    std::vector<int64_t> f = {dmOffset(ops.fetch.getSource()),
                              log2Exact(fetch->sequencer.accessBytes),
                              fetch->sequencer.packetBytes,
                              static_cast<int64_t>(fetch->cast ? isa::FetchCast::Bf16ToF32
                                                               : isa::FetchCast::None)};
    appendLoops(f, fetch->sequencer.loops);
    appendSlices(f, fetch->stream.spatial);
    addConfig(ops.fetch.getLoc(), isa::Unit::Fetch, f, ctx);

    if (ops.vector) {
      units |= isa::UnitVector;
      addConfig(ops.vector.getLoc(), isa::Unit::Vector, vectorValues(ops.vector), ctx);
    }
    if (ops.cast) {
      units |= isa::UnitCast;
      addConfig(ops.cast.getLoc(), isa::Unit::Cast,
                {static_cast<int64_t>(isa::CastMode::F32ToBf16)}, ctx);
    }
    std::vector<int64_t> c = {dmOffset(commit.getResult()), store->writeBytes};
    appendLoops(c, store->sequencer.loops);
    appendSlices(c, store->stream.spatial);
    addConfig(commit.getLoc(), isa::Unit::Commit, c, ctx);

    commands_.create<cmd::ExecOp>(commit.getLoc(), ctx, units);
    commands_.create<cmd::WaitOp>(commit.getLoc(), b_.getStringAttr(ctx), IntegerAttr());
    return success();
  }

  static std::vector<int64_t> vectorValues(tcp::VectorOp op) {
    std::vector<int64_t> alu(isa::kMaxVectorSteps, 0), code(isa::kMaxVectorSteps, 0),
        mode(isa::kMaxVectorSteps, 0), imm(isa::kMaxVectorSteps, 0);
    for (auto [i, step] : llvm::enumerate(op.getSteps())) {
      StringRef name = cast<StringAttr>(step).getValue();
      Attribute value = op.getImmediates()[i];
      if (name == "add_i") {
        alu[i] = static_cast<int64_t>(isa::Alu::FxpAdd);
        code[i] = static_cast<int64_t>(isa::VectorOp::Add);
      } else if (name == "add_f") {
        alu[i] = static_cast<int64_t>(isa::Alu::FpFma);
        code[i] = static_cast<int64_t>(isa::VectorOp::Add);
      } else { // mul_f
        alu[i] = static_cast<int64_t>(isa::Alu::FpMul0);
        code[i] = static_cast<int64_t>(isa::VectorOp::Mul);
      }
      mode[i] = static_cast<int64_t>(isa::OperandMode::Immediate);
      if (auto f = dyn_cast<FloatAttr>(value))
        imm[i] = static_cast<int64_t>(
            static_cast<uint32_t>(f.getValue().bitcastToAPInt().getZExtValue()));
      else
        imm[i] = static_cast<int64_t>(static_cast<uint32_t>(cast<IntegerAttr>(value).getInt()));
    }
    std::vector<int64_t> values = {static_cast<int64_t>(op.getSteps().size())};
    for (auto *part : {&alu, &code, &mode, &imm})
      values.insert(values.end(), part->begin(), part->end());
    return values;
  }

  func::FuncOp func_;
  ArgumentLayout layout_;
  OpBuilder b_;
  cmd::ExecutableOp exe_;
  OpBuilder records_{b_};
  OpBuilder commands_{b_};
  std::vector<cmd::DescriptorOp> descriptors_;
  std::vector<cmd::ConfigOp> configs_;
  int64_t nextTag_ = 0;
};

struct ConvertTcpToRngdPass
    : public rngd::conversion::impl::ConvertTcpToRngdBase<ConvertTcpToRngdPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
    if (funcs.size() != 1) {
      module.emitError("a kernel file holds exactly one entry function, found ") << funcs.size();
      return signalPassFailure();
    }
    auto layout = rngd::conversion::layoutArguments(funcs[0]);
    if (!layout || failed(Lowering(funcs[0], *layout).run(module)))
      return signalPassFailure();
  }
};

} // namespace
