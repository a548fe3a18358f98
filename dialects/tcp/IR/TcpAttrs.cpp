// The tcp attributes: the schedule tcp-schedule writes and everything downstream reads, and
// the kernel's final waits. Their verifiers hold every rule that needs no context; the
// dialect's operation-attribute hook adds the ones that need the op and its target.
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpPlan.h"

#include "rngd/machine/TargetModel.h"
#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

namespace rngd::tcp::detail {
/// A MappingAttr's storage: its text (the uniquing key) and the syntax tree parsed from it
/// when the attribute is made, or the syntax error.
struct MappingAttrStorage : public mlir::AttributeStorage {
  using KeyTy = std::tuple<llvm::StringRef>;
  MappingAttrStorage(llvm::StringRef text, mapping::Syntax syntax, std::string error)
      : text(text), syntax(std::move(syntax)), error(std::move(error)) {}
  KeyTy getAsKey() const { return KeyTy(text); }
  bool operator==(const KeyTy &key) const { return std::get<0>(key) == text; }
  static llvm::hash_code hashKey(const KeyTy &key) { return llvm::hash_value(std::get<0>(key)); }
  static MappingAttrStorage *construct(mlir::AttributeStorageAllocator &allocator,
                                       KeyTy &&key) {
    llvm::StringRef text = allocator.copyInto(std::get<0>(key));
    mapping::Error err;
    std::optional<mapping::Syntax> syntax = mapping::Syntax::parse(text.str(), err);
    return new (allocator.allocate<MappingAttrStorage>()) MappingAttrStorage(
        text, syntax ? std::move(*syntax) : mapping::Syntax(), syntax ? "" : err.str());
  }
  llvm::StringRef text;
  mapping::Syntax syntax;
  std::string error;
};
} // namespace rngd::tcp::detail

#define GET_ATTRDEF_CLASSES
#include "dialects/tcp/IR/TcpAttrs.cpp.inc"

llvm::StringRef rngd::tcp::MappingAttr::getText() const { return getImpl()->text; }

const rngd::mapping::Syntax &rngd::tcp::MappingAttr::getSyntax() const {
  return getImpl()->syntax;
}

llvm::StringRef rngd::tcp::MappingAttr::getSyntaxError() const { return getImpl()->error; }

rngd::tcp::MappingAttr rngd::tcp::parseMappingText(AsmParser &parser, StringRef what) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string text;
  if (parser.parseString(&text))
    return {};
  auto mapping = MappingAttr::get(parser.getContext(), text);
  if (!mapping.getSyntaxError().empty()) {
    parser.emitError(loc, "invalid ") << what << "mapping \"" << text
                                      << "\": " << mapping.getSyntaxError();
    return {};
  }
  return mapping;
}

/// `#tcp.mapping<"text">`; the text's syntax is checked here.
Attribute rngd::tcp::MappingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  MappingAttr mapping = parseMappingText(parser, "");
  if (!mapping || parser.parseGreater())
    return {};
  return mapping;
}

void rngd::tcp::MappingAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getText() << "\">";
}

void TcpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/tcp/IR/TcpAttrs.cpp.inc"
      >();
}

namespace rngd::tcp {

//===----------------------------------------------------------------------===//
// List elements
//===----------------------------------------------------------------------===//

ParseResult parseListElement(AsmParser &parser, int64_t &value) {
  return parser.parseInteger(value);
}

ParseResult parseListElement(AsmParser &parser, Wait &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseOptionalKeyword(&word))
    return parser.emitError(loc, "expected a wait: `tag N`, `main` or `sub`");
  if (word == "tag") {
    value.on = Queue::tdma;
    return parser.parseInteger(value.tag);
  }
  if (word == "main" || word == "sub") {
    value = Wait::forContext(word == "main" ? Queue::main : Queue::sub);
    return success();
  }
  return parser.emitError(loc, "a wait is `tag N`, `main` or `sub`; there is no unit '")
         << word << "' to wait for";
}

