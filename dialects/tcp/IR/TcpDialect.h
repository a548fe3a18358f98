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

#define GET_TYPEDEF_CLASSES
#include "dialects/tcp/IR/TcpTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/tcp/IR/TcpOps.h.inc"
