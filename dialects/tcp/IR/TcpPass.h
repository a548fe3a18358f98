// Plans of the tcp ops that touch memory: the DMA loop nest, a pass's fetch and commit
// sequencers, and the shape of a whole Tensor Unit pass. Verifiers, the scheduler and the
// lowering all ask these functions, so they agree by construction.
#pragma once

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"

#include "CostModel.h"

#include <optional>

namespace rngd::tcp {

struct DmaOpPlan {
  mapping::DmaPlan plan;
  DmaRoute route = DmaRoute::HbmToHbm;
  std::optional<DmLayout> dmSource, dmDest;   // set for the DM sides
  std::optional<HbmLayout> hbmSource, hbmDest; // set for the HBM sides
  int64_t cycles = 0;                          // dmaCycles of the plan
};
std::optional<DmaOpPlan> planDma(DmaOp op);
/// The DMA engine of a plan: the one local to its DM side (one per 64 slices), else 0.
int64_t dmaEngine(const DmaOpPlan &plan);

struct FetchPlan {
  DmLayout source;
  StreamLayout stream;
  mapping::Sequencer sequencer;
  bool cast = false;
};
std::optional<FetchPlan> planFetch(FetchOp op);

struct CommitPlan {
  DmLayout result;
  StreamLayout stream;
  mapping::Sequencer sequencer;
  int64_t writeBytes = 0;
};
std::optional<CommitPlan> planCommit(CommitOp op);

/// A Vector Engine step: its mnemonic, ALU, stage rank (pipeline order) and dtype.
struct VectorStepInfo {
  llvm::StringRef name;
  llvm::StringRef alu;
  int stage;
  bool isFloat;
};
const VectorStepInfo *findVectorStep(llvm::StringRef name);

/// The context of the pass an op belongs to (from its tcp.fetch).
Context passContext(mlir::Operation *op);

/// The ops of one Tensor Unit pass, from its commit back to its fetch.
struct TensorPassOps {
  FetchOp fetch;
  CollectOp collect;
  VectorOp vector; // may be null
  CastOp cast;     // may be null
  CommitOp commit;
};
TensorPassOps tensorPassOps(CommitOp commit);

/// The per-slice work of a verified pass, for the cost model.
TensorPassShape tensorPassShape(const TensorPassOps &ops, const FetchPlan &fetch,
                                const CommitPlan &commit);

} // namespace rngd::tcp
