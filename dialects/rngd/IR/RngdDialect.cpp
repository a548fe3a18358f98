#include "dialects/rngd/IR/RngdDialect.h"

using namespace mlir;
using namespace rngd;

#include "dialects/rngd/IR/RngdDialect.cpp.inc"

void RngdDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/rngd/IR/RngdOps.cpp.inc"
      >();
}
