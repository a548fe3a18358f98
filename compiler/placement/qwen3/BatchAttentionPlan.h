// What batch_attention_first and batch_attention share (docs/batching.md): one page of S keys of
// the KV pool for each of T sequences in one launch, slice (t, n) holding sequence t's page for
// kv head n. The plan (every number from the shape and the target), the axes and types, the
// arguments, and the passes both run before their state differs: the gathers of the pages,
// V into the TRF, the scores with the mask's bias, the page's max, the weights, the page's sum
// and P . V, each within one slice. Header-only.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/PrefillTerms.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace rngd::placement::qwen3::batch_attention {

/// Flits the scores contraction and P . V pack per packet (two: 32 bf16 products a tree).
inline constexpr int64_t kPackFlits = 2;

/// Keys of one page (the host's unit of the KV pool that one launch attends per sequence),
/// from the target: P . V contracts a slice's keys as one packet of kPackFlits flits (so its
/// sum is one tree, with V's D / lanes rows a lane broadcast in time), and the scores
/// contraction then holds S / lanes keys a lane as time-reducer slots of a packet's values
/// each, which must fit the reducer's cells (planBatchAttention checks it). bf16: 32 keys.
inline int64_t pageKeys(const TargetModel &t) { return kPackFlits * t.flitBytes / 2; }
/// The score of a masked key: s = bf16(q . k / sqrt(D) + kMaskedBias) (mask 0), far below any
/// real score, so masked keys never win the page's max and exp(s - m) underflows to 0. A power
/// of two: mask x 2^64 - 2^64 is exact (0 or -2^64).
inline constexpr float kMaskedBias = 18446744073709551616.0f; // 2^64
/// Rows of one input of the Transpose Engine's double-buffered mode (in_cols <= 16).
inline constexpr int64_t kTransposeRowElements = 16;

inline std::string num(int64_t n) { return std::to_string(n); }

/// The numbers of the placement, each from the shape and the target (planBatchAttention).
struct Plan {
  int64_t T, N, G, D, S, C, NC; // NC: kv heads a cluster
  int64_t chunk, poolChunks, P, pages; // the pool: P rows, P / S pages
  int64_t idle;                  // a cluster's slices over the T x NC used
  int64_t storeIdle;             // likewise for the stores' T / C x N
  int64_t flitBf16, flitF32, subF32, subBf16;
  int64_t trRows;                // keys the Transpose Engine turns into one column
  int64_t rowBytes;              // one pool row [N, D] bf16
  int64_t parts, partKeys;       // each pool's page gathered in `parts` runs of keys
  bool padState;                 // the state's G f32 are no DMA packet: through state_pad
};

inline llvm::Error refuse(llvm::StringRef stage, llvm::StringRef rule, const llvm::Twine &detail) {
  return placementError(stage, rule, detail);
}

/// The head and page rules: D in flits for the contractions and the transposition, S keys.
inline llvm::Error planHead(llvm::StringRef stage, const TargetModel &t, const Plan &p) {
  const int64_t F = p.flitBf16, pack = kPackFlits * F;
  if (p.D % pack || p.S % pack || p.S % t.trfLanes)
    return refuse(stage, "q . k and P . V contract packets of " + num(pack) + " values",
                  "head_dim " + num(p.D) + ", a page of " + num(p.S) + " keys over " +
                      num(t.trfLanes) + " TRF lanes");
  if (p.D % kTransposeRowElements || kTransposeRowElements % t.transposeValidElements ||
      p.S % p.trRows || p.D % t.trfLanes || p.D % p.subBf16 || p.S % p.subF32)
    return refuse(stage,
                  "V's rows transpose in rows of " + num(kTransposeRowElements) +
                      " into the TRF lanes",
                  "head_dim " + num(p.D) + ", " + num(p.S) + " keys");
  // The scores' time reducer: S / lanes keys a lane, a slot of `pack` values each.
  if (p.S / t.trfLanes * pack > t.timeReducerCells)
    return refuse(stage, "the scores' keys of a lane fit the time reducer",
                  num(p.S / t.trfLanes) + " slots of " + num(pack) + " values, " +
                      num(t.timeReducerCells) + " cells");
  // K and V in the TRF: S / lanes x D and D / lanes x S bf16 a lane.
  const int64_t trfLane = (p.S / t.trfLanes * p.D + p.D / t.trfLanes * p.S) * 2;
  if (trfLane > t.trfBytesPerSlice / t.trfLanes)
    return refuse(stage, "a page's K and V fit a slice's TRF",
                  num(trfLane) + " bytes a lane, " + num(t.trfBytesPerSlice / t.trfLanes));
  return llvm::Error::success();
}

