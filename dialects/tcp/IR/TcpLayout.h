// Resolving tcp types against the module's axes and the target model. Verifiers and the
// lowering call the same functions, so the lowering never meets a case the verifier let by.
#pragma once

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/Mapping/Mapping.h"
#include "rngd/machine/TargetModel.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>
#include <vector>

namespace rngd::tcp {

/// Bytes of a tcp element type (bf16, f32, i32, i8); 0 for anything else.
int64_t elementBytes(mlir::Type type);

/// The axes declared by the enclosing module's `tcp.axes`; emits an error on `op` if missing.
std::optional<mapping::AxisEnv> axisEnv(mlir::Operation *op);

/// Resolves one mapping of a type (parsed once, in its MappingAttr) against the module's axes;
/// on failure emits "invalid <what> mapping ..." on op.
std::optional<mapping::Mapping> resolveMapping(mlir::Operation *op, llvm::StringRef what,
                                               MappingAttr mapping,
                                               const mapping::AxisEnv &env);

struct HbmLayout {
  mapping::Mapping elem;
  int64_t elemBytes = 0;
  std::vector<std::string> axes;
  int64_t bytes() const { return elem.size() * elemBytes; }
  std::vector<mapping::Level> levels() const;
};

/// Placement of a DM tensor or of a stream's cluster/slice levels.
struct SpatialLayout {
  mapping::Mapping cluster;
  mapping::Mapping slice;
  /// Global slice ids that hold meaningful data (cluster * slicesPerCluster + slice).
  std::vector<int64_t> activeSlices(const TargetModel &t) const;
};

struct DmLayout {
  SpatialLayout spatial;
  mapping::Mapping elem;
  int64_t elemBytes = 0;
  std::vector<std::string> axes;
  int64_t bytesPerSlice() const { return elem.size() * elemBytes; }
  std::vector<mapping::Level> levels(const TargetModel &t) const;
};

struct StreamLayout {
  SpatialLayout spatial;
  mapping::Mapping time;
  mapping::Mapping packet;
  int64_t elemBytes = 0;
  int64_t packetBytes() const { return packet.size() * elemBytes; }
};

/// A Tensor Register File tensor: `lanes` lanes of `elem` on each slice.
struct TrfLayout {
  SpatialLayout spatial;
  mapping::Mapping lane;
  mapping::Mapping elem;
  int64_t elemBytes = 0;
  int64_t lanes() const { return lane.size(); }
  int64_t laneBytes() const { return elem.size() * elemBytes; }
};

/// A Vector Register File tensor.
struct VrfLayout {
  SpatialLayout spatial;
  mapping::Mapping elem;
  int64_t elemBytes = 0;
  int64_t bytes() const { return elem.size() * elemBytes; }
};

/// Resolve and check a type in the context of `op` (capacity, level sizes, coverage);
/// each emits a diagnostic on `op` naming the rule and the numbers when it fails.
std::optional<HbmLayout> resolveHbm(mlir::Operation *op, HbmType type);
std::optional<DmLayout> resolveDm(mlir::Operation *op, DmType type);
std::optional<StreamLayout> resolveStream(mlir::Operation *op, StreamType type);
std::optional<TrfLayout> resolveTrf(mlir::Operation *op, TrfType type);
std::optional<VrfLayout> resolveVrf(mlir::Operation *op, VrfType type);

using mapping::sameOrder; // same logical values at every position (Mapping.h)
/// `[a..., b...]` as one mapping.
mapping::Mapping concat(const mapping::Mapping &a, const mapping::Mapping &b);
/// Whether two placements put every cell on the same cluster and slice, however their
/// mappings are spelled ("[1 # 2, I / 8 % 32, I / 2 % 4]" places as "[1 # 2, I / 2 % 128]").
bool sameSpatial(const SpatialLayout &a, const SpatialLayout &b);
/// Whether two placements put data on the same global slices.
bool sameSlices(const TargetModel &t, const SpatialLayout &a, const SpatialLayout &b);
/// Whether every global slice `a` places data on is one of `b`'s.
bool slicesWithin(const TargetModel &t, const SpatialLayout &a, const SpatialLayout &b);

/// Fetch or commit sequencer of a pass reading/writing `buffer` in the stream's order.
/// `maxAccessBytes` is the context's access size (32 B main, 8 B sub).
std::optional<mapping::Sequencer> deriveTensorSequencer(mlir::Operation *op,
                                                        llvm::StringRef what,
                                                        const DmLayout &buffer,
                                                        const StreamLayout &stream,
                                                        int64_t maxAccessBytes);

/// The DMA plan between two placed tensors.
std::optional<mapping::DmaPlan> deriveTensorDma(mlir::Operation *op,
                                                const std::vector<mapping::Level> &src,
                                                const std::vector<mapping::Level> &dst,
                                                const std::vector<std::string> &axes,
                                                int64_t elemBytes);

} // namespace rngd::tcp
