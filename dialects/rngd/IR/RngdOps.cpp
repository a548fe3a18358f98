// Parsers and printers of the rngd text form. The grammar is fixed by docs/isa.md and is the
// same that `rngd-dump` prints (runtime/src/Printer.cpp); a lit test round-trips both.
#include "dialects/rngd/IR/RngdDialect.h"

#include "rngd/Isa.h"
#include "rngd/machine/TargetModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace rngd;

#include "dialects/rngd/IR/RngdEnums.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/rngd/IR/RngdOps.cpp.inc"

namespace {

IntegerAttr i64(OpAsmParser &parser, int64_t v) {
  return parser.getBuilder().getI64IntegerAttr(v);
}

/// An unsigned 64-bit number, decimal or 0x-hex, stored bit-for-bit in an i64 attribute.
ParseResult parseU64(OpAsmParser &parser, OperationState &result, StringRef name) {
  uint64_t v = 0;
  if (parser.parseInteger(v))
    return failure();
  result.addAttribute(name, i64(parser, static_cast<int64_t>(v)));
  return success();
}

ParseResult parseI64(OpAsmParser &parser, OperationState &result, StringRef name) {
  int64_t v;
  if (parser.parseInteger(v))
    return failure();
  result.addAttribute(name, i64(parser, v));
  return success();
}

ParseResult parseKeywordThenI64(OpAsmParser &parser, OperationState &result, StringRef kw) {
  return failure(parser.parseKeyword(kw) || parseI64(parser, result, kw));
}

ParseResult parseI64List(OpAsmParser &parser, SmallVectorImpl<int64_t> &out) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

ParseResult parseContext(OpAsmParser &parser, OperationState &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef ctx;
  if (parser.parseKeyword(&ctx))
    return failure();
  std::optional<Context> context = symbolizeContext(ctx);
  if (!context)
    return parser.emitError(loc, "context must be `main` or `sub`, got `") << ctx << "`";
  result.addAttribute("context", ContextAttr::get(parser.getContext(), *context));
  return success();
}

/// The optional `bank N` after a load's or an exec's context (bank 0 when absent).
ParseResult parseBank(OpAsmParser &parser, OperationState &result) {
  int64_t bank = 0;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("bank")) && parser.parseInteger(bank))
    return failure();
  auto ctx = cast<ContextAttr>(result.attributes.get("context")).getValue();
  int64_t banks = ctx == Context::main ? rngd::isa::kMainBanks : 1;
  if (bank < 0 || bank >= banks)
    return parser.emitError(loc, "register bank ")
           << bank << " of the " << stringifyContext(ctx) << " context, which has " << banks;
  if (bank)
    result.addAttribute("bank", parser.getBuilder().getI64IntegerAttr(bank));
  return success();
}

void printBank(OpAsmPrinter &p, int64_t bank) {
  if (bank)
    p << " bank " << bank;
}

std::string hex(int64_t v) { return "0x" + llvm::utohexstr(static_cast<uint64_t>(v), true); }

void printList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << "[";
  llvm::interleaveComma(values, p);
  p << "]";
}

/// The exec unit names in bit order, from the ISA table.
SmallVector<std::pair<unsigned, StringRef>> unitNames() {
  SmallVector<std::pair<unsigned, StringRef>> names;
  for (unsigned bit = 0; bit < 16; ++bit)
    if (const char *name = rngd::isa::unitBitName(bit))
      names.push_back({bit, name});
  return names;
}

} // namespace

//===----------------------------------------------------------------------===//
// rngd.executable
//===----------------------------------------------------------------------===//

ParseResult ExecutableOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  std::string target, compiler;
  Builder &b = parser.getBuilder();
  if (parser.parseSymbolName(name, mlir::SymbolTable::getSymbolAttrName(), result.attributes) ||
      parser.parseKeyword("target") || parser.parseString(&target) ||
      parser.parseKeyword("hash") || parseU64(parser, result, "target_hash") ||
      parser.parseKeyword("compiler") || parser.parseString(&compiler) ||
      parseKeywordThenI64(parser, result, "flags") ||
      parseKeywordThenI64(parser, result, "makespan") ||
      parseKeywordThenI64(parser, result, "hbm"))
    return failure();
  result.addAttribute("target", b.getStringAttr(target));
  result.addAttribute("compiler", b.getStringAttr(compiler));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ExecutableOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  p << " target \"" << getTarget() << "\" hash " << hex(getTargetHash()) << " compiler \""
    << getCompiler() << "\" flags " << getFlags() << " makespan " << getMakespan() << " hbm "
    << getHbm() << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false, /*printBlockTerminators=*/false);
}