/// The state rules: G values per slice are the reductions' slots, the state's rows DMA packets.
inline llvm::Error planState(llvm::StringRef stage, const TargetModel &t, Plan &p) {
  p.padState = (p.G * 4) % t.dmaAlignment != 0;
  if (p.G < 2 || p.G > t.vectorReduceSlots || p.G > p.flitF32)
    return refuse(stage, "a group's q heads are the reductions' slots (2 to " +
                             num(std::min<int64_t>(t.vectorReduceSlots, p.flitF32)) + ")",
                  num(p.G) + " q heads per kv head");
  // The state's G f32 a kv head move as one DMA packet, or (no whole packet) padded to an f32
  // flit through the state_pad argument, which HBM-to-HBM copies (no packet rule) compact.
  if ((p.flitF32 * 4) % t.dmaAlignment)
    return refuse(stage,
                  "a kv head's state (G f32 of max_hbm and sum_hbm [T, N, G]) moves as whole "
                  "DMA packets",
                  num(p.G) + " x 4 = " + num(p.G * 4) + " bytes, padded to an f32 flit of " +
                      num(p.flitF32 * 4) + "; packets are multiples of " + num(t.dmaAlignment));
  return llvm::Error::success();
}

inline llvm::Expected<Plan> planBatchAttention(llvm::StringRef stage, const Qwen3Shape &s,
                                               const TargetModel &t, int64_t tokens,
                                               int64_t poolChunks) {
  Plan p;
  p.T = tokens, p.N = s.kvHeads, p.G = s.groups(), p.D = s.headDim, p.S = pageKeys(t);
  p.C = t.clusters, p.chunk = kvChunkKeys(), p.poolChunks = poolChunks;
  p.P = poolChunks * p.chunk, p.rowBytes = p.N * p.D * 2;
  p.flitBf16 = t.flitBytes / 2, p.flitF32 = t.flitBytes / 4;
  p.subF32 = t.subFetchAccessBytes / 4, p.subBf16 = t.subFetchAccessBytes / 2;
  p.trRows = t.transposeColumnBytes / 2;
  if (poolChunks < 1)
    return refuse(stage, "a pool of whole KV chunks", "poolChunks = " + num(poolChunks));
  if (!isPowerOfTwo(p.S) || p.chunk % p.S)
    return refuse(stage, "a page's keys a power of two dividing the KV chunk",
                  num(p.S) + " keys, chunks of " + num(p.chunk));
  p.pages = p.P / p.S;
  if (p.N % p.C)
    return refuse(stage, "kv heads split evenly over the clusters",
                  num(p.N) + " kv heads over " + num(p.C) + " clusters");
  p.NC = p.N / p.C;
  const int64_t used = p.T * p.NC;
  if (used > t.slicesPerCluster || t.slicesPerCluster % used)
    return refuse(stage, "a (sequence, kv head) pair a slice, evenly over a cluster's slices",
                  num(p.T) + " sequences x " + num(p.NC) + " kv heads on " +
                      num(t.slicesPerCluster) + " slices");
  p.idle = t.slicesPerCluster / used;
  // The stores: the state moves onto slices (t % (T / C), n) of cluster t / (T / C) first, so
  // that each cluster writes one range of the token-major outputs.
  const int64_t storeUsed = p.T / p.C * p.N;
  if (p.T % p.C || t.slicesPerCluster % storeUsed)
    return refuse(stage, "the stores' tokens split over the clusters, a (token, kv head) a slice",
                  num(p.T) + " tokens x " + num(p.N) + " kv heads over " + num(p.C) +
                      " clusters of " + num(t.slicesPerCluster) + " slices");
  p.storeIdle = t.slicesPerCluster / storeUsed;
  // K's and V's gathers spread over a cluster's engines: each page in parts of its keys.
  p.parts = t.dmaEngines / t.clusters / 2;
  p.partKeys = p.parts > 0 ? p.S / p.parts : 0;
  if (p.parts < 1 || p.S % p.parts || p.partKeys % t.trfLanes || p.partKeys % p.trRows ||
      (p.partKeys % p.flitBf16 && p.flitBf16 % p.partKeys))
    return refuse(stage, "a page's keys split evenly over the gathers, whole flits a part",
                  num(p.S) + " keys over " + num(p.parts) + " gathers a pool");
  if (llvm::Error e = planHead(stage, t, p))
    return e;
  if (llvm::Error e = planState(stage, t, p))
    return e;
  if (p.D * 2 % t.dmaAlignment || p.S * 4 % t.dmaAlignment)
    return refuse(stage, "a head's row of the pool and a mask row whole DMA packets",
                  num(p.D * 2) + " and " + num(p.S * 4) + " bytes");
  // K, V (as gathered and transposed), the scores and the weights in a slice's DM.
  const int64_t dm = 3 * p.S * p.D * 2 + 4 * p.G * p.S * 4 + 2 * p.G * p.D * 2;
  if (dm > t.dmBytesPerSlice)
    return refuse(stage, "a page's tensors fit a slice's DM",
                  num(dm) + " bytes, " + num(t.dmBytesPerSlice));
  if (p.P * p.rowBytes > std::numeric_limits<int32_t>::max())
    return refuse(stage, "the pool's byte offsets in i32",
                  num(p.P) + " rows of " + num(p.rowBytes) + " bytes is " +
                      num(p.P * p.rowBytes) + " bytes");
  return p;
}

