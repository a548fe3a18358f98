// Plans of the tcp ops that touch memory: the DMA loop nest, a pass's fetch and commit
// sequencers, and the shape of a whole Tensor Unit pass. Verifiers, the scheduler and the
// lowering all ask these functions, so they agree by construction.
#pragma once

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"

#include "rngd/machine/CostModel.h"
#include "rngd/Isa.h"

#include <optional>

namespace rngd::tcp {

struct DmaOpPlan {
  const TargetModel *target = nullptr; // the module's (getTarget)
  mapping::DmaPlan plan;
  DmaRoute route = DmaRoute::HbmToHbm;
  std::optional<DmLayout> dmSource, dmDest;   // set for the DM sides
  std::optional<HbmLayout> hbmSource, hbmDest; // set for the HBM sides
  int64_t cycles = 0;                          // dmaCycles of the plan
  bool sourceOnEveryCluster = false; // DM to DM: every cluster holds the source's bytes
};
std::optional<DmaOpPlan> planDma(DmaOp op);
/// A gather or scatter: the row loop (outermost, `rows` iterations) takes its address term
/// on the HBM side from the offsets tensor; `dmRowStride` steps the DM side.
struct IndirectDmaPlan {
  DmaOpPlan dma;
  bool scatter = false;
  mlir::Value dmValue, hbmValue, offsetsValue; // the op's DM tensor, HBM tensor and offsets
  int64_t rows = 1;
  int64_t dmRowStride = 0;
  HbmLayout offsets;
};
std::optional<IndirectDmaPlan> planIndirectDma(mlir::Operation *op);

/// What a DMA moving `bytes` in total puts through HBM and into each cluster's DM (split over
/// the clusters of its DM destination in proportion to their slices).
DmaTraffic dmaTraffic(const DmaOpPlan &plan, int64_t bytes);

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
  bool cast = false; // f32 -> bf16 in the commit adapter
};
std::optional<CommitPlan> planCommit(CommitOp op);

/// What a Vector Engine step needs and does.
enum class StepKind { BinaryF, BinaryI, FmaF, UnaryF, ToF32, ToI32, ReduceF, InterF, Stash };
/// A tcp.vector step: the ALU and op that run it (rngd/IsaAlus.def). ALUs are numbered in
/// pipeline stage order, so steps run in increasing ALU id (Stash, not an ALU, anywhere).
struct VectorStepInfo {
  llvm::StringRef name;
  isa::Alu alu; // FpMul0 for mul_f; a second mul_f runs on FpMul1
  StepKind kind;
  isa::VectorOp op;
};
const VectorStepInfo *findVectorStep(llvm::StringRef name);

/// One step as the hardware runs it.
struct VectorStepPlan {
  const VectorStepInfo *info = nullptr;
  isa::Alu alu = isa::Alu::Stash;
  enum class Operand { None, Immediate, Vrf, Stash } operand = Operand::None;
  uint32_t imm = 0;    // raw bits (f32 or i32)
  uint32_t addend = 0; // raw f32 bits of fma_f's addend
};

struct VectorPlan {
  StreamLayout in, out;
  std::vector<VectorStepPlan> steps;
  // VRF operand indexing (docs/isa.md, vector unit).
  bool hasVrf = false;
  int64_t vrfFlitStride = 0, vrfElemStride = 0, vrfPeriod = 0;
  // Reductions.
  int64_t reduceSlots = 1;
  bool reduceTree = false;
  int64_t interGroup = 0; // slices per inter-slice group, 0 without
  int64_t floatAlus = 0, intAlus = 0;
};
std::optional<VectorPlan> planVector(VectorOp op);

struct ContractPlan {
  StreamLayout in, out;
  TrfLayout weights;
  int64_t pack = 1, lanes = 0, packetElems = 0, window = 0, slots = 1;
  bool integer = false;    // i8 x i8 -> i32
  bool sequential = false; // lane folder: one flit per lane instead of lanes in a flit
  struct Loop {
    int64_t size = 1, stream = 0, trf = 0, acc = 0; // strides: packets, bytes, slots
  };
  std::vector<Loop> loops; // outer to inner; loops [window, n) accumulate
  int64_t iterations() const;
};
std::optional<ContractPlan> planContract(ContractOp op);

