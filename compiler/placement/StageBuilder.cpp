#include "compiler/placement/StageBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;

namespace rngd::placement {

Step Step::op(const std::string &name) {
  Step s;
  s.name = name;
  return s;
}

Step Step::imm(const std::string &name, float value) {
  Step s = op(name);
  s.operand = Operand::Float;
  s.value = value;
  return s;
}

Step Step::immInt(const std::string &name, int32_t value) {
  Step s = op(name);
  s.operand = Operand::Int;
  s.integer = value;
  return s;
}

Step Step::stash(const std::string &name) {
  Step s = op(name);
  s.operand = Operand::Stash;
  return s;
}

Step Step::vrfOf(const std::string &name, Value vrf) {
  Step s = op(name);
  s.operand = Operand::Vrf;
  s.vrf = vrf;
  return s;
}

Step Step::fma(float scale, float addend) {
  Step s = imm("fma_f", scale);
  s.addend = addend;
  return s;
}

llvm::Error placementError(llvm::StringRef stage, llvm::StringRef rule, const llvm::Twine &detail) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (stage + ": " + rule + ": " + detail).str());
}

StageBuilder::StageBuilder(MLIRContext *context, const TargetModel &target, llvm::StringRef stage)
    : context_(context), target_(target), stage_(stage.str()), builder_(context) {
  context->loadDialect<tcp::TcpDialect, func::FuncDialect>();
  module_ = ModuleOp::create(loc(stage));
  builder_.setInsertionPointToEnd(module_->getBody());
  auto func = builder_.create<func::FuncOp>(loc(stage), stage, builder_.getFunctionType({}, {}));
  body_ = func.addEntryBlock();
  builder_.setInsertionPointToEnd(body_);
}

void StageBuilder::describe(const std::string &paragraph) {
  if (!header_.empty())
    header_ += "\n";
  header_ += paragraph;
}

Location StageBuilder::loc(llvm::StringRef name) {
  return NameLoc::get(StringAttr::get(context_, partName(name)));
}

Expr StageBuilder::axis(llvm::StringRef name, int64_t size) {
  std::string declared = axisPrefix_ + name.str();
  for (const NamedAttribute &a : axes_)
    if (a.getName() == declared && error_.empty())
      error_ = "axis " + declared + " is declared twice";
  axes_.push_back(builder_.getNamedAttr(declared, builder_.getI64IntegerAttr(size)));
  if (!axisPrefix_.empty())
    partAxes_.insert(name.str());
  return Expr::axis(name.str()); // map() renames it in a part
}

void StageBuilder::beginPart(llvm::StringRef axisPrefix, llvm::StringRef namePrefix,
                             llvm::StringMap<Value> bound) {
  axisPrefix_ = axisPrefix.str();
  namePrefix_ = namePrefix.str();
  partAxes_.clear();
  bound_ = std::move(bound);
}

mapping::AxisEnv StageBuilder::axisEnv() const {
  mapping::AxisEnv env;
  for (const NamedAttribute &a : axes_)
    env.add(a.getName().str(), llvm::cast<IntegerAttr>(a.getValue()).getInt());
  return env;
}

Type StageBuilder::dmOuter(llvm::StringRef alias, Type element, const Expr &cluster,
                           const Expr &slice, const Expr &elem) {
  auto raw = [&](const Expr &e) { return tcp::MappingAttr::get(context_, e); };
  return named(alias, tcp::DmType::get(context_, element, raw(cluster), raw(slice), raw(elem)));
}

Value StageBuilder::argumentNamed(llvm::StringRef name) const {
  for (size_t i = 0; i < argAttrs_.size(); ++i)
    if (auto n = argAttrs_[i].getAs<StringAttr>("tcp.name"); n && n.getValue() == name)
      return body_->getArgument(static_cast<unsigned>(i));
  return Value();
}

Type StageBuilder::bf16() { return builder_.getBF16Type(); }
Type StageBuilder::f32() { return builder_.getF32Type(); }
Type StageBuilder::i32() { return builder_.getI32Type(); }

tcp::MappingAttr StageBuilder::map(const Expr &expr) {
  if (partAxes_.empty())
    return tcp::MappingAttr::get(context_, expr);
  // In a part, each axis name of the part's own takes its prefix.
  const std::string &text = expr.str();
  std::string renamed;
  for (size_t i = 0; i < text.size();) {
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
      ++j;
    if (j == i) {
      renamed += text[i++];
      continue;
    }
    std::string word = text.substr(i, j - i);
    renamed += partAxes_.count(word) ? axisPrefix_ + word : word;
    i = j;
  }
  return tcp::MappingAttr::get(context_, llvm::StringRef(renamed));
}