/// Slice (t, head) of a cluster: [1 # idle, head, T].
inline Expr sliceWith(const Plan &p, const Expr &t, const Expr &head) {
  return p.idle > 1 ? Expr::pair({Expr::one().pad(p.idle), head, t}) : Expr::pair({head, t});
}

/// The axes and types both stages use.
struct Types {
  Expr t = Expr::one(), n = t, g = t, d = t, s = t;
  Expr cluster = t, slices = t;
  Expr cm = t, rm = t; // the mask's copies: per cluster, per kv head of a cluster
  mlir::Type q, pool, pages, page, mask, tng;
  mlir::Type qdm, qs, kvdm, kload, ktrf, sacc, sres, sdm, tg, edm, ebdm;
  mlir::Type maskdm, maskload, maskvrf;
  mlir::Type redg, redgdm, red, reddm, redvrf, packed, packeddm;
  mlir::Type packedst, odmst; // the stores' placement: cluster t / (T / C)
  Expr ge = Expr::one();      // state_pad's flit of a kv head's state (padState only)
  mlir::Type packedstE, reddmE, padTNE, padTNG;
  mlir::Type vrows, vcols, vtdm, vload, vtrf, ps, oacc, ores, odm;
  // A part of the page's keys (SH of them, KH parts): gathered, loaded and scored apart.
  mlir::Type pagesh, kvdmh, kloadh, ktrfh, sacch, sresh, sdmh, sdmj, biash, vtdmh, vtdmj;
};

