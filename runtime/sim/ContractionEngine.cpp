// The Contraction Engine (docs/simulator.md, "Contraction Engine"): stream adapter (pack flits
// into packets), TRF sequencer (8-loop nest over packet index, TRF byte offset and accumulator
// slot), multiplier, packet reducer (pairwise tree), time reducer (window accumulation) and
// lane folder (interleaved: a flit per slot; sequential: a flit per slot and lane).
#include "Engines.h"
#include "Sequencer.h"

#include "rngd/Bf16.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>

namespace rngd::sim {
namespace {

bool fail(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

/// Calls f(stream, trf, acc) for every index tuple of `loops` (outermost first), offsets added
/// to the given bases.
template <typename F>
void walk(const std::vector<ContractLoop> &loops, int64_t s0, int64_t r0, int64_t a0, F &&f) {
  size_t n = loops.size();
  if (n == 0) {
    f(s0, r0, a0);
    return;
  }
  int64_t idx[isa::kSequencerLoops] = {};
  int64_t s = s0, r = r0, a = a0;
  const ContractLoop &last = loops[n - 1];
  for (;;) {
    int64_t si = s, ri = r, ai = a;
    for (int64_t i = 0; i < last.limit; ++i, si += last.stream, ri += last.trf, ai += last.acc)
      f(si, ri, ai);
    size_t k = n - 1;
    for (; k-- > 0;) {
      const ContractLoop &l = loops[k];
      s += l.stream, r += l.trf, a += l.acc;
      if (++idx[k] < l.limit)
        break;
      s -= l.stream * l.limit, r -= l.trf * l.limit, a -= l.acc * l.limit;
      idx[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      return;
  }
}

} // namespace

bool planContract(const isa::ContractConfig &c, int64_t flits, const TargetModel &t,
                  int64_t maxWork, int64_t maxFlits, ContractPlan &p, std::string &why) {
  p = ContractPlan();
  p.cfg = c;
  p.lanes = int64_t(1) << c.lanesLog2;
  p.segBytes = t.trfBytesPerSlice >> c.lanesLog2;
  p.elemBytes = c.mac == isa::MacType::Bf16 ? 2 : 1;
  p.elems = c.packetElems;
  p.packetBytes = c.pack * t.flitBytes;
  if (p.lanes > t.trfLanes)
    return fail(why, "contract uses " + std::to_string(p.lanes) + " lanes, the target has " +
                         std::to_string(t.trfLanes));
  if (flits % c.pack != 0)
    return fail(why, "contract packs " + std::to_string(c.pack) + " flits per packet, but the "
                     "stream has " + std::to_string(flits) + " flits per slice");
  p.packets = flits / c.pack;

  // Bounds of the three index streams: each is linear in the loop indices, so its extremes are
  // reached at corners of the nest and checking them checks every iteration.
  int64_t sLo = 0, sHi = 0, rLo = c.trfBase, rHi = c.trfBase;
  p.windows = 1;
  for (int k = 0; k < isa::kSequencerLoops; ++k) {
    int64_t span = c.limits[k] - 1;
    (c.streamStrides[k] < 0 ? sLo : sHi) += span * c.streamStrides[k];
    (c.trfStrides[k] < 0 ? rLo : rHi) += span * c.trfStrides[k];
    if (c.limits[k] > 1)
      (k < c.window ? p.outer : p.inner)
          .push_back({c.limits[k], c.streamStrides[k], c.trfStrides[k], c.accStrides[k]});
  }
  p.iterations = cappedProduct(c.limits, maxWork);
  if (p.iterations > maxWork)
    return fail(why, overWorkCap("contract nest", c.limits, "iterations per slice", maxWork));
  for (int k = 0; k < c.window; ++k) // no overflow: windows <= iterations <= maxWork
    p.windows *= c.limits[k];
  if (sLo < 0 || sHi >= p.packets)
    return fail(why, "contract stream packet index reaches [" + std::to_string(sLo) + ", " +
                         std::to_string(sHi) + "], outside the " + std::to_string(p.packets) +
                         " packets of the stream");
  if (c.trfBase % p.elemBytes != 0 ||
      std::any_of(c.trfStrides.begin(), c.trfStrides.end(),
                  [&](int64_t s) { return s % p.elemBytes != 0; }))
    return fail(why, "contract TRF base and strides must be multiples of the " +
                         std::to_string(p.elemBytes) + "-byte element");
  int64_t readBytes = p.elems * p.elemBytes;
  if (rLo < 0 || rHi + readBytes > p.segBytes)
    return fail(why, "contract reads TRF bytes [" + std::to_string(rLo) + ", " +
                         std::to_string(rHi + readBytes) + ") of each lane segment, outside [0, " +
                         std::to_string(p.segBytes) + ") (" + std::to_string(p.lanes) +
                         " lanes)");
  p.trfLo = rLo;
  p.trfHi = rHi + readBytes;
  p.sequential = c.laneMode == isa::LaneMode::Sequential;
  int64_t perWindow = c.slots * (p.sequential ? p.lanes : 1); // lane folder output flits
  if (p.windows > maxFlits / perWindow)
    return fail(why, "contract emits more than " + std::to_string(maxFlits) +
                         " flits per slice, over the simulator's limit");
  p.outFlits = p.windows * perWindow;
  return true;
}

namespace {

// One level of the packet reducer's tree: out[j] = in[2j] + in[2j+1]. Constant sizes and
// separate arrays let the compiler vectorise every level.
template <int N, typename T> inline void treeLevel(const T *in, T *out) {
  for (int j = 0; j < N / 2; ++j)
    out[j] = in[2 * j] + in[2 * j + 1];
}

template <int N, typename T> inline T tree(const T *v) {
  if constexpr (N == 1) {
    return v[0];
  } else {
    T h[N / 2];
    treeLevel<N>(v, h);
    return tree<N / 2>(h);
  }
}

// Eight lanes' floats as one value (GCC/Clang vector extension: one operation per lane).
typedef float Lanes8 __attribute__((vector_size(32)));

// Each lane's pairwise tree over N values, level by level, all 8 lanes at once: the values in
// v[0..N) are replaced, the sum ends in v[0].
template <int N> __attribute__((always_inline)) inline void laneTree(Lanes8 *v) {
  if constexpr (N > 1) {
    for (int j = 0; j < N / 2; ++j)
      v[j] = v[2 * j] + v[2 * j + 1]; // v[j] was read at this level's iteration j / 2
    laneTree<N / 2>(v);
  }
}

// The levels above the first, all 8 lanes at once, and each lane's sum added into its slot.
template <int N> __attribute__((always_inline)) inline void addLaneTrees(Lanes8 *v, float *row) {
  laneTree<N>(v);
  Lanes8 acc;
  std::memcpy(&acc, row, sizeof acc);
  acc += v[0];
  std::memcpy(row, &acc, sizeof acc);
}

// Every lane's packet at once: E products per lane, then each lane's pairwise tree, added into
// the lanes' slot. The TRF's bf16 weights come widened to f32 (exactly) once per pass, laid out
// [element][lane] (8 lanes, unused ones zero) so that each step is one operation across the
// lanes: every lane's sums are exactly the one-lane tree's. The tree's first level is written
// with its products (v[j] = x0 w0 + x1 w1, each product and the sum rounded as the level rounds
// them) so that the products stay in registers: a loop storing all E products first spilled
// them to the stack (1.6 times as slow).
template <int E>
__attribute__((always_inline)) inline void dotBf16LanesT(const float *x, const float *w,
                                                         float *row) {
  Lanes8 v[E / 2];
  for (int j = 0; j < E / 2; ++j) {
    Lanes8 w0, w1;
    std::memcpy(&w0, w + 2 * j * 8, sizeof w0);
    std::memcpy(&w1, w + (2 * j + 1) * 8, sizeof w1);
    v[j] = x[2 * j] * w0 + x[2 * j + 1] * w1;
  }
  addLaneTrees<E / 2>(v, row);
}

// The packet sizes the engine takes, compiled for the CPU's widest vectors (-ffp-contract=off:
// no fused multiply-add, whose single rounding would differ where a product underflows).
__attribute__((target_clones("avx512f", "avx2", "default"))) void
dotBf16Lanes32(const float *x, const float *w, float *row) {
  dotBf16LanesT<32>(x, w, row);
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void
dotBf16Lanes16(const float *x, const float *w, float *row) {
  dotBf16LanesT<16>(x, w, row);
}
template <int E> inline void dotBf16Lanes(const float *x, const float *w, float *row) {
  if constexpr (E == 32)
    dotBf16Lanes32(x, w, row);
  else
    dotBf16Lanes16(x, w, row);
}

// The same step with the host's bf16 pair dot product, where pairDotExact holds: x holds the
// packet's E / 2 element pairs, w the lanes' pairs (e, e + 1) laid out [element][lane] from the
// packet's first element. Each pair dot into -0 (x + -0 = x for every x, zeros' signs
// included) is the tree's first level; the levels above are the f32 adds above.
template <int E>
__attribute__((always_inline, target("avx512bf16,avx512vl"))) inline void
pairDotLanesT(const uint32_t *x, const uint32_t *w, float *row) {
  Lanes8 v[E / 2];
  const __m256 minusZero = _mm256_set1_ps(-0.0f);
  for (int j = 0; j < E / 2; ++j) {
    __m256i wj = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(w + 2 * j * 8));
    __m256i xj = _mm256_set1_epi32(static_cast<int>(x[j]));
    v[j] = reinterpret_cast<Lanes8>(
        _mm256_dpbf16_ps(minusZero, reinterpret_cast<__m256bh>(xj), reinterpret_cast<__m256bh>(wj)));
  }
  addLaneTrees<E / 2>(v, row);
}

__attribute__((target("avx512bf16,avx512vl"))) void pairDotLanes32(const uint32_t *x,
                                                                    const uint32_t *w, float *row) {
  pairDotLanesT<32>(x, w, row);
}
__attribute__((target("avx512bf16,avx512vl"))) void pairDotLanes16(const uint32_t *x,
                                                                    const uint32_t *w, float *row) {
  pairDotLanesT<16>(x, w, row);
}
template <int E> inline void pairDotLanes(const uint32_t *x, const uint32_t *w, float *row) {
  if constexpr (E == 32)
    pairDotLanes32(x, w, row);
  else
    pairDotLanes16(x, w, row);
}

template <int E> inline uint32_t dotI8(const int32_t *x, const uint8_t *trf) {
  uint32_t v[E];
  for (int j = 0; j < E; ++j)
    v[j] = static_cast<uint32_t>(x[j] * static_cast<int8_t>(trf[j]));
  return tree<E>(v); // wrap-around: unsigned arithmetic
}

// The lane folder drains a complete window's slots in order (`o` starts zeroed).
template <typename Acc>
void drainWindow(const ContractPlan &p, const Acc *acc, uint32_t *&o) {
  int64_t lanes = p.lanes, slots = p.cfg.slots;
  if (p.sequential) // one flit per slot and lane: the lane's value in element 0
    for (int64_t a = 0; a < slots; ++a)
      for (int64_t l = 0; l < lanes; ++l, o += 8)
        std::memcpy(&o[0], &acc[a * 8 + l], 4);
  else // interleaved: one flit per slot, lanes in order, unused lanes zero
    for (int64_t a = 0; a < slots; ++a, o += 8)
      for (int64_t l = 0; l < lanes; ++l)
        std::memcpy(&o[l], &acc[a * 8 + l], 4);
}

// Which dot product a bf16 contraction's packets run on: all on the f32 operands, all on the
// pair dot product, or each as pairDot[s] says.
enum class Bf16Path { F32, PairDot, Mixed };

// bf16: acc[a][l] += dot(stream[s], lane l at r); weights [element][8 lanes] over the lanes'
// read range [base, trfHi) (byte r is element (r - base) / 2). The pair dot product reads x
// (the stream's words) and pairs (the weights' pairs), the f32 path stream and weights; each
// path's operands are only read where it runs.
template <int E, Bf16Path Path>
void contractBf16(const ContractPlan &p, const float *stream, const float *weights,
                  const uint32_t *x, const uint32_t *pairs, const uint8_t *pairDot, int64_t base,
                  float *acc, uint32_t *out) {
  const isa::ContractConfig &c = p.cfg;
  uint32_t *o = out;
  walk(p.outer, 0, c.trfBase, 0, [&](int64_t s0, int64_t r0, int64_t a0) {
    std::fill(acc, acc + c.slots * 8, 0.0f);
    walk(p.inner, s0, r0, a0, [&](int64_t s, int64_t r, int64_t a) {
      int64_t at = (r - base) / 2 * 8;
      if (Path == Bf16Path::PairDot || (Path == Bf16Path::Mixed && pairDot[s]))
        pairDotLanes<E>(x + s * E / 2, pairs + at, acc + a * 8);
      else
        dotBf16Lanes<E>(stream + s * E, weights + at, acc + a * 8);
    });
    drainWindow(p, acc, o);
  });
}

template <int E>
void contractBf16(Bf16Path path, const ContractPlan &p, const float *stream,
                  const float *weights, const uint32_t *x, const uint32_t *pairs,
                  const uint8_t *pairDot, int64_t base, float *acc, uint32_t *out) {
  if (path == Bf16Path::F32)
    contractBf16<E, Bf16Path::F32>(p, stream, weights, x, pairs, pairDot, base, acc, out);
  else if (path == Bf16Path::PairDot)
    contractBf16<E, Bf16Path::PairDot>(p, stream, weights, x, pairs, pairDot, base, acc, out);
  else
    contractBf16<E, Bf16Path::Mixed>(p, stream, weights, x, pairs, pairDot, base, acc, out);
}

// i8: acc[a][l] += dot(stream[s], lane l at r), the TRF read in place.
template <int E>
void contractI8(const ContractPlan &p, const int32_t *stream, const uint8_t *trf, uint32_t *acc,
                uint32_t *out) {
  const isa::ContractConfig &c = p.cfg;
  int64_t lanes = p.lanes;
  uint32_t *o = out;
  walk(p.outer, 0, c.trfBase, 0, [&](int64_t s0, int64_t r0, int64_t a0) {
    std::fill(acc, acc + c.slots * 8, 0u);
    walk(p.inner, s0, r0, a0, [&](int64_t s, int64_t r, int64_t a) {
      const int32_t *x = stream + s * E;
      const uint8_t *t = trf + r;
      uint32_t *row = acc + a * 8;
      for (int64_t l = 0; l < lanes; ++l, t += p.segBytes)
        row[l] += dotI8<E>(x, t);
    });
    drainWindow(p, acc, o);
  });
}

} // namespace

namespace {
// One value's step of an exponent scan, branch-free on 16-bit values so that the compiler
// vectorises the loops below (AVX2 where the CPU has it): a zero's exponent 0 counts as 255
// for lo.
__attribute__((always_inline)) inline void scanExponent(const uint8_t *at, uint16_t &lo,
                                                        uint16_t &hi, uint16_t &special) {
  uint16_t b;
  std::memcpy(&b, at, 2);
  uint16_t e = (b >> 7) & 0xff, m = b & 0x7f;
  lo = std::min<uint16_t>(lo, e == 0 ? 255 : e);
  hi = std::max<uint16_t>(hi, e);
  special |= static_cast<uint16_t>((e == 0xff) | ((e == 0) & (m != 0)));
}

__attribute__((target_clones("avx2", "default"))) void
addExponents(const uint8_t *p, int64_t n, uint16_t &lo, uint16_t &hi, uint16_t &special) {
  uint16_t l = lo, h = hi, odd = special;
  for (int64_t i = 0; i < n; ++i)
    scanExponent(p + 2 * i, l, h, odd);
  lo = l, hi = h, special = odd;
}

// Per packet of E values: whether pairDotExact holds for it against the weights' exponents.
template <int E>
__attribute__((always_inline)) inline void packetsPairDotT(const uint8_t *p, int64_t packets,
                                                           const Bf16Exponents &w,
                                                           uint8_t *exact) {
  for (int64_t s = 0; s < packets; ++s, p += 2 * E) {
    uint16_t l = 255, h = 0, odd = 0;
    for (int i = 0; i < E; ++i)
      scanExponent(p + 2 * i, l, h, odd);
    // Aggregate initialisation: clang emits no definition of the implicit constructor that
    // the target clones would call.
    exact[s] = pairDotExact(Bf16Exponents{l, h, odd != 0}, w);
  }
}
__attribute__((target_clones("avx2", "default"))) void
packetsPairDot32(const uint8_t *p, int64_t packets, const Bf16Exponents &w, uint8_t *exact) {
  packetsPairDotT<32>(p, packets, w, exact);
}
__attribute__((target_clones("avx2", "default"))) void
packetsPairDot16(const uint8_t *p, int64_t packets, const Bf16Exponents &w, uint8_t *exact) {
  packetsPairDotT<16>(p, packets, w, exact);
}
} // namespace

void Bf16Exponents::add(const uint8_t *p, int64_t n) {
  uint16_t l = static_cast<uint16_t>(lo), h = static_cast<uint16_t>(hi), odd = special;
  addExponents(p, n, l, h, odd);
  lo = l, hi = h, special = odd != 0;
}

bool hostHasBf16PairDot() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512vl");
  }();
  return has;
}

namespace {
// How many bf16 slice contractions took each path (Bf16Path order), for the exit report.
std::atomic<int64_t> pathRuns[3];

void reportPaths() {
  int64_t f32 = pathRuns[0], pair = pathRuns[1], mixed = pathRuns[2];
  const char *used = f32 + pair + mixed == 0 ? "none"
                     : pair + mixed == 0     ? "f32"
                     : f32 + mixed == 0      ? "pair-dot"
                                             : "mixed";
  std::fprintf(stderr,
               "rngd-sim: contraction path: %s (bf16 slice contractions: %lld pair-dot, %lld "
               "f32, %lld mixed; host pair dot: %s; RNGD_SIM_F32_DOT=%s)\n",
               used, static_cast<long long>(pair), static_cast<long long>(f32),
               static_cast<long long>(mixed), hostHasBf16PairDot() ? "yes" : "no",
               std::getenv("RNGD_SIM_F32_DOT"));
}

// RNGD_SIM_F32_DOT, read once (docs/simulator.md, "Host speed"): 1 runs every bf16
// contraction on the f32 path, so that tests can compare it with the pair dot product on a
// host that has one; 0 keeps the default. Either value also reports at exit, on stderr, which
// paths the contractions took; unset, nothing is printed.
bool forceF32Dot() {
  static const bool force = [] {
    const char *v = std::getenv("RNGD_SIM_F32_DOT");
    if (!v || !*v)
      return false;
    if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0) {
      std::fprintf(stderr, "rngd-sim: RNGD_SIM_F32_DOT must be 0 or 1, got '%s'\n", v);
      std::exit(2);
    }
    std::atexit(reportPaths);
    return v[0] == '1';
  }();
  return force;
}

// Read at start-up, so that the report comes even from a run without a contraction.
[[maybe_unused]] const bool kForceF32DotRead = forceF32Dot();
} // namespace

void ContractRunner::run(std::vector<uint32_t> &flits, const uint8_t *trf) {
  const ContractPlan &p = p_;
  const isa::ContractConfig &c = p.cfg;
  int64_t e = p.elems;
  const auto *bytes = reinterpret_cast<const uint8_t *>(flits.data());
  bool bf16 = c.mac == isa::MacType::Bf16;
  // The stream adapter's packets, widened once: packet s is elements [s*e, (s+1)*e).
  size_t total = static_cast<size_t>(p.packets * e);
  out_.assign(static_cast<size_t>(p.outFlits * 8), 0);
  std::vector<float> accF(static_cast<size_t>(c.slots * 8));
  std::vector<uint32_t> accI(static_cast<size_t>(c.slots * 8));
  if (bf16) {
    // Every lane's read range (a weight is read by every packet it meets), laid out
    // [element][lane]: as element pairs for the pair dot product where the host has it and
    // the operands allow it, widened to f32 for the other packets.
    int64_t span = (p.trfHi - p.trfLo) / 2;
    auto weight = [&](int64_t l, int64_t i) {
      uint16_t b;
      std::memcpy(&b, trf + l * p.segBytes + p.trfLo + 2 * i, 2);
      return b;
    };
    auto element = [&](size_t i) {
      uint16_t b;
      std::memcpy(&b, bytes + 2 * i, 2);
      return b;
    };
    // The pair layout and the exponent scans cost more than the pair dot product saves where
    // a weight meets few packets (a GEMV: one), so it runs where each meets kPairDotReuse or
    // more on average.
    constexpr int64_t kPairDotReuse = 8;
    Bf16Path path = Bf16Path::F32;
    if (!forceF32Dot() && hostHasBf16PairDot() && p.iterations * e >= kPairDotReuse * span) {
      Bf16Exponents w;
      for (int64_t l = 0; l < p.lanes; ++l)
        w.add(trf + l * p.segBytes + p.trfLo, span);
      pairDot_.resize(static_cast<size_t>(p.packets));
      (e == 32 ? packetsPairDot32 : packetsPairDot16)(bytes, p.packets, w, pairDot_.data());
      bool all = std::find(pairDot_.begin(), pairDot_.end(), 0) == pairDot_.end();
      bool none = std::find(pairDot_.begin(), pairDot_.end(), 1) == pairDot_.end();
      path = all ? Bf16Path::PairDot : none ? Bf16Path::F32 : Bf16Path::Mixed;
    }
    pathRuns[static_cast<int>(path)].fetch_add(1, std::memory_order_relaxed);
    if (path != Bf16Path::F32) {
      weightPairs_.assign(static_cast<size_t>(span * 8), 0);
      for (int64_t i = 0; i < span; ++i) // element-major: each output line written once
        for (int64_t l = 0; l < p.lanes; ++l)
          weightPairs_[static_cast<size_t>(i * 8 + l)] =
              weight(l, i) | (i + 1 < span ? uint32_t(weight(l, i + 1)) << 16 : 0u);
    }
    if (path != Bf16Path::PairDot) {
      streamF_.resize(total);
      for (size_t i = 0; i < total; ++i)
        streamF_[i] = bf16ToF32(element(i));
      weightsF_.assign(static_cast<size_t>(span * 8), 0.0f);
      for (int64_t l = 0; l < p.lanes; ++l)
        for (int64_t i = 0; i < span; ++i)
          weightsF_[static_cast<size_t>(i * 8 + l)] = bf16ToF32(weight(l, i));
    }
    const uint32_t *x = flits.data(); // packet s's element pairs from word s * e / 2
    if (e == 32)
      contractBf16<32>(path, p, streamF_.data(), weightsF_.data(), x, weightPairs_.data(),
                       pairDot_.data(), p.trfLo, accF.data(), out_.data());
    else
      contractBf16<16>(path, p, streamF_.data(), weightsF_.data(), x, weightPairs_.data(),
                       pairDot_.data(), p.trfLo, accF.data(), out_.data());
  } else {
    streamI_.resize(total);
    for (size_t i = 0; i < total; ++i)
      streamI_[i] = static_cast<int8_t>(bytes[i]);
    if (e == 64)
      contractI8<64>(p, streamI_.data(), trf, accI.data(), out_.data());
    else
      contractI8<32>(p, streamI_.data(), trf, accI.data(), out_.data());
  }
  flits.swap(out_);
}

} // namespace rngd::sim