RegionKind ExecutableOp::getRegionKind(unsigned) { return RegionKind::Graph; }

/// The machine the executable enclosing `op` is compiled for; nullptr (after an error at `op`)
/// when its target is not one this build knows.
static const rngd::TargetModel *targetOf(Operation *op) {
  auto exe = op->getParentOfType<ExecutableOp>();
  const rngd::TargetModel *t = exe ? rngd::findTarget(exe.getTarget().str()) : nullptr;
  if (!t)
    op->emitOpError("is not inside an executable for a known target");
  return t;
}

LogicalResult ExecutableOp::verify() {
  const rngd::TargetModel *target = rngd::findTarget(getTarget().str());
  if (!target) {
    auto diag = emitOpError("target '") << getTarget() << "' is not one rngdc knows (";
    return diag << rngd::targetNames() << ")";
  }
  std::string unfit = rngd::isa::checkTargetEncoding(*target);
  if (!unfit.empty())
    return emitOpError(unfit);
  // Records precede commands, each kind in index order, as in the file.
  int stage = 0;
  int64_t nextDescriptor = 0, nextConfig = 0;
  for (Operation &op : getBody().front()) {
    int opStage = llvm::isa<ArgOp>(op)          ? 0
                  : llvm::isa<DescriptorOp>(op) ? 1
                  : llvm::isa<ConfigOp>(op)     ? 2
                                                : 3;
    if (opStage < stage)
      return op.emitOpError("out of order: an executable lists args, then descriptors, then "
                            "configs, then command words");
    stage = opStage;
    if (auto d = dyn_cast<DescriptorOp>(op)) {
      auto index = static_cast<int64_t>(d.getIndex());
      if (index != nextDescriptor++)
        return d.emitOpError("descriptor index ") << index << " out of sequence";
    } else if (auto c = dyn_cast<ConfigOp>(op)) {
      auto index = static_cast<int64_t>(c.getIndex());
      if (index != nextConfig++)
        return c.emitOpError("config index ") << index << " out of sequence";
    } else if (auto l = dyn_cast<LoadOp>(op)) {
      auto config = static_cast<int64_t>(l.getConfig());
      if (config < 0 || config >= nextConfig)
        return l.emitOpError("loads config ") << config << ", which does not exist";
    } else if (auto m = dyn_cast<DmaOp>(op)) {
      auto descriptor = static_cast<int64_t>(m.getDescriptor());
      if (descriptor < 0 || descriptor >= nextDescriptor)
        return m.emitOpError("starts descriptor ") << descriptor << ", which does not exist";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// rngd.arg @name kind dtype [shape] "mapping" offset N bytes N
//===----------------------------------------------------------------------===//

ParseResult ArgOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  StringRef kind, dtype;
  std::string mapping;
  SmallVector<int64_t> shape;
  Builder &b = parser.getBuilder();
  if (parser.parseSymbolName(name, mlir::SymbolTable::getSymbolAttrName(), result.attributes) ||
      parser.parseKeyword(&kind) || parser.parseKeyword(&dtype) ||
      parseI64List(parser, shape) || parser.parseString(&mapping) ||
      parseKeywordThenI64(parser, result, "offset") ||
      parseKeywordThenI64(parser, result, "bytes"))
    return failure();
  result.addAttribute("kind", b.getStringAttr(kind));
  result.addAttribute("dtype", b.getStringAttr(dtype));
  result.addAttribute("shape", b.getDenseI64ArrayAttr(shape));
  result.addAttribute("mapping", b.getStringAttr(mapping));
  return success();
}

void ArgOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  p << " " << getKind() << " " << getDtype() << " ";
  printList(p, getShape());
  p << " \"" << getMapping() << "\" offset " << getOffset() << " bytes " << getBytes();
}

//===----------------------------------------------------------------------===//
// rngd.descriptor I engine E src A dst A packet N limits [..] src_strides [..] dst_strides [..]
//   [gather|scatter index A count N loop K]: the fields of rngd/IsaDescriptor.def
//===----------------------------------------------------------------------===//

namespace {

using rngd::isa::DescriptorField;
using rngd::isa::DescriptorText;

/// `keyword value` (or `keyword [values]`) into the attribute named after the field.
ParseResult parseDescriptorField(OpAsmParser &parser, OperationState &result,
                                 const DescriptorField &f) {
  if (parser.parseKeyword(f.keyword))
    return failure();
  if (f.text == DescriptorText::List) {
    SmallVector<int64_t> values;
    if (parseI64List(parser, values))
      return failure();
    result.addAttribute(f.name, parser.getBuilder().getDenseI64ArrayAttr(values));
    return success();
  }
  if (rngd::isa::textHex(f.text))
    return parseU64(parser, result, f.name);
  return parseI64(parser, result, f.name);
}

} // namespace

ParseResult DescriptorOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parseI64(parser, result, "index"))
    return failure();
  for (const DescriptorField &f : rngd::isa::kDescriptorFields)
    if (rngd::isa::textAlways(f.text) && parseDescriptorField(parser, result, f))
      return failure();
  SmallVector<StringRef> kinds; // kind k's keyword at k - 1: kind 0 has none
  for (uint32_t k = 1; rngd::isa::dmaKindKeyword(k); ++k)
    kinds.push_back(rngd::isa::dmaKindKeyword(k));
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword, kinds)))
    return success();
  for (const DescriptorField &f : rngd::isa::kDescriptorFields)
    if (f.text == DescriptorText::Kind)
      result.addAttribute(f.name, i64(parser, llvm::find(kinds, keyword) - kinds.begin() + 1));
  for (const DescriptorField &f : rngd::isa::kDescriptorFields)
    if (rngd::isa::textIndirect(f.text) && parseDescriptorField(parser, result, f))
      return failure();
  return success();
}