ParseResult parseListElement(AsmParser &parser, ConfigUnit &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseOptionalKeyword(&word))
    return parser.emitError(loc, "expected a configuration unit's name");
  const isa::UnitSpec *spec = isa::findUnit(word.str());
  if (!spec)
    return parser.emitError(loc, "unknown configuration unit '") << word << "'";
  value.id = static_cast<uint32_t>(spec->unit);
  return success();
}

void printListElement(AsmPrinter &printer, int64_t value) { printer << value; }

void printListElement(AsmPrinter &printer, const Wait &value) {
  if (value.on == Queue::tdma)
    printer << "tag " << value.tag;
  else
    printer << stringifyQueue(value.on);
}

void printListElement(AsmPrinter &printer, ConfigUnit value) {
  const isa::UnitSpec *spec = isa::findUnit(static_cast<isa::Unit>(value.id));
  if (spec)
    printer << spec->name;
  else // only a builder can make one; print it so that parsing it back names the problem
    printer << "unit" << value.id;
}

FailureOr<bool> parseFlag(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(), "expected `true` or `false`");
}

ScheduleAttr getSchedule(Operation *op) {
  return op->getAttrOfType<ScheduleAttr>(kScheduleAttrName);
}

FinalWaitsAttr getFinalWaits(Operation *func) {
  return func->getAttrOfType<FinalWaitsAttr>(kFinalWaitsAttrName);
}

const TargetModel &getTarget(Operation *op) {
  auto module = llvm::isa<ModuleOp>(op) ? llvm::cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto name = module ? module->getAttrOfType<StringAttr>(kTargetAttrName) : StringAttr();
  const TargetModel *target = name ? findTarget(name.str()) : nullptr;
  return target ? *target : defaultTarget(); // an unknown name fails the module's verifier
}

} // namespace rngd::tcp

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

namespace {

LogicalResult verifyWaits(function_ref<InFlightDiagnostic()> emitError, ArrayRef<Wait> waits) {
  for (const Wait &w : waits)
    if (w.on == Queue::tdma && (w.tag < 0 || w.tag > int64_t(isa::kMaxTag)))
      return emitError() << "wait on tag " << w.tag << ": DMA tags are 0.." << isa::kMaxTag;
  return success();
}

} // namespace