struct SwitchPlan {
  StreamLayout in, out;
  int64_t slice1 = 1, slice0 = 1, time0 = 0, ring = 1;
  int64_t cycles = 0; // switchCycles()
};
std::optional<SwitchPlan> planSwitch(SwitchOp op);

struct TransposePlan {
  StreamLayout in, out;
  int64_t elemBytes = 0, inRows = 0, inCols = 0, outRows = 0, matrices = 0;
  int64_t cycles = 0; // transposeCycles()
};
std::optional<TransposePlan> planTranspose(TransposeOp op);

/// A pass ending in the Tensor or Vector Register File.
std::optional<TrfLayout> planToTrf(ToTrfOp op);
/// The tcp.trf_join that reads TRF tensor `v` as half of a whole, if any (its only reader).
TrfJoinOp joinOf(mlir::Value v);
/// The tcp.dm_join that `v` is a part of, if any (a part is read only there).
DmJoinOp dmJoinOf(mlir::Value v);
std::optional<VrfLayout> planToVrf(ToVrfOp op);

/// The context of the pass an op belongs to (from its tcp.fetch).
Context passContext(mlir::Operation *op);

/// The last op of the Tensor Unit pass `op` belongs to (itself outside passes): a tensor read
/// anywhere in a pass stays live until the pass ends, since its engines stream concurrently.
mlir::Operation *passEnd(mlir::Operation *op);

/// Each op of `block` numbered in program order, from 0.
llvm::DenseMap<mlir::Operation *, int64_t> programOrder(mlir::Block &block);

/// Where each DM tensor's live range starts, by defining op: its own index, except for a
/// tensor a tcp.dma brings from HBM: 0 under Prefetch::All, the definition of the previous
/// such tensor under Prefetch::Double. Its memory is then free from that point on, so
/// tcp-schedule may start the DMA there.
llvm::DenseMap<mlir::Operation *, int64_t>
liveStarts(mlir::Block &block, const llvm::DenseMap<mlir::Operation *, int64_t> &order,
           Prefetch prefetch);
/// The prefetch tcp-allocate-memory chose for `func` (its tcp.prefetch attribute).
Prefetch prefetchOf(mlir::Operation *func);

/// The program-order index of the last op that uses `v` (through its pass end and through
/// aliases: tcp.reinterpret, tcp.vrf_view). `order` numbers the ops of `block`.
int64_t lastUseOf(mlir::Value v, mlir::Block &block,
                  const llvm::DenseMap<mlir::Operation *, int64_t> &order);

/// Whether `op` ends a Tensor Unit pass (commit, to_trf, to_vrf).
bool isPassEnd(mlir::Operation *op);
/// Whether `op` is a DMA the scheduler issues (tcp.dma, tcp.dma_scatter, tcp.dma_gather).
bool isDmaUnit(mlir::Operation *op);

/// The ops of one Tensor Unit pass, from its end back to its fetch; optional stages are null.
struct TensorPassOps {
  FetchOp fetch;
  SwitchOp sw;
  CollectOp collect;
  ContractOp contract;
  VectorOp vector;
  CastOp cast;
  TransposeOp transpose;
  CommitOp commit;
  ToTrfOp toTrf;
  ToVrfOp toVrf;
  mlir::Operation *end = nullptr;
};
TensorPassOps tensorPassOps(mlir::Operation *end);

/// Everything the scheduler and the lowering need of one verified pass.
struct TensorPassPlan {
  TensorPassOps ops;
  FetchPlan fetch;
  std::optional<SwitchPlan> sw;
  std::optional<ContractPlan> contract;
  std::optional<VectorPlan> vector;
  std::optional<TransposePlan> transpose;
  std::optional<CommitPlan> commit;
  std::optional<TrfLayout> trf;
  std::optional<VrfLayout> vrf;
  TensorPassShape shape; // per-slice work for the cost model
};
std::optional<TensorPassPlan> planTensorPass(mlir::Operation *end);

} // namespace rngd::tcp