void DescriptorOp::print(OpAsmPrinter &p) {
  p << " " << getIndex() << " " << rngd::isa::formatDescriptor(getDescriptorValues());
}

rngd::isa::DescriptorValues DescriptorOp::getDescriptorValues() {
  rngd::isa::DescriptorValues v;
  std::optional<int64_t> loops; // the first array's length
  size_t loopsRow = 0;
  for (size_t r = 0; r < rngd::isa::kDescriptorFieldCount; ++r) {
    const DescriptorField &f = rngd::isa::kDescriptorFields[r];
    Attribute a = (*this)->getAttr(f.name);
    if (f.text == DescriptorText::Loops) {
      loopsRow = r;
    } else if (auto list = dyn_cast_or_null<DenseI64ArrayAttr>(a)) {
      v[r].assign(list.asArrayRef().begin(), list.asArrayRef().end());
      loops = loops.value_or(static_cast<int64_t>(v[r].size()));
    } else {
      auto one = dyn_cast_or_null<IntegerAttr>(a);
      v[r] = {one ? one.getInt() : 0}; // absent: a default-valued field, 0
    }
  }
  v[loopsRow] = {loops.value_or(0)};
  return v;
}

rngd::isa::Descriptor DescriptorOp::getIsaDescriptor() {
  return rngd::isa::descriptorFromValues(getDescriptorValues());
}

LogicalResult DescriptorOp::verify() {
  // The text form's numbers are wider than the fields: each must fit its bytes first.
  std::string why;
  rngd::isa::DescriptorValues values = getDescriptorValues();
  if (!rngd::isa::checkDescriptorValues(values, why))
    return emitOpError(why);
  const rngd::TargetModel *target = targetOf(*this);
  if (!target)
    return failure();
  if (!rngd::isa::checkDescriptor(*target, rngd::isa::descriptorFromValues(values), why))
    return emitOpError(why);
  return success();
}

//===----------------------------------------------------------------------===//
// rngd.config I unit {field = v, array = [v, ...], ...}
//===----------------------------------------------------------------------===//