LogicalResult FinalWaitsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     ArrayRef<Wait> waits) {
  return verifyWaits(emitError, waits);
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t order,
                                   Queue queue, int64_t start, int64_t end,
                                   ArrayRef<Wait> waits, IssueReason why, int64_t after,
                                   ArrayRef<int64_t> engines, ArrayRef<int64_t> tags,
                                   ArrayRef<int64_t> chunks, ArrayRef<int64_t> partStarts,
                                   ArrayRef<int64_t> partEnds, ArrayRef<int64_t> partAfter,
                                   int64_t bank, ArrayRef<int64_t> loadMasks,
                                   ArrayRef<ConfigUnit> earlyLoads, bool holdsDma,
                                   int64_t loadsBefore) {
  if (order < 0)
    return emitError() << "schedule order " << order << " is negative";
  if (start < 0 || end < start)
    return emitError() << "schedule interval [" << start << ", " << end
                       << "] must have 0 <= start <= end";
  if (failed(verifyWaits(emitError, waits)))
    return failure();
  if ((why == IssueReason::start) != (after < 0))
    return emitError() << "why = " << stringifyIssueReason(why) << " with after = " << after
                       << ": only the kernel's first unit (why = start) has no `after`";
  if (after >= order)
    return emitError() << "after = " << after << " names a unit issued at or after this one ("
                       << order << ")";
  if (queue != Queue::tdma) {
    if (!engines.empty() || !tags.empty() || !chunks.empty() || !partStarts.empty() ||
        !partEnds.empty() || !partAfter.empty())
      return emitError() << "a pass on " << stringifyQueue(queue)
                         << " has no DMA parts (engines, tags, chunks, part_*)";
    int64_t banks = queue == Queue::main ? isa::kMainBanks : 1;
    if (bank < 0 || bank >= banks)
      return emitError() << "bank " << bank << " on " << stringifyQueue(queue) << ": it has "
                         << banks << " register bank" << (banks == 1 ? "" : "s");
    for (int64_t mask : loadMasks)
      if (mask < 0)
        return emitError() << "load mask " << mask << " is negative";
    for (ConfigUnit u : earlyLoads)
      if (!isa::findUnit(static_cast<isa::Unit>(u.id)))
        return emitError() << "early_loads names configuration unit " << u.id
                           << ", which the ISA does not have";
    for (size_t i = 0; i < earlyLoads.size(); ++i)
      if (llvm::is_contained(earlyLoads.drop_front(i + 1), earlyLoads[i]))
        return emitError() << "early_loads names a unit twice";
    if (loadsBefore < -1 || loadsBefore >= order)
      return emitError() << "loads_before " << loadsBefore
                         << " names no earlier unit (-1 or 0.." << order - 1 << ")";
    return success();
  }
  if (bank != 0 || !loadMasks.empty() || !earlyLoads.empty() || holdsDma || loadsBefore != -1)
    return emitError() << "a DMA (queue = tdma) has no bank, load_masks, early_loads, "
                          "holds_dma or loads_before";
  if (engines.empty())
    return emitError() << "a DMA lists at least one engine";
  for (auto [name, list] : {std::pair<StringRef, ArrayRef<int64_t>>{"tags", tags},
                            {"part_starts", partStarts},
                            {"part_ends", partEnds},
                            {"part_after", partAfter}})
    if (list.size() != engines.size())
      return emitError() << name << " has " << list.size() << " entries for "
                         << engines.size() << " engines (one per descriptor)";
  for (size_t p = 0; p < engines.size(); ++p) {
    if (engines[p] < 0)
      return emitError() << "engine " << engines[p] << " is negative";
    if (tags[p] < 0 || tags[p] > int64_t(isa::kMaxTag))
      return emitError() << "tag " << tags[p] << ": DMA tags are 0.." << isa::kMaxTag;
    if (partStarts[p] < 0 || partEnds[p] < partStarts[p])
      return emitError() << "part " << p << " runs [" << partStarts[p] << ", " << partEnds[p]
                         << "]: it must have 0 <= start <= end";
    if (partAfter[p] < -1 || partAfter[p] >= order)
      return emitError() << "part_after " << partAfter[p] << " of part " << p
                         << " names no earlier unit (-1 or 0.." << order - 1 << ")";
  }
  for (int64_t c : chunks)
    if (c < 0)
      return emitError() << "chunk " << c << " is negative";
  return success();
}

//===----------------------------------------------------------------------===//
// Schedule attributes on ops: the rules that need the op or the target
//===----------------------------------------------------------------------===//

llvm::StringLiteral rngd::tcp::offsetAttrName(Memory memory) {
  switch (memory) {
  case Memory::Dm:
    return "tcp.dm_offset";
  case Memory::Trf:
    return "tcp.trf_offset";
  case Memory::Vrf:
    return "tcp.vrf_offset";
  }
  llvm_unreachable("a memory");
}

std::optional<int64_t> rngd::tcp::allocatedOffset(Value v, Memory memory) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return memory == Memory::Dm ? std::optional<int64_t>(0) : std::nullopt;
  if (auto attr = def->getAttrOfType<IntegerAttr>(offsetAttrName(memory)))
    return attr.getInt();
  return std::nullopt;
}

void rngd::tcp::setAllocatedOffset(Operation *def, Memory memory, int64_t offset) {
  def->setAttr(offsetAttrName(memory), Builder(def).getI64IntegerAttr(offset));
}

