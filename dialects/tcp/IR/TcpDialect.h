// The tcp dialect: types, ops and the helpers that resolve their mappings.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/tcp/IR/TcpDialect.h.inc"
#include "dialects/tcp/IR/TcpEnums.h.inc"

#include "dialects/tcp/IR/TcpAttrSupport.h"
#include "dialects/tcp/Mapping/Build.h"
#include "dialects/tcp/Mapping/Mapping.h"

namespace rngd::tcp::detail {
struct MappingAttrStorage; // defined in TcpAttrs.cpp: the text and its parsed syntax
} // namespace rngd::tcp::detail

#define GET_ATTRDEF_CLASSES
#include "dialects/tcp/IR/TcpAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tcp/IR/TcpTypes.h.inc"

namespace rngd::tcp {
/// Names the op's results after its location when that is a NameLoc (`%name`, `%name_0`, ...).
void nameResultsFromLocation(mlir::Operation *op, mlir::OpAsmSetValueNameFn setNameFn);
} // namespace rngd::tcp

#define GET_OP_CLASSES
#include "dialects/tcp/IR/TcpOps.h.inc"

namespace rngd {
struct TargetModel;
} // namespace rngd

namespace rngd::tcp {

constexpr llvm::StringLiteral kScheduleAttrName = "tcp.schedule";
constexpr llvm::StringLiteral kFinalWaitsAttrName = "tcp.final_waits";
constexpr llvm::StringLiteral kTargetAttrName = "tcp.target";
constexpr llvm::StringLiteral kAxesAttrName = "tcp.axes";
constexpr llvm::StringLiteral kMakespanAttrName = "tcp.makespan";
constexpr llvm::StringLiteral kPrefetchAttrName = "tcp.prefetch";

/// The memories tcp-allocate-memory places tensors in, each with its offset attribute.
enum class Memory { Dm, Trf, Vrf };
/// "tcp.dm_offset", "tcp.trf_offset", "tcp.vrf_offset": the byte offset of the tensor that the
/// op defines, the same in every slice (per lane for the TRF). The one spelling of the names.
llvm::StringLiteral offsetAttrName(Memory memory);
/// The offset tcp-allocate-memory gave `v` in `memory`; nullopt when it has none (not
/// allocated). A DM function argument (scheduler tests; kernels take HBM arguments) is at 0.
std::optional<int64_t> allocatedOffset(mlir::Value v, Memory memory);
void setAllocatedOffset(mlir::Operation *def, Memory memory, int64_t offset);

/// A quoted mapping text as a MappingAttr, parsed once; a syntax error is refused at the text
/// as "invalid <what>mapping ...". Null after an error.
MappingAttr parseMappingText(mlir::AsmParser &parser, llvm::StringRef what);

/// The schedule tcp-schedule set on a DMA or on a pass's last op; null when unscheduled.
ScheduleAttr getSchedule(mlir::Operation *op);
/// The waits that end the kernel, on its entry function; null when unscheduled.
FinalWaitsAttr getFinalWaits(mlir::Operation *func);

/// The target the op is compiled for: its module's `tcp.target` (a name findTarget knows),
/// rngd-1chip when the module names none. Every pass, verifier and emitter reads it here.
const TargetModel &getTarget(mlir::Operation *op);

} // namespace rngd::tcp