ParseResult ConfigOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringRef unitName;
  if (parseI64(parser, result, "index"))
    return failure();
  llvm::SMLoc unitLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&unitName))
    return failure();
  const rngd::isa::UnitSpec *spec = rngd::isa::findUnit(unitName.str());
  if (!spec)
    return parser.emitError(unitLoc, "unknown config unit `") << unitName << "`";
  if (succeeded(parser.parseOptionalKeyword("words"))) {
    uint64_t mask = 0;
    if (parser.parseInteger(mask))
      return failure();
    result.addAttribute("words", b.getI64IntegerAttr(static_cast<int64_t>(mask)));
  }
  SmallVector<int64_t> values;
  size_t field = 0;
  bool wide = false; // 64-bit fields are unsigned bit patterns, others signed decimals
  auto parseValue = [&]() -> ParseResult {
    if (wide) {
      uint64_t v = 0;
      if (parser.parseInteger(v))
        return failure();
      values.push_back(static_cast<int64_t>(v));
      return success();
    }
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    values.push_back(v);
    return success();
  };
  auto parseField = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    if (field >= spec->fields.size() || name != spec->fields[field].name)
      return parser.emitError(loc, "unit `")
             << unitName << "` expects field `"
             << (field < spec->fields.size() ? spec->fields[field].name : "}") << "` here, got `"
             << name << "`";
    const rngd::isa::FieldSpec &f = spec->fields[field++];
    wide = f.bits == 64;
    if (f.count == 1)
      return parseValue();
    size_t before = values.size();
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseValue))
      return failure();
    if (values.size() - before != f.count)
      return parser.emitError(loc, "field `")
             << f.name << "` has " << f.count << " entries, got " << (values.size() - before);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Braces, parseField))
    return failure();
  if (field != spec->fields.size())
    return parser.emitError(parser.getCurrentLocation(), "unit `")
           << unitName << "` is missing field `" << spec->fields[field].name << "`";
  result.addAttribute("unit", b.getStringAttr(unitName));
  result.addAttribute("values", b.getDenseI64ArrayAttr(values));
  return success();
}

void ConfigOp::print(OpAsmPrinter &p) {
  p << " " << getIndex() << " " << getUnit();
  if (auto mask = getWords())
    p << " words " << hex(static_cast<int64_t>(*mask));
  p << " {";
  const rngd::isa::UnitSpec *spec = rngd::isa::findUnit(getUnit().str());
  ArrayRef<int64_t> values = getValues();
  size_t k = 0;
  for (auto [i, f] : llvm::enumerate(spec->fields)) {
    p << (i ? ", " : "") << f.name << " = ";
    auto printOne = [&](int64_t v) {
      if (f.bits == 64)
        p << hex(v);
      else
        p << v;
    };
    if (f.count == 1) {
      printOne(values[k++]);
      continue;
    }
    p << "[";
    for (unsigned j = 0; j < f.count; ++j) {
      if (j)
        p << ", ";
      printOne(values[k++]);
    }
    p << "]";
  }
  p << "}";
}

LogicalResult ConfigOp::verify() {
  const rngd::isa::UnitSpec *spec = rngd::isa::findUnit(getUnit().str());
  if (!spec)
    return emitOpError("unknown config unit `") << getUnit() << "`";
  if (getValues().size() != rngd::isa::valueCount(*spec))
    return emitOpError("unit `") << getUnit() << "` has " << rngd::isa::valueCount(*spec)
                                 << " values, got " << getValues().size();
  std::vector<uint64_t> words;
  std::string why;
  const rngd::TargetModel *target = targetOf(*this);
  if (!target)
    return failure();
  std::vector<int64_t> values(getValues().begin(), getValues().end());
  if (!rngd::isa::packBlock(*spec, values, words, why) ||
      !rngd::isa::validateBlock(*target, *spec, values, why))
    return emitOpError(why);
  if (auto mask = getWords())
    if (std::string bad = rngd::isa::checkPartialMask(*spec, static_cast<uint64_t>(*mask));
        !bad.empty())
      return emitOpError(bad);
  return success();
}

//===----------------------------------------------------------------------===//
// Command words
//===----------------------------------------------------------------------===//

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  return failure(parseI64(parser, result, "config") || parseContext(parser, result) ||
                 parseBank(parser, result));
}