/// Streams and DM tensors of the state ([G] per slice) and of the output ([G, D]).
inline void declareStateTypes(StageBuilder &b, const Plan &p, Types &y) {
  const Expr &c = y.cluster, &sl = y.slices, &g = y.g, &d = y.d, one = Expr::one();
  mlir::Type f = b.f32(), bf = b.bf16();
  const Expr scalar = one.pad(b.target().fetchPacketAlignment / 4);
  y.redg = b.stream("redg", f, c, sl, g, scalar);
  y.redgdm = b.dm("redgdm", f, c, sl, Expr::pair({g, scalar}));
  y.red = b.stream("red", f, c, sl, one, g.pad(p.flitF32));
  y.reddm = b.dm("reddm", f, c, sl, g.pad(p.flitF32));
  y.redvrf = b.vrf("redvrf", f, c, sl, g.pad(p.flitF32));
  // The state as stored: G f32 a slice, or an f32 flit of them through state_pad.
  const Expr gs = p.padState ? g.pad(p.flitF32) : g;
  y.packed = b.stream("packed", f, c, sl, one, gs);
  y.packeddm = b.dm("packeddm", f, c, sl, gs);
  y.oacc = b.stream("oacc", f, c, sl, Expr::pair({g, d / b.target().trfLanes}),
                    d % b.target().trfLanes);
  y.ores = b.stream("ores", bf, c, sl, Expr::pair({g, d / b.target().trfLanes}),
                    d % b.target().trfLanes);
  y.odm = b.dm("odm", bf, c, sl, Expr::pair({g, d}));
  const Expr &tt = y.t, &n = y.n, cs = tt / (p.T / p.C);
  const Expr ss = p.storeIdle > 1 ? Expr::pair({one.pad(p.storeIdle), tt % (p.T / p.C), n})
                                  : Expr::pair({tt % (p.T / p.C), n});
  y.packedst = b.dm("packedst", f, cs, ss, gs);
  y.odmst = b.dm("odmst", bf, cs, ss, Expr::pair({g, d}));
  if (!p.padState)
    return;
  y.ge = b.axis("GE", p.flitF32);
  y.packedstE = b.dm("packedste", f, cs, ss, y.ge);
  y.reddmE = b.dm("reddme", f, c, sl, y.ge);
  y.padTNE = b.hbm("padtne", f, Expr::pair({tt, n, y.ge}));
  y.padTNG = b.hbm("padtng", f, Expr::pair({tt, n, g.pad(p.flitF32)}));
}

/// V's transposition ([S, D] rows to [D, S] in the TRF) and P . V's stream.
inline void declareValueTypes(StageBuilder &b, const Plan &p, const Expr &sh, Types &y) {
  const TargetModel &t = b.target();
  const Expr &c = y.cluster, &sl = y.slices, &g = y.g, &d = y.d, &s = y.s;
  const int64_t R = p.trRows, RE = kTransposeRowElements, tv = t.transposeValidElements;
  const int64_t L = t.trfLanes, F = p.flitBf16;
  mlir::Type bf = b.bf16();
  y.vrows = b.stream("vrows", bf, c, sl,
                     Expr::pair({sh / R, d / RE, sh % R, d / tv % (RE / tv)}), d % tv);
  y.vcols = b.stream("vcols", bf, c, sl,
                     Expr::pair({sh / R, d / RE, d / tv % (RE / tv), d % tv}), sh % R);
  y.vtdmh = b.dm("vtdmh", bf, c, sl, Expr::pair({d, sh}));
  y.vtdm = b.dm("vtdm", bf, c, sl, Expr::pair({s / p.partKeys, d, s % p.partKeys}));
  const int64_t vp = std::min(F, p.partKeys); // V's keys a fetched packet: within a part
  y.vload = b.stream("vload", bf, c, sl, Expr::pair({d % L, d / L, s / vp}), s % vp);
  y.vtrf = b.trf("vtrf", bf, c, sl, d % L, Expr::pair({d / L, s}));
  y.ps = b.stream("ps", bf, c, sl, Expr::pair({g, s / F}), s % F);
}

