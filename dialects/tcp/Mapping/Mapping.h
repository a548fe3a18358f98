// Mapping expressions over named logical axes, in the notation of the furiosa-opt book:
//   A            axis A, linearly                 [A, B]   pair, A major, B minor (nestable)
//   A / n        outer block index (ceil(A/n))    A % n    inner position (size n)
//   E # n        pad E to n cells                 E = n    view only the first n cells of E
//   1            a single cell (broadcast of axes the tensor does not have)
// Postfix operators apply left to right: `W # 155648 / 8192` is (W # 155648) / 8192.
// Plain C++ with no MLIR dependency: the compiler's verifiers and lowering and the host-side
// argument layout all use it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rngd::mapping {
namespace detail {
struct Term;
} // namespace detail

/// Declared axes and their sizes, e.g. {H = 1024, Q = 2048}.
class AxisEnv {
public:
  void add(const std::string &name, int64_t size);
  std::optional<int64_t> size(const std::string &name) const;
  const std::vector<std::pair<std::string, int64_t>> &axes() const { return axes_; }

private:
  std::vector<std::pair<std::string, int64_t>> axes_;
};

/// An error with the offending term, e.g. {"`H / 3`", "3 does not divide H = 1024"}.
/// The most cells a mapping or an axis may have (2^32): 30 times the largest tensor of the
/// Qwen3 stages (the 151,936 x 1,024 head), small enough that cell counts times element
/// bytes, strides and loop products stay far from int64 overflow, and that the checks which
/// visit every cell (a window's held end) stay within seconds.
constexpr int64_t kMaxCells = int64_t(1) << 32;

struct Error {
  std::string term;
  std::string message;
  std::string str() const { return term.empty() ? message : term + ": " + message; }
};

/// One digit of a flattened mapping, major to minor. Its value for a logical index is
///   v = ((axis value, padded to `axisPad` cells) / div) % count   (count cells are meaningful)
/// and it occupies `cells` >= min(count, view) positions; positions >= count are padding.
/// A constant factor (`1`, `1 # n`) has an empty axis name and count 1.
/// A factor is "top" when it holds the most significant digit of its axis (div x count >= axis
/// size, e.g. `A`, `A / 4`); for a top factor v = padded value / div (no wrap), count =
/// ceil(axis size / div) and the last block may be ragged. `= n` sets `view` (digit values
/// >= view are outside the view); `# n` after a split only adds padding cells.
struct Factor {
  std::string axis;     // empty for a constant
  int64_t axisPad = 0;  // cells of the axis after `A # n` (0 = the axis size, no padding)
  int64_t div = 1;
  int64_t count = 1;    // meaningful digit values
  int64_t cells = 1;    // positions occupied (after `# n` padding or `= n` view)
  std::string text;     // source text of the term, for diagnostics
  int64_t axisSize = 0; // size of `axis` in the AxisEnv at parse time (0 for a constant)
  int64_t view = 0;     // `= n` with n < count: only digit values < view are held (0 = none)

  bool isConstant() const { return axis.empty(); }
  bool isTop() const { return !axis.empty() && div * count >= axisSize; }
  /// Digit values actually held: min(count, view).
  int64_t visible() const { return view > 0 && view < count ? view : count; }
  /// Canonical text of this factor alone (see Mapping::str).
  std::string str() const;
};
/// Semantic equality (ignores `text`).
bool operator==(const Factor &a, const Factor &b);
inline bool operator!=(const Factor &a, const Factor &b) { return !(a == b); }

/// A mapping's text parsed into its syntax tree, without axis sizes: parsed once (the tcp
/// types hold it in a MappingAttr), then resolved against each module's axes (Mapping::resolve).
class Syntax {
public:
  /// The tree of `text`; a syntax error is an Error naming the term.
  static std::optional<Syntax> parse(const std::string &text, Error &err);
  const std::string &text() const { return text_; }

private:
  friend class Mapping;
  std::string text_;
  std::shared_ptr<const std::vector<detail::Term>> terms_;
};