void LoadOp::print(OpAsmPrinter &p) {
  p << " " << getConfig() << " " << stringifyContext(getContext());
  printBank(p, getBank());
}

ParseResult ExecOp::parse(OpAsmParser &parser, OperationState &result) {
  int64_t units = 0;
  if (parseContext(parser, result) || parseBank(parser, result))
    return failure();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        llvm::SMLoc loc = parser.getCurrentLocation();
        StringRef name;
        if (parser.parseKeyword(&name))
          return failure();
        for (auto [bit, unit] : unitNames())
          if (name == unit) {
            units |= int64_t(1) << bit;
            return success();
          }
        return parser.emitError(loc, "unknown unit `") << name << "`";
      }))
    return failure();
  result.addAttribute("units", i64(parser, units));
  return success();
}

void ExecOp::print(OpAsmPrinter &p) {
  p << " " << stringifyContext(getContext());
  printBank(p, getBank());
  p << " [";
  bool first = true;
  for (auto [bit, unit] : unitNames())
    if (getUnits() & (int64_t(1) << bit)) {
      p << (first ? "" : ", ") << unit;
      first = false;
    }
  p << "]";
}

ParseResult WaitOp::parse(OpAsmParser &parser, OperationState &result) {
  if (succeeded(parser.parseOptionalKeyword("tag")))
    return parseI64(parser, result, "tag");
  return parseContext(parser, result);
}

void WaitOp::print(OpAsmPrinter &p) {
  if (getTag())
    p << " tag " << *getTag();
  else
    p << " " << stringifyContext(*getContext());
}

ParseResult DmaOp::parse(OpAsmParser &parser, OperationState &result) {
  return failure(parseI64(parser, result, "descriptor") ||
                 parseKeywordThenI64(parser, result, "tag"));
}

void DmaOp::print(OpAsmPrinter &p) { p << " " << getDescriptor() << " tag " << getTag(); }

//===----------------------------------------------------------------------===//
// Command words in their ISA form, checked against the ISA's field limits
//===----------------------------------------------------------------------===//

namespace {

rngd::isa::Context isaContext(Context c) {
  return c == Context::sub ? rngd::isa::Context::Sub : rngd::isa::Context::Main;
}

LogicalResult verifyCommand(Operation *op, const rngd::isa::Command &command) {
  std::string why;
  if (!rngd::isa::checkCommand(command, why))
    return op->emitOpError(why);
  return success();
}

} // namespace

rngd::isa::Command LoadOp::getCommand() {
  rngd::isa::Command c;
  c.opcode = rngd::isa::Opcode::Config;
  c.context = isaContext(getContext());
  c.bank = static_cast<int64_t>(getBank());
  c.index = static_cast<int64_t>(getConfig());
  return c;
}

rngd::isa::Command ExecOp::getCommand() {
  rngd::isa::Command c;
  c.opcode = rngd::isa::Opcode::Exec;
  c.context = isaContext(getContext());
  c.bank = static_cast<int64_t>(getBank());
  c.units = static_cast<int64_t>(getUnits());
  return c;
}

rngd::isa::Command WaitOp::getCommand() {
  rngd::isa::Command c;
  c.opcode = rngd::isa::Opcode::Wait;
  c.waitOnTag = getTag().has_value();
  if (getTag())
    c.tag = static_cast<int64_t>(*getTag());
  else if (getContext())
    c.context = isaContext(*getContext());
  return c;
}

rngd::isa::Command DmaOp::getCommand() {
  rngd::isa::Command c;
  c.opcode = rngd::isa::Opcode::Dma;
  c.index = static_cast<int64_t>(getDescriptor());
  c.tag = static_cast<int64_t>(getTag());
  return c;
}

LogicalResult LoadOp::verify() { return verifyCommand(*this, getCommand()); }
LogicalResult ExecOp::verify() { return verifyCommand(*this, getCommand()); }
LogicalResult DmaOp::verify() { return verifyCommand(*this, getCommand()); }

LogicalResult WaitOp::verify() {
  if (!getTag() == !getContext())
    return emitOpError("waits on either a context or a DMA tag");
  return verifyCommand(*this, getCommand());
}