/// The types of one part of the page's keys (axes KH parts of SH keys), and the scores joined.
inline void declarePartTypes(StageBuilder &b, const Plan &p, const Expr &kh, const Expr &sh,
                             const Expr &pg, Types &y) {
  const Expr &c = y.cluster, &sl = y.slices, &g = y.g, &d = y.d, &n = y.n, &s = y.s;
  const int64_t L = b.target().trfLanes, F = p.flitBf16;
  mlir::Type bf = b.bf16(), f = b.f32();
  y.pagesh = b.hbm("pagesh", bf, Expr::pair({pg, sh.pad(p.S), n, d}));
  y.kvdmh = b.dm("kvdmh", bf, c, sl, Expr::pair({sh, d}));
  // A part's keys over the TRF lanes (SH % L) and a lane's keys (SH / L, none for SH = L).
  const Term lane = digits("SH", p.partKeys, 1, L), row = digits("SH", p.partKeys, L, p.partKeys);
  y.kloadh = b.stream("kloadh", bf, c, sl, cat({lane, row, d / F}), d % F);
  y.ktrfh = b.trf("ktrfh", bf, c, sl, *lane, cat({row, d}));
  y.sacch = b.stream("sacch", f, c, sl, cat({g, row}), *lane);
  y.sresh = b.stream("sresh", bf, c, sl, cat({g, row}), *lane);
  y.sdmh = b.dm("sdmh", bf, c, sl, Expr::pair({g, sh}));
  y.sdmj = b.dm("sdmj", bf, c, sl, Expr::pair({kh, g, sh}));
  y.sdm = b.dm("sdm", bf, c, sl, Expr::pair({s / p.partKeys, g, s % p.partKeys}));
  y.vtdmj = b.dm("vtdmj", bf, c, sl, Expr::pair({kh, d, sh}));
  y.biash = b.vrf("biash", f, y.cm, sliceWith(p, y.t, y.rm), sh);
}

inline Types declareTypes(StageBuilder &b, const Plan &p) {
  const TargetModel &t = b.target();
  Types y;
  y.t = b.axis("T", p.T);
  y.n = b.axis("N", p.N);
  y.g = b.axis("G", p.G);
  y.d = b.axis("D", p.D);
  y.s = b.axis("S", p.S);
  const Expr pg = b.axis("PG", p.pages), pr = b.axis("P", p.P);
  y.cm = b.axis("CM", p.C), y.rm = b.axis("RM", p.NC);
  const Expr &cm = y.cm, &rm = y.rm;
  const Expr &tt = y.t, &n = y.n, &g = y.g, &d = y.d, &s = y.s, one = Expr::one();
  const int64_t L = t.trfLanes, F = p.flitBf16;
  mlir::Type bf = b.bf16(), f = b.f32();
  auto slicesOf = [&](const Expr &head) { return sliceWith(p, tt, head); };
  y.cluster = n / p.NC;
  y.slices = slicesOf(n % p.NC);
  const Expr &c = y.cluster, &sl = y.slices;
  y.q = b.hbm("q", bf, Expr::pair({tt, n, g, d}));
  y.pool = b.hbm("pool", bf, Expr::pair({pr, n, d}));
  y.page = b.hbm("page", b.i32(), tt);
  y.mask = b.hbm("mask", f, Expr::pair({tt, s}));
  y.tng = b.hbm("tng", f, Expr::pair({tt, n, g}));
  y.qdm = b.dm("qdm", bf, c, sl, Expr::pair({g, d}));
  y.qs = b.stream("qs", bf, c, sl, Expr::pair({g, d / F}), d % F);
  y.sacc = b.stream("sacc", f, c, sl, Expr::pair({g, s / L}), s % L);
  y.tg = b.stream("tg", f, c, sl, Expr::pair({s / L, g}), s % L);
  y.edm = b.dm("edm", f, c, sl, Expr::pair({g, s}));
  y.ebdm = b.dm("ebdm", bf, c, sl, Expr::pair({g, s}));
  y.maskdm = b.dm("maskdm", f, cm, slicesOf(rm), s);
  y.maskload = b.stream("maskload", f, cm, slicesOf(rm), s / p.subF32, s % p.subF32);
  y.maskvrf = b.vrf("maskvrf", f, cm, slicesOf(rm), s);
  const Expr kh = b.axis("KH", p.parts), sh = b.axis("SH", p.partKeys);
  declareStateTypes(b, p, y);
  declarePartTypes(b, p, kh, sh, pg, y);
  declareValueTypes(b, p, sh, y);
  return y;
}