class Mapping {
public:
  /// Gives a parsed mapping its axis sizes: an unknown axis, or a non-dividing / non-nesting
  /// operator, is an Error naming the term.
  static std::optional<Mapping> resolve(const Syntax &syntax, const AxisEnv &env, Error &err);
  /// Parses and resolves against the axes. Any syntax error, unknown axis, or non-dividing /
  /// non-nesting operator is an Error naming the term.
  static std::optional<Mapping> parse(const std::string &text, const AxisEnv &env, Error &err);
  /// The text as written with each run of whitespace (tabs, newlines) one space and none at
  /// the ends: how an executable's argument records the mapping its kernel wrote.
  static std::string spelling(const std::string &text);

  const std::vector<Factor> &factors() const { return factors_; }
  /// A mapping made of already-resolved factors (major to minor).
  static Mapping fromFactors(std::vector<Factor> factors);
  /// Canonical text (single spaces, brackets around pairs), reparses to the same mapping.
  std::string str() const;
  /// Number of cells (product of factor cells).
  int64_t size() const;
  /// Axes this mapping mentions, in first-mention order.
  std::vector<std::string> axes() const;

  /// Position of a logical index (one value per env axis name that this mapping uses; axes it
  /// does not use are ignored). Returns nullopt when the index lands outside a `= n` view.
  std::optional<int64_t> position(const std::vector<std::pair<std::string, int64_t>> &index) const;
  /// Inverse: the digit value of every factor at a position, or nullopt if it is padding.
  std::optional<std::vector<int64_t>> digits(int64_t position) const;
  /// Position stride of each factor: product of the `cells` of the factors minor to it.
  std::vector<int64_t> strides() const;
  /// One past the last position that holds a cell (the padding after it excluded): every
  /// factor at its last visible digit. Computed from the factors, not by visiting positions.
  int64_t heldEnd() const;

  bool operator==(const Mapping &o) const { return factors_ == o.factors_; }
  bool operator!=(const Mapping &o) const { return !(*this == o); }

private:
  std::vector<Factor> factors_;
};

/// A tensor's placement over several levels (e.g. cluster, slice, element) with the address
/// stride of one cell of each level, in bytes. For DM: cluster stride = 256 x slice window,
/// slice stride = slice window (4 MB), element stride = dtype bytes.
struct Level {
  Mapping mapping;
  int64_t cellStride = 0;
};

/// Checks that every axis in `tensorAxes` is covered exactly once over all levels (its factors
/// tile [0, size)) and that axes not in `tensorAxes` appear only in broadcast-capable levels.
/// `broadcastLevels[i]` says whether level i may replicate (spatial levels).
bool checkCoverage(const std::vector<Level> &levels, const std::vector<bool> &broadcastLevels,
                   const std::vector<std::string> &tensorAxes, const AxisEnv &env, Error &err);

/// Whether two mappings enumerate the same logical indices in the same order (padding cells
/// must coincide too), however they are factored: "I % 32" equals "[I / 8 % 4, I % 8]".
bool sameOrder(const Mapping &a, const Mapping &b);

/// Where the digits of `f` live in `buffer`: stride in cells of one step of f, or `absent`
/// when the buffer does not hold f's axis (broadcast: stride 0). Fails (nullopt) when the digits
/// are split over several buffer factors or only partly held.
struct FactorPlace {
  bool absent = false;
  int64_t stride = 0;
};
std::optional<FactorPlace> placeFactor(const Mapping &buffer, const Factor &f);

/// Splits an unpadded, unviewed axis factor into (outer, inner) with inner count `innerCount`
/// (which must divide count): `A / d` of count c becomes `A / (d*k)` (c/k) and `A / d % k`.
std::optional<std::pair<Factor, Factor>> splitFactor(const Factor &f, int64_t innerCount);

