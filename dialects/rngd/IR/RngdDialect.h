// The rngd dialect: the text form of a compiled kernel (one op per command word,
// descriptor and configuration block).
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"

#include "rngd/Isa.h"

#include "dialects/rngd/IR/RngdDialect.h.inc"
#include "dialects/rngd/IR/RngdEnums.h.inc"

#define GET_OP_CLASSES
#include "dialects/rngd/IR/RngdOps.h.inc"