/// The HBM arguments: q, the pools, the pages' offsets and the mask in; the state out (first)
/// or inout (the fold).
struct Args {
  mlir::Value q, kPool, vPool, page, mask, max, sum, out, pad;
};

/// Slots of state_pad: the old max and sum (the fold's loads), the new max and sum (stores).
inline constexpr int64_t kStatePadSlots = 4;

inline Args declareArgs(StageBuilder &b, const Plan &p, const Types &y, bool stateIn) {
  Args a;
  a.q = b.input("q", y.q);
  a.kPool = b.input("k_pool", y.pool);
  a.vPool = b.input("v_pool", y.pool);
  a.page = b.input("page", y.page);
  a.mask = b.input("mask", y.mask);
  auto state = [&](llvm::StringRef name, mlir::Type type) {
    return stateIn ? b.inout(name, type) : b.output(name, type);
  };
  a.max = state("max_hbm", y.tng);
  a.sum = state("sum_hbm", y.tng);
  a.out = state("out_hbm", y.q);
  if (p.padState)
    a.pad = b.inout("state_pad",
                    b.hbm("statepad", b.f32(),
                          Expr::pair({b.axis("SP", kStatePadSlots), y.t, y.n, y.ge})));
  return a;
}

/// Keys [h SH, (h + 1) SH) of sequence t's page of a pool onto slices (t, n): one gather, row
/// t at byte offset page[t] (a view of the pool one part of keys in).
inline mlir::Value gatherPart(StageBuilder &b, const Plan &p, const Types &y, const Args &a,
                              mlir::Value pool, int64_t h, const std::string &name) {
  mlir::Value pages = b.view(name + "_pages", pool, h * p.partKeys * p.N * p.D, y.pagesh);
  return b.dmaGather(name, pages, a.page, y.kvdmh);
}

/// Part h of V's page (`gathered`) transposed by the Transpose Engine ([D, SH]).
inline mlir::Value transposeV(StageBuilder &b, const Types &y, mlir::Value gathered,
                              const std::string &n) {
  mlir::Value vr = b.fetch("vr" + n, tcp::Context::main, gathered, y.vrows);
  mlir::Value vc = b.transpose("vc" + n, b.collect("vrc" + n, vr), y.vcols);
  return b.commit("vtd" + n, vc, y.vtdmh);
}

/// V's transposed parts joined ([KH, D, SH]: [D, S] by parts) and loaded into the TRF.
inline mlir::Value loadV(StageBuilder &b, const Types &y, const std::vector<mlir::Value> &parts) {
  mlir::Value vtd = b.reinterpret("vtd", b.dmJoin("vtj", parts, y.vtdmj), y.vtdm);
  mlir::Value vl = b.fetch("vl", tcp::Context::main, vtd, y.vload);
  return b.toTrf("vt", b.collect("vlc", vl), y.vtrf);
}

/// The mask into the VRF twice on sub: as given (the weights' min) and as the scores' bias
/// mask x 2^64 - 2^64 (0 for a visible key, -2^64 for a masked one).
struct MaskVrf {
  mlir::Value mask, bias;
};

inline MaskVrf loadMask(StageBuilder &b, const Types &y, mlir::Value mkd) {
  using tcp::Context;
  MaskVrf m;
  mlir::Value bl = b.collect("blc", b.fetch("bl", Context::sub, mkd, y.maskload));
  mlir::Value bx = b.vector("bx", bl, {Step::fma(kMaskedBias, -kMaskedBias)});
  mlir::Value bd = b.commit("bd", bx, y.maskdm);
  m.bias = b.toVrf("bv", b.collect("bvc", b.fetch("bvf", Context::sub, bd, y.maskload)), y.maskvrf);
  mlir::Value ml = b.collect("mklc", b.fetch("mkl", Context::sub, mkd, y.maskload));
  m.mask = b.toVrf("mkv", ml, y.maskvrf);
  return m;
}