/// One loop of a derived address nest: `size` iterations, each moving `stride` bytes.
struct Loop {
  int64_t size = 1;
  int64_t stride = 0;
};
inline bool operator==(const Loop &a, const Loop &b) {
  return a.size == b.size && a.stride == b.stride;
}
/// "[8:32, 8:256, 16:1]" (book notation, outer to inner).
std::string str(const std::vector<Loop> &loops);

/// Merges adjacent loops (outer, inner) when outer.stride == inner.size * inner.stride, and
/// drops size-1 loops.
std::vector<Loop> mergeLoops(const std::vector<Loop> &loops);

/// Fetch/commit sequencer: the buffer (one slice's element mapping, `elemBytes` per cell) read
/// in stream order Time-major, Packet-minor. Each cycle moves one access of `accessBytes`
/// contiguous bytes (a power of two <= maxAccessBytes that divides the contiguous innermost
/// run and the packet); `loops` (<= maxEntries after merging) enumerate the accesses.
struct Sequencer {
  std::vector<Loop> loops;   // outer to inner, strides in bytes, over accesses
  int64_t accessBytes = 0;
  int64_t packetBytes = 0;   // stream packet bytes (= cells of `packet` x elemBytes)
  int64_t accesses() const;  // product of loop sizes
  std::string str() const;   // "[8:32, 8:256] : 16" (loops : accessBytes)
};

/// The book's element-granular nest: one loop per stream digit (Time factors major to minor,
/// then Packet factors), strides in buffer cells, size-1 loops dropped, NOT merged. A stream
/// factor split by the buffer's factor boundaries becomes several loops (major first).
/// deriveSequencer = this x elemBytes, merged, then converted to accesses.
std::optional<std::vector<Loop>> deriveElementNest(const Mapping &buffer, const Mapping &time,
                                                   const Mapping &packet, Error &err);

std::optional<Sequencer> deriveSequencer(const Mapping &buffer, const Mapping &time,
                                         const Mapping &packet, int64_t elemBytes,
                                         int64_t maxAccessBytes, int64_t maxEntries,
                                         int64_t maxEntrySize, Error &err);

/// DMA: paired loops that move every logical element from `src` to `dst` (levels with byte
/// strides), packet = the longest run contiguous on both sides (<= maxPacketBytes). Axes only
/// in `dst` are broadcast (source stride 0); axes only in `src` are read at index 0.
struct DmaPlan {
  struct PairLoop {
    int64_t size = 1;
    int64_t srcStride = 0;
    int64_t dstStride = 0;
  };
  std::vector<PairLoop> loops; // outer to inner, excluding the packet
  int64_t packetBytes = 0;
  int64_t packets() const;
  std::string str() const;     // "[256:(8, 4194304)] : 8"
};
inline bool operator==(const DmaPlan::PairLoop &a, const DmaPlan::PairLoop &b) {
  return a.size == b.size && a.srcStride == b.srcStride && a.dstStride == b.dstStride;
}

/// Loop order of a DMA plan. DstMajor (the default): loops sorted by descending destination
/// stride, so writes are as sequential as possible. SrcMajor: by descending source stride
/// (the book's listing order for its worked examples). Zero strides (broadcast) go outermost.
enum class DmaOrder { DstMajor, SrcMajor };

std::optional<DmaPlan> deriveDma(const std::vector<Level> &src, const std::vector<Level> &dst,
                                 const std::vector<std::string> &axes, int64_t elemBytes,
                                 int64_t maxPacketBytes, int64_t maxLoops, const AxisEnv &env,
                                 Error &err);
std::optional<DmaPlan> deriveDma(const std::vector<Level> &src, const std::vector<Level> &dst,
                                 const std::vector<std::string> &axes, int64_t elemBytes,
                                 int64_t maxPacketBytes, int64_t maxLoops, const AxisEnv &env,
                                 DmaOrder order, Error &err);

} // namespace rngd::mapping