Type StageBuilder::named(llvm::StringRef alias, Type type) {
  auto *dialect = context_->getLoadedDialect<tcp::TcpDialect>();
  if (dialect->getTypeAlias(type).empty())
    dialect->setTypeAlias(type, partName(alias));
  return type;
}

Type StageBuilder::hbm(llvm::StringRef alias, Type element, const Expr &elem) {
  return named(alias, tcp::HbmType::get(context_, element, map(elem)));
}

Type StageBuilder::dm(llvm::StringRef alias, Type element, const Expr &cluster, const Expr &slice,
                      const Expr &elem) {
  return named(alias, tcp::DmType::get(context_, element, map(cluster), map(slice), map(elem)));
}

Type StageBuilder::stream(llvm::StringRef alias, Type element, const Expr &cluster,
                          const Expr &slice, const Expr &time, const Expr &packet) {
  return named(alias, tcp::StreamType::get(context_, element, map(cluster), map(slice), map(time),
                                           map(packet)));
}

Type StageBuilder::trf(llvm::StringRef alias, Type element, const Expr &cluster, const Expr &slice,
                       const Expr &lane, const Expr &elem) {
  return named(alias, tcp::TrfType::get(context_, element, map(cluster), map(slice), map(lane),
                                        map(elem)));
}

Type StageBuilder::vrf(llvm::StringRef alias, Type element, const Expr &cluster, const Expr &slice,
                       const Expr &elem) {
  return named(alias, tcp::VrfType::get(context_, element, map(cluster), map(slice), map(elem)));
}

Value StageBuilder::argument(llvm::StringRef name, Type type, llvm::StringRef kind) {
  if (auto bound = bound_.find(name); bound != bound_.end() && kind == "in")
    return bound->second.getType() == type ? bound->second
                                           : view(name, bound->second, 0, type);
  if (argumentNamed(name) && error_.empty())
    error_ = "argument " + name.str() + " is declared twice";
  argTypes_.push_back(type);
  argAttrs_.push_back(builder_.getDictionaryAttr(
      {builder_.getNamedAttr("tcp.arg", builder_.getStringAttr(kind)),
       builder_.getNamedAttr("tcp.name", builder_.getStringAttr(name))}));
  return body_->addArgument(type, loc(name));
}

Value StageBuilder::input(llvm::StringRef name, Type type) { return argument(name, type, "in"); }
Value StageBuilder::output(llvm::StringRef name, Type type) { return argument(name, type, "out"); }
Value StageBuilder::inout(llvm::StringRef name, Type type) { return argument(name, type, "inout"); }

Value StageBuilder::dma(llvm::StringRef name, Value source, Type result) {
  return builder_.create<tcp::DmaOp>(loc(name), TypeRange{result}, source, Value()).getResult();
}

void StageBuilder::dmaInto(Value source, Value dest) {
  builder_.create<tcp::DmaOp>(loc("dma"), TypeRange{}, source, dest);
}

Value StageBuilder::dmaGather(llvm::StringRef name, Value source, Value offsets, Type result) {
  return builder_.create<tcp::DmaGatherOp>(loc(name), result, source, offsets);
}

void StageBuilder::dmaScatter(Value source, Value dest, Value offsets) {
  builder_.create<tcp::DmaScatterOp>(loc("scatter"), source, dest, offsets);
}

Value StageBuilder::view(llvm::StringRef name, Value source, int64_t offset, Type result) {
  return builder_.create<tcp::ViewOp>(loc(name), result, source, offset);
}

Value StageBuilder::dmView(llvm::StringRef name, Value source, int64_t offset,
                           std::optional<int64_t> slices, Type result) {
  IntegerAttr slicesAttr = slices ? builder_.getI64IntegerAttr(*slices) : IntegerAttr();
  return builder_.create<tcp::DmViewOp>(loc(name), result, source,
                                        builder_.getI64IntegerAttr(offset), slicesAttr);
}

Value StageBuilder::dmJoin(llvm::StringRef name, ValueRange parts, Type result) {
  return builder_.create<tcp::DmJoinOp>(loc(name), result, parts);
}

Value StageBuilder::reinterpret(llvm::StringRef name, Value source, Type result) {
  return builder_.create<tcp::ReinterpretOp>(loc(name), result, source);
}

Value StageBuilder::fetch(llvm::StringRef name, tcp::Context context, Value source, Type result) {
  return builder_.create<tcp::FetchOp>(loc(name), result, context, source);
}