/// s = bf16(q . k / sqrt(D) + bias) for part h of K's page (`gathered`): loaded into the TRF
/// and scored against q (`qd`, on its slice). Committed [G, SH].
inline mlir::Value scorePart(StageBuilder &b, const Plan &p, const Types &y, mlir::Value qd,
                             mlir::Value gathered, mlir::Value bias, int64_t h) {
  using tcp::Context;
  const std::string n = num(h);
  mlir::Value kl = b.fetch("kl" + n, Context::main, gathered, y.kloadh);
  mlir::Value kt = b.toTrf("kt" + n, b.collect("klc" + n, kl), y.ktrfh);
  mlir::Value qc = b.collect("qc" + n, b.fetch("qf" + n, Context::main, qd, y.qs));
  mlir::Value sa = b.contract("sa" + n, qc, kt, kPackFlits, y.sacch);
  mlir::Value bh = b.vrfView("bias" + n, bias, h * p.partKeys, y.biash);
  mlir::Value ss = b.vector("ss" + n, sa,
                            {Step::imm("div_f", float(std::sqrt(double(p.D)))),
                             Step::vrfOf("clip_add_f", bh)});
  return b.commit("sd" + n, b.cast("sb" + n, ss, y.sresh), y.sdmh);
}

/// The page part by part: V's and K's gathers of the part, V's transposition, K's scores.
/// Returns V in the TRF and the scores joined ([KH, G, SH] as [S / SH, G, S % SH]).
struct PageLoaded {
  mlir::Value vt, sd;
};

inline PageLoaded loadPage(StageBuilder &b, const Plan &p, const Types &y, const Args &a,
                           mlir::Value qd, mlir::Value bias) {
  std::vector<mlir::Value> vParts, sParts;
  for (int64_t h = 0; h < p.parts; ++h) {
    mlir::Value vg = gatherPart(b, p, y, a, a.vPool, h, "vd" + num(h));
    mlir::Value kg = gatherPart(b, p, y, a, a.kPool, h, "kd" + num(h));
    vParts.push_back(transposeV(b, y, vg, num(h)));
    sParts.push_back(scorePart(b, p, y, qd, kg, bias, h));
  }
  PageLoaded r;
  r.vt = loadV(b, y, vParts);
  r.sd = b.reinterpret("sd", b.dmJoin("sdj", sParts, y.sdmj), y.sdm);
  return r;
}

/// A per-slice reduction over the page's keys of each q head (slots G): each flit of keys by
/// the reducer's pairwise tree, the flits in key order. Committed [G] (a value a packet).
inline mlir::Value pageReduce(StageBuilder &b, const Types &y, mlir::Value in, const char *op,
                              const std::string &name) {
  mlir::Value f = b.fetch(name + "f", tcp::Context::main, in, y.tg);
  mlir::Value r = b.vector(name + "r", b.collect(name + "c", f), {Step::op(op)}, y.redg);
  return b.commit(name, r, y.redgdm);
}

/// A per-head f32 value (one per q head) into the VRF on sub.
inline mlir::Value headToVrf(StageBuilder &b, const Types &y, const std::string &name,
                             mlir::Value dm) {
  mlir::Value f = b.fetch(name + "f", tcp::Context::sub, dm, y.red);
  return b.toVrf(name, b.collect(name + "c", f), y.redvrf);
}

/// The weights e = min(exp(s - m), mask) (f32, `ed`) and bf16(e) (`ebd`).
struct Weights {
  mlir::Value ed, ebd;
};