/// The allocation's attributes: an offset on an op defining a tensor of that memory, within
/// the memory; the prefetch on a function.
static LogicalResult verifyAllocation(Operation *op, NamedAttribute attr) {
  if (attr.getName() == kPrefetchAttrName) {
    if (!llvm::isa<func::FuncOp>(op) || !llvm::isa<PrefetchAttr>(attr.getValue()))
      return op->emitError(kPrefetchAttrName.str() + " is a function attribute, "
                           "#tcp<prefetch all> or #tcp<prefetch double>, got ")
             << attr.getValue();
    return success();
  }
  const TargetModel &t = getTarget(op);
  struct Kind {
    Memory memory;
    int64_t limit; // offsets below it
    bool (*holds)(Type);
  };
  // A DM offset may hold whole slice windows (a view on other slices, tcp.dm_view).
  const Kind kinds[] = {
      {Memory::Dm, t.dmSliceWindowBytes * t.totalSlices(),
       [](Type type) { return llvm::isa<DmType>(type); }},
      {Memory::Trf, t.trfBytesPerSlice, [](Type type) { return llvm::isa<TrfType>(type); }},
      {Memory::Vrf, t.vrfBytesPerSlice, [](Type type) { return llvm::isa<VrfType>(type); }}};
  for (const Kind &kind : kinds) {
    if (attr.getName() != offsetAttrName(kind.memory))
      continue;
    auto offset = dyn_cast<IntegerAttr>(attr.getValue());
    bool defines = op->getNumResults() == 1 && kind.holds(op->getResult(0).getType());
    int64_t limit = kind.limit;
    if (!offset || !offset.getType().isSignlessInteger(64) || !defines ||
        offset.getInt() < 0 || offset.getInt() >= limit)
      return op->emitError(attr.getName().str() + " is the i64 byte offset, 0.." +
                           std::to_string(limit - 1) + ", of the tensor an op defines in " +
                           "that memory, got ")
             << attr.getValue();
    return success();
  }
  return op->emitError("unknown tcp attribute `")
         << attr.getName().getValue() << "` (tcp.axes, tcp.target, tcp.makespan, "
         << "tcp.prefetch, tcp.final_waits, tcp.schedule, tcp.dm_offset, tcp.trf_offset, "
         << "tcp.vrf_offset)";
}

LogicalResult TcpDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() == kAxesAttrName || attr.getName() == kMakespanAttrName) {
    bool axes = attr.getName() == kAxesAttrName;
    bool ok = llvm::isa<ModuleOp>(op) &&
              (axes ? llvm::isa<DictionaryAttr>(attr.getValue())
                    : llvm::isa<IntegerAttr>(attr.getValue()));
    if (!ok)
      return op->emitError(attr.getName().str())
             << (axes ? " is a module attribute, a dictionary of axis sizes"
                      : " is a module attribute, the predicted cycles")
             << ", got " << attr.getValue();
    return success(); // the axes' sizes are checked where mappings resolve (axisEnv)
  }
  if (attr.getName() == kTargetAttrName) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!llvm::isa<ModuleOp>(op) || !name || !findTarget(name.str())) {
      auto diag = op->emitError(kTargetAttrName.str() + " is a module attribute naming a " +
                                "target (");
      diag << targetNames();
      return diag << "), got " << attr.getValue();
    }
    return success();
  }
  if (attr.getName() == kFinalWaitsAttrName) {
    if (!llvm::isa<FinalWaitsAttr>(attr.getValue()))
      return op->emitError(kFinalWaitsAttrName.str() + " must be a #tcp.final_waits<[...]>, got ")
             << attr.getValue();
    return success();
  }
  if (attr.getName() != kScheduleAttrName)
    return verifyAllocation(op, attr);
  auto sched = dyn_cast<ScheduleAttr>(attr.getValue());
  if (!sched)
    return op->emitError(kScheduleAttrName.str() + " must be a #tcp.schedule<...>, got ")
           << attr.getValue();
  bool dma = isDmaUnit(op);
  if (!dma && !isPassEnd(op))
    return op->emitError("only DMAs and the last op of a Tensor Unit pass are scheduled");
  if (dma != sched.isDma())
    return op->emitError(dma ? "a DMA" : "a Tensor Unit pass")
           << " scheduled on " << stringifyQueue(sched.getQueue()) << "; "
           << (dma ? "DMAs run on tdma" : "passes run on main or sub");
  const TargetModel &target = getTarget(op);
  for (int64_t e : sched.getEngines())
    if (e >= target.dmaEngines)
      return op->emitError("scheduled on DMA engine ")
             << e << ", but target " << target.name << " has " << target.dmaEngines
             << " (0.." << target.dmaEngines - 1 << ")";
  return success();
}