Value StageBuilder::collect(llvm::StringRef name, Value stream) {
  return builder_.create<tcp::CollectOp>(loc(name), stream.getType(), stream);
}

Value StageBuilder::switchOp(llvm::StringRef name, tcp::SwitchMode mode, Value input, Type result) {
  return builder_.create<tcp::SwitchOp>(loc(name), result, mode, input);
}

Value StageBuilder::transpose(llvm::StringRef name, Value input, Type result) {
  return builder_.create<tcp::TransposeOp>(loc(name), result, input);
}

Value StageBuilder::vector(llvm::StringRef name, Value input, const std::vector<Step> &steps,
                           Type result) {
  SmallVector<Attribute> names, operands, addends;
  SmallVector<Value> vrfs;
  for (const Step &step : steps) {
    names.push_back(builder_.getStringAttr(step.name));
    Attribute operand = builder_.getUnitAttr();
    switch (step.operand) {
    case Step::Operand::None:
      break;
    case Step::Operand::Float:
      operand = builder_.getF32FloatAttr(step.value);
      break;
    case Step::Operand::Int:
      operand = builder_.getI32IntegerAttr(step.integer);
      break;
    case Step::Operand::Stash:
      operand = builder_.getStringAttr("stash");
      break;
    case Step::Operand::Vrf:
      operand = builder_.getStringAttr("vrf");
      vrfs.push_back(step.vrf);
      break;
    }
    operands.push_back(operand);
    addends.push_back(step.addend ? Attribute(builder_.getF32FloatAttr(*step.addend))
                                  : Attribute(builder_.getUnitAttr()));
  }
  return builder_.create<tcp::VectorOp>(loc(name), result ? result : input.getType(), input, vrfs,
                                        builder_.getArrayAttr(names),
                                        builder_.getArrayAttr(operands),
                                        builder_.getArrayAttr(addends));
}

Value StageBuilder::cast(llvm::StringRef name, Value input, Type result) {
  return builder_.create<tcp::CastOp>(loc(name), result, input);
}

Value StageBuilder::commit(llvm::StringRef name, Value input, Type result, bool castToBf16) {
  return builder_.create<tcp::CommitOp>(loc(name), result, input, castToBf16);
}

Value StageBuilder::toTrf(llvm::StringRef name, Value input, Type result, llvm::StringRef region) {
  StringAttr regionAttr = region.empty() ? StringAttr() : builder_.getStringAttr(region);
  return builder_.create<tcp::ToTrfOp>(loc(name), result, input, regionAttr);
}

Value StageBuilder::trfJoin(llvm::StringRef name, Value even, Value odd, Type result) {
  return builder_.create<tcp::TrfJoinOp>(loc(name), result, even, odd);
}

Value StageBuilder::toVrf(llvm::StringRef name, Value input, Type result) {
  return builder_.create<tcp::ToVrfOp>(loc(name), result, input);
}

Value StageBuilder::vrfView(llvm::StringRef name, Value source, int64_t offset, Type result) {
  return builder_.create<tcp::VrfViewOp>(loc(name), result, source, offset);
}

Value StageBuilder::contract(llvm::StringRef name, Value input, Value weights, int64_t pack,
                             Type result, bool sequential) {
  return builder_.create<tcp::ContractOp>(loc(name), result, input, weights, pack, sequential);
}

llvm::Expected<OwningOpRef<ModuleOp>> StageBuilder::finish() {
  builder_.create<func::ReturnOp>(loc("return"));
  auto func = llvm::cast<func::FuncOp>(body_->getParentOp());
  func.setFunctionType(builder_.getFunctionType(argTypes_, {}));
  SmallVector<Attribute> argAttrs(argAttrs_.begin(), argAttrs_.end());
  func.setAllArgAttrs(argAttrs);
  (*module_)->setAttr(tcp::kAxesAttrName, builder_.getDictionaryAttr(axes_));
  if (target_.name != defaultTarget().name)
    (*module_)->setAttr(tcp::kTargetAttrName, builder_.getStringAttr(target_.name));

  if (!error_.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), stage_ + ": " + error_);
  std::string messages;
  llvm::raw_string_ostream os(messages);
  ScopedDiagnosticHandler handler(context_, [&](Diagnostic &diag) {
    os << stage_ << ": generated module does not verify: " << diag << "\n";
    for (Diagnostic &note : diag.getNotes())
      os << "  note: " << note << "\n";
    return success();
  });
  if (failed(verify(*module_)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), messages);
  return std::move(module_); // NOLINT: OwningOpRef converts to Expected
}

} // namespace rngd::placement