inline Weights weights(StageBuilder &b, const Types &y, mlir::Value sd, mlir::Value mv,
                       mlir::Value maskv) {
  using tcp::Context;
  mlir::Value e1 = b.collect("e1c", b.fetch("e1", Context::main, sd, y.tg));
  mlir::Value ex = b.vector("ex", e1, {Step::vrfOf("sub_f", mv), Step::op("exp_f")});
  mlir::Value exd = b.commit("exd", ex, y.edm);
  mlir::Value e2 = b.collect("e2c", b.fetch("e2", Context::main, exd, y.sacc));
  Weights w;
  w.ed = b.commit("ed", b.vector("em", e2, {Step::vrfOf("min_f", maskv)}), y.edm);
  mlir::Value e3 = b.collect("e3c", b.fetch("e3", Context::main, w.ed, y.sacc));
  w.ebd = b.commit("ebd", e3, y.ebdm, /*castToBf16=*/true);
  return w;
}

/// o = bf16(bf16(e) . V) within the slice. Committed [G, D] under `name`.
inline mlir::Value weightedValues(StageBuilder &b, const Types &y, mlir::Value ebd,
                                  mlir::Value vt, const std::string &name) {
  mlir::Value pc = b.collect("pc", b.fetch("pf", tcp::Context::main, ebd, y.ps));
  mlir::Value oa = b.contract("oa", pc, vt, kPackFlits, y.oacc);
  return b.commit(name, b.cast("ob", oa, y.ores), y.odm);
}

/// A [G] value per slice packed for its store ([T, N, G] f32: G x 4 bytes a slice): on sub
/// (off main's chain) when G values are one of its commit's accesses, else on main.
inline mlir::Value packState(StageBuilder &b, const Plan &p, const Types &y, mlir::Value in,
                             const std::string &name) {
  const int64_t bytes = (p.padState ? p.flitF32 : p.G) * 4;
  const tcp::Context context =
      bytes <= b.target().subFetchAccessBytes ? tcp::Context::sub : tcp::Context::main;
  mlir::Value f = b.fetch(name + "f", context, in, y.packed);
  return b.commit(name, b.collect(name + "c", f), y.packeddm);
}

/// `dm` (a state tensor on slices (t, n) of cluster n / NC) into its token-major HBM output:
/// first DM to DM onto `placed` (cluster t / (T / C)), so that the store's two cluster parts
/// write disjoint ranges (concurrent DMAs may not write interleaved bytes).
inline void storeOutput(StageBuilder &b, mlir::Value dm, mlir::Type placed, mlir::Value out,
                        const std::string &name) {
  b.dmaInto(b.dma(name, dm, placed), out);
}

/// A packed state tensor (packState) into `dst` ([T, N, G] f32) like storeOutput, through slot
/// `slot` of state_pad when G f32 are no DMA packet: the padded flits by DMA, then an
/// HBM-to-HBM copy (no packet rule) that drops the padding.
inline void storeState(StageBuilder &b, const Plan &p, const Types &y, const Args &a,
                       mlir::Value dm, mlir::Value dst, int64_t slot, const std::string &name) {
  if (!p.padState)
    return storeOutput(b, dm, y.packedst, dst, name);
  mlir::Value flits = b.reinterpret(name + "_e", dm, y.reddmE); // the padding moves too
  mlir::Value placed = b.dma(name, flits, y.packedstE);
  mlir::Value v = b.view(name + "_v", a.pad, slot * p.T * p.N * p.flitF32, y.padTNE);
  b.dmaInto(placed, v);
  b.dmaInto(b.view(name + "_w", v, 0, y.padTNG), dst);
}

/// The state `src` ([T, N, G] f32) onto slices (t, n) as [G # flit] (reddm), through slot
/// `slot` of state_pad when G f32 are no DMA packet (storeState's way back).
inline mlir::Value loadState(StageBuilder &b, const Plan &p, const Types &y, const Args &a,
                             mlir::Value src, int64_t slot, const std::string &name) {
  if (!p.padState)
    return b.dma(name, src, y.reddm);
  mlir::Value v = b.view(name + "_v", a.pad, slot * p.T * p.N * p.flitF32, y.padTNE);
  b.dmaInto(src, b.view(name + "_w", v, 0, y.padTNG));
  return b.reinterpret(name, b.dma(name + "_d", v, y.reddmE), y.reddm);
}

} // namespace rngd::placement::qwen3::batch_attention
