// What the decode attention stages share (attention_forward_first starts the online-softmax
// state over a chunk of the KV cache, attention_forward folds a later chunk into it): the
// placement (kv heads over the clusters, one flit of keys per slice, q's rings), the types,
// and the passes both run before their state differs (V into the TRF, the scores, the chunk's
// max, the weights, the chunk's sum, P . V), in the order of the hand-placed kernels
// (kernels/qwen3/attention_forward_first.mlir, attention_forward.mlir).
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3Stages.h"
#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/Common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace rngd::placement::qwen3 {

/// `text` broken into lines of at most `width` characters at spaces (a stage header's
/// paragraph; rngd-stagegen prefixes each line with "// "). Existing line breaks stay.
inline std::string wrapParagraph(const std::string &text, size_t width = 96) {
  std::string out, line, word;
  auto flushWord = [&] {
    if (word.empty())
      return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      flushWord();
      if (c == '\n') {
        out += line + "\n";
        line.clear();
      }
    } else {
      word += c;
    }
  }
  flushWord();
  return out + line;
}

namespace decode_attention {

/// The oracle's order of the sum over keys (test/e2e/engines_oracle.py, `_chunk_sum`, and the
/// P . V trees): each block of 32 keys in key order, then a pairwise tree over the blocks. A
/// property of the reference numerics, not of the model size.
inline constexpr int64_t kOracleSumBlockKeys = 32;
/// Added to the online-softmax sum, as the reference does (kernels/qwen3/host/StageOracle.cpp).
inline constexpr double kSumEpsilon = 6.25e-8;
/// Elements of one row the Transpose Engine takes in: 16 keeps it double-buffered (in_cols <=
/// 16, docs/hardware.md "Transpose").
inline constexpr int64_t kTransposeRowElements = 16;
/// Flits the scores contraction packs per packet (two: q's d against the keys' d in the TRF).
inline constexpr int64_t kScorePackFlits = 2;

/// Slots of state_pad (one per state tensor moved through it, so no slot is written twice).
inline constexpr int64_t kStatePadSlots = 4;

inline std::string num(int64_t n) { return std::to_string(n); }

/// The numbers of the placement, each from the shape and the target (planDecodeAttention).
struct Plan {
  int64_t chunkKeys;    // T: keys of a KV-cache chunk
  int64_t kvPerCluster; // kv heads on one cluster
  int64_t kvClusters;   // clusters holding kv heads: all, or the first for a lone head
  int64_t keysPerSlice; // one bf16 flit of keys: P . V's packet, V's TRF row
  int64_t keysPerLane;  // K's keys in one TRF lane (keysPerSlice over the lanes)
  int64_t headSlices;   // slices of one kv head: the inter-slice reducer's group
  int64_t idle;         // a cluster's slices over its kv heads' slices (only the first used)
  int64_t qRingHeads;   // q heads of a group whose flits spread over a ring (the rest in time)
  int64_t qRing;        // slices one copy of q's qRingHeads x D spreads over, one flit each
  int64_t qRings;       // copies of q per head
  int64_t gPacket;      // G f32 padded to whole packets (a per-slice result's packet)
  bool padState;        // the state moves through state_pad (G f32 are no whole DMA packet)
  int64_t blockSlices;  // slices of one of the oracle's key blocks
  int64_t blocks;       // blocks per chunk
  int64_t flitBf16, flitF32;
  int64_t subF32;      // f32 values of one sub-context access (the mask's VRF load)
  int64_t subBf16;     // bf16 values of one sub-context access, f32 after the fetch cast
  int64_t scalarCells; // a lone f32 padded to the smallest packet
  int64_t trRows;      // keys the Transpose Engine turns into one column
};

/// q's ring (planDecodeAttention): qRingHeads, qRing, qRings.
inline llvm::Error planQRing(llvm::StringRef stage, const Qwen3Shape &s, const TargetModel &t,
                             Plan &p) {
  const int64_t G = s.groups(), D = s.headDim;
  // q reaches every slice of its head as the scores contraction streams it: one copy per ring
  // of qRingHeads x D / flit slices (a power of two: the Switch Engine), broadcast around the
  // ring; qRingHeads is the largest power of two dividing G whose ring fits a head's slices,
  // the group's other q heads follow in time on each slice of the ring.
  const int64_t dFlits = D / p.flitBf16;
  p.qRingHeads = 1;
  while (G % (p.qRingHeads * 2) == 0 && p.headSlices % (p.qRingHeads * 2 * dFlits) == 0)
    p.qRingHeads *= 2;
  p.qRing = p.qRingHeads * dFlits;
  if (D % p.flitBf16 || dFlits % kScorePackFlits || !isPowerOfTwo(p.qRing) ||
      p.headSlices % p.qRing)
    return placementError(stage, "q's D flits form a ring within a head's slices",
                          num(dFlits) + " flits of a q head, a head has " + num(p.headSlices) +
                              " slices");
  p.qRings = p.headSlices / p.qRing;
  return llvm::Error::success();
}

/// A group's per-slice results and its state in whole packets (planDecodeAttention): gPacket.
inline llvm::Error planGroupPackets(llvm::StringRef stage, const Qwen3Shape &s,
                                    const TargetModel &t, Plan &p) {
  const int64_t G = s.groups();
  // Per-slice results hold one value per q head of the group: in one flit, in the reducer's
  // slots, and in whole 8-byte packets.
  // The reductions over a slice's keys keep G as their result's time, the input's innermost
  // time factor: a 1-long G folds away there.
  if (G < 2)
    return placementError(stage, "a group's q heads are the reductions' time (at least 2)",
                          num(G) + " q head per kv head");
  // (G f32 are padded to a power of two of at least a packet: a commit writes a packet in one
  // access.)
  p.gPacket = t.fetchPacketAlignment / 4;
  while (p.gPacket < G)
    p.gPacket *= 2;
  if (p.gPacket > p.flitF32 || G > t.vectorReduceSlots || t.fetchPacketAlignment % 4)
    return placementError(stage, "a group's q heads fit one f32 flit in whole packets",
                          num(G) + " q heads per kv head, f32 flits of " + num(p.flitF32) +
                              ", packets of " + num(t.fetchPacketAlignment) + " bytes");
  // The state (max, sum: [N, G] f32 in HBM) moves between HBM and a head's slices in packets
  // of a head's G values, or (G f32 no whole DMA packet) as a padded f32 flit per head through
  // the state_pad argument, which an HBM-to-HBM copy (no packet rule) compacts.
  p.padState = (G * 4) % t.dmaAlignment != 0;
  if (p.padState && (p.flitF32 * 4) % t.dmaAlignment)
    return placementError(stage,
                          "a kv head's state (G f32, max and sum [N, G] in HBM) moves as whole "
                          "DMA packets",
                          num(G) + " x 4 = " + num(G * 4) + " bytes, padded to an f32 flit of " +
                              num(p.flitF32 * 4) + "; HBM <-> DM packets are multiples of " +
                              num(t.dmaAlignment));
  return llvm::Error::success();
}

inline llvm::Expected<Plan> planDecodeAttention(llvm::StringRef stage, const Qwen3Shape &s,
                                                const TargetModel &t) {
  Plan p;
  const int64_t N = s.kvHeads, D = s.headDim, S = t.slicesPerCluster;
  p.chunkKeys = kvChunkKeys();
  p.flitBf16 = t.flitBytes / 2;
  p.flitF32 = t.flitBytes / 4;
  p.subF32 = t.subFetchAccessBytes / 4;
  p.subBf16 = t.subFetchAccessBytes / 2;
  p.scalarCells = t.fetchPacketAlignment / 4;
  p.trRows = t.transposeColumnBytes / 2;
  // A lone kv head (a tensor-parallel shard's) sits on the first cluster, the rest idle: its
  // reductions run over one cluster's slices.
  if (N % t.clusters && N != 1)
    return placementError(stage, "kv heads split evenly over the clusters (or one kv head)",
                          num(N) + " kv heads over " + num(t.clusters) + " clusters");
  p.kvClusters = N % t.clusters ? 1 : t.clusters;
  p.kvPerCluster = N / p.kvClusters;
  // One flit of keys per slice: P . V streams a slice's keys as one packet against V's rows.
  p.keysPerSlice = p.flitBf16;
  p.keysPerLane = p.keysPerSlice / t.trfLanes;
  if (p.keysPerSlice % t.trfLanes)
    return placementError(stage, "a slice's keys fill its TRF lanes evenly",
                          num(p.keysPerSlice) + " keys over " + num(t.trfLanes) + " lanes");
  p.headSlices = p.chunkKeys / p.keysPerSlice;
  const int64_t used = p.kvPerCluster * p.headSlices;
  if (p.chunkKeys % p.keysPerSlice || !isPowerOfTwo(p.headSlices) || S % used)
    return placementError(stage,
                          "a kv head's keys, one flit per slice, fill a power-of-two "
                          "group of slices (the inter-slice reducer) and the heads a "
                          "cluster evenly",
                          num(p.chunkKeys) + " keys in " + num(p.keysPerSlice) + " per slice, " +
                              num(p.kvPerCluster) + " kv heads on " + num(S) + " slices");
  p.idle = S / used;
  if (llvm::Error e = planQRing(stage, s, t, p))
    return e;
  p.blockSlices = kOracleSumBlockKeys / p.keysPerSlice;
  p.blocks = p.chunkKeys / kOracleSumBlockKeys;
  // (blockSlices x l is exact only for a power of two.)
  if (kOracleSumBlockKeys % p.keysPerSlice || p.blockSlices < 2 ||
      !isPowerOfTwo(p.blockSlices) || p.chunkKeys % kOracleSumBlockKeys)
    return placementError(stage, "the oracle's key blocks span whole slices (Broadcast01)",
                          num(kOracleSumBlockKeys) + "-key blocks, " + num(p.keysPerSlice) +
                              " keys per slice");
  if (llvm::Error e = planGroupPackets(stage, s, t, p))
    return e;
  if (D % kTransposeRowElements || kTransposeRowElements % t.transposeValidElements ||
      p.keysPerSlice % p.trRows || D % t.trfLanes || D % p.subBf16)
    return placementError(stage,
                          "V's rows transpose in rows of " + num(kTransposeRowElements) +
                              " into the TRF lanes",
                          "head_dim " + num(D));
  return p;
}

/// The axes and types both stages use, under the hand-placed files' aliases.
struct Types {
  // (Expr has no empty state: each starts as `1` until declareTypes sets it.)
  Expr n = Expr::one(), g = Expr::one(), d = Expr::one(), t = Expr::one();
  Expr rq = Expr::one(), xq = Expr::one(), xb = Expr::one(), lb = Expr::one();
  Expr ls = Expr::one(), xh = Expr::one(), rm = Expr::one(), cm = Expr::one();
  // A kv head's cluster, its slices (one flit of keys each), its slices after a reduction.
  Expr cluster = Expr::one(), slices = Expr::one(), headSlices = Expr::one();
  Expr gp = Expr::one(); // G f32 in whole packets
  Expr gState = Expr::one(), ge = Expr::one(); // the stored state's G; state_pad's flit
  bool padState = false;
  int64_t padCells = 0; // cells of one state_pad slot: [N, GE]
  mlir::Type padNE, padNG, padHs, padL;
  mlir::Type q, kv, mask, ng;
  mlir::Type qdm, qf, qs, kvdm, kload, ktrf, sacc, sres, sdm, edm, byt, byt2, lsum, lsumdm, lred,
      lreddm, red, reddm, redvrf, redg, redgdm, tg, maskdm, maskload, maskvrf, ebdm, vrows, vcols,
      vtdm, vload, vtrf, ps, oacc, osum, ores, odm;
};

/// A kv head's slices on its cluster: the idle factor, the head's place among the cluster's
/// heads (only with several: a lone head's `N % 1` would cover N twice), then `inner`.
inline Expr headPair(const Plan &p, const Expr &n, const std::vector<Expr> &inner) {
  std::vector<Expr> items{Expr::one().pad(p.idle)};
  if (p.kvPerCluster > 1)
    items.push_back(n % p.kvPerCluster);
  items.insert(items.end(), inner.begin(), inner.end());
  return Expr::pair(items);
}

/// A kv head's cluster: N over the clusters, or the first for a lone head.
inline Expr headCluster(const Plan &p, const Expr &n, const TargetModel &t) {
  return p.kvClusters == t.clusters ? n / p.kvPerCluster : Expr::one().pad(t.clusters);
}

/// q's types (declareTypes): in HBM, on its ring's slices, and broadcast around the ring.
inline void declareQTypes(StageBuilder &b, const Qwen3Shape &s, const Plan &p, Types &y) {
  const Expr &n = y.n, &g = y.g, &d = y.d, one = Expr::one();
  const Expr &c = y.cluster;
  const int64_t F = p.flitBf16;
  mlir::Type bf = b.bf16();
  // q's ring: qRingHeads heads' flits over its slices, the group's other heads in time.
  const int64_t GR = p.qRingHeads, GT = s.groups() / GR;
  const Expr gRing = GT == 1 ? g : g % GR, gTime = GR == 1 ? g : g / GR;
  const Expr qSlices =
      GR == 1 ? headPair(p, n, {y.rq, d / F}) : headPair(p, n, {y.rq, gRing, d / F});
  y.qdm = b.dm("qdm", bf, c, qSlices, GT == 1 ? d % F : Expr::pair({gTime, d % F}));
  y.qf = b.stream("qf", bf, c, qSlices, GT == 1 ? one : gTime, d % F);
  y.qs = b.stream("qs", bf, c, headPair(p, n, {y.rq, y.xq}), Expr::pair({g, d / F}), d % F);
}

/// The state's types through state_pad (declareTypes; only when G f32 are no DMA packet).
inline void declareStatePadTypes(StageBuilder &b, const Qwen3Shape &s, const Plan &p,
                                 const Expr &lSlices, Types &y) {
  const int64_t F32 = p.flitF32;
  y.padState = p.padState;
  y.gState = p.padState ? y.g.pad(F32) : y.gp;
  if (!p.padState)
    return;
  mlir::Type f = b.f32();
  y.ge = b.axis("GE", F32); // fresh: a head's padded state flit in state_pad
  y.padCells = s.kvHeads * F32;
  y.padNE = b.hbm("padne", f, Expr::pair({y.n, y.ge}));
  y.padNG = b.hbm("padng", f, Expr::pair({y.n, y.g.pad(F32)}));
  y.padHs = b.dm("padhs", f, y.cluster, y.headSlices, y.ge);
  y.padL = b.dm("padl", f, y.cluster, lSlices, y.ge);
}

/// The header's paragraph on state_pad (empty unless the state goes through it).
inline std::string describeStatePad(const Qwen3Shape &s, const Plan &p, const TargetModel &t) {
  if (!p.padState)
    return "";
  return wrapParagraph(
      "\nstate_pad (inout, f32 [" + num(kStatePadSlots) + ", N, " + num(p.flitF32) +
      "], scratch): a kv head's " + num(s.groups()) + " f32 of max or sum are " +
      num(s.groups() * 4) + " bytes, no whole DMA packet (multiples of " +
      num(t.dmaAlignment) + "), so the state moves between its heads' slices and HBM as one "
      "padded f32 flit per head through a slot of state_pad, and an HBM-to-HBM copy (no "
      "packet rule) drops or adds the padding against max_hbm and sum_hbm [N, G].");
}

inline Types declareTypes(StageBuilder &b, const Qwen3Shape &s, const Plan &p) {
  const TargetModel &t = b.target();
  Types y;
  y.n = b.axis("N", s.kvHeads);
  y.g = b.axis("G", s.groups());
  y.d = b.axis("D", s.headDim);
  y.t = b.axis("T", p.chunkKeys);
  y.rq = b.axis("RQ", p.qRings);       // q's copies per head
  y.xq = b.axis("XQ", p.qRing);        // fresh: q's ring
  y.xb = b.axis("XB", p.blockSlices);  // fresh: a key block's slices after Broadcast01
  y.lb = b.axis("LB", p.blocks);       // fresh: the blocks, after l's inter-slice sum
  y.ls = b.axis("LS", p.blockSlices);  // fresh: a block's slices, likewise
  y.xh = b.axis("XH", p.headSlices);   // fresh: a head's slices after a reduction
  y.rm = b.axis("RM", p.kvPerCluster); // the mask's copy per kv head of a cluster
  // the mask's copy per cluster of kv heads
  y.cm = p.kvClusters > 1 ? b.axis("CM", p.kvClusters) : Expr::one().pad(t.clusters);
  const Expr &n = y.n, &g = y.g, &d = y.d, &T = y.t;
  const Expr one = Expr::one(), idle = one.pad(p.idle);
  const int64_t F = p.flitBf16, F32 = p.flitF32, L = t.trfLanes, K = p.keysPerSlice;
  const int64_t KL = p.keysPerLane, BK = kOracleSumBlockKeys, BS = p.blockSlices;
  const int64_t tv = t.transposeValidElements, R = p.trRows, RE = kTransposeRowElements;
  mlir::Type bf = b.bf16(), f = b.f32();
  y.cluster = headCluster(p, n, t);
  y.slices = headPair(p, n, {T / K});
  y.headSlices = headPair(p, n, {y.xh});
  const Expr &c = y.cluster, &sl = y.slices, &hs = y.headSlices;
  y.q = b.hbm("q", bf, Expr::pair({n, g, d}));
  y.kv = b.hbm("kv", bf, Expr::pair({T, n, d}));
  y.mask = b.hbm("mask", f, T);
  y.ng = b.hbm("ng", f, Expr::pair({n, g}));
  declareQTypes(b, s, p, y);
  y.kvdm = b.dm("kvdm", bf, c, sl, Expr::pair({T % K, d}));
  y.kload = b.stream("kload", bf, c, sl, Expr::pair({T % L, T / L % KL, d / F}), d % F);
  y.ktrf = b.trf("ktrf", bf, c, sl, T % L, Expr::pair({T / L % KL, d}));
  const Expr sTime = Expr::pair({g, T / L % KL});
  y.sacc = b.stream("sacc", f, c, sl, sTime, T % L);
  y.sres = b.stream("sres", bf, c, sl, sTime, T % L);
  y.sdm = b.dm("sdm", bf, c, sl, Expr::pair({g, T % K}));
  y.edm = b.dm("edm", f, c, sl, Expr::pair({g, T % K}));
  // G f32 in whole packets (padded when G is not).
  const Expr gp = p.gPacket == s.groups() ? g : g.pad(p.gPacket);
  y.gp = gp;
  y.byt = b.stream("byt", f, c, headPair(p, n, {T / BK, T / K % BS}), T % K, gp);
  y.byt2 = b.stream("bytx", f, c, headPair(p, n, {T / BK, y.xb}),
                    Expr::pair({T / K % BS, T % K}), gp);
  const Expr lSlices = headPair(p, n, {y.lb, y.ls});
  y.lsum = b.stream("lsum", f, c, lSlices, one, gp);
  y.lsumdm = b.dm("lsumdm", f, c, lSlices, gp);
  y.lred = b.stream("lred", f, c, lSlices, one, g.pad(F32));
  y.lreddm = b.dm("lreddm", f, c, lSlices, g.pad(F32));
  declareStatePadTypes(b, s, p, lSlices, y);
  y.red = b.stream("red", f, c, hs, one, g.pad(F32));
  y.reddm = b.dm("reddm", f, c, hs, g.pad(F32));
  y.redvrf = b.vrf("redvrf", f, c, hs, g.pad(F32));
  const Expr scalar = one.pad(p.scalarCells);
  y.redg = b.stream("redg", f, c, hs, g, scalar);
  y.redgdm = b.dm("redgdm", f, c, hs, Expr::pair({g, scalar}));
  y.tg = b.stream("tg", f, c, sl, Expr::pair({T / L % KL, g}), T % L);
  const Expr maskSlices = Expr::pair({idle, y.rm, T / K});
  y.maskdm = b.dm("maskdm", f, y.cm, maskSlices, T % K);
  y.maskload =
      b.stream("maskload", f, y.cm, maskSlices, T / p.subF32 % (K / p.subF32), T % p.subF32);
  y.maskvrf = b.vrf("maskvrf", f, y.cm, maskSlices, T % K);
  y.ebdm = b.dm("ebdm", bf, c, sl, Expr::pair({g, T % K}));
  y.vrows = b.stream("vrows", bf, c, sl,
                     Expr::pair({T / R % (K / R), d / RE, T % R, d / tv % (RE / tv)}), d % tv);
  y.vcols = b.stream("vcols", bf, c, sl,
                     Expr::pair({T / R % (K / R), d / RE, d / tv % (RE / tv), d % tv}), T % R);
  y.vtdm = b.dm("vtdm", bf, c, sl, Expr::pair({d, T % K}));
  y.vload = b.stream("vload", bf, c, sl, Expr::pair({d % L, d / L}), T % K);
  y.vtrf = b.trf("vtrf", bf, c, sl, d % L, Expr::pair({d / L, T % K}));
  y.ps = b.stream("ps", bf, c, sl, g, T % K);
  const Expr oTime = Expr::pair({g, d / L});
  y.oacc = b.stream("oacc", f, c, sl, oTime, d % L);
  y.osum = b.stream("osum", f, c, hs, oTime, d % L);
  y.ores = b.stream("ores", bf, c, hs, oTime, d % L);
  y.odm = b.dm("odm", bf, c, hs, Expr::pair({g, d}));
  return y;
}

/// The stage's HBM arguments: q, k, v and the mask in; the state out (first) or inout.
struct Args {
  mlir::Value q, k, v, mask, max, sum, out, pad;
};

inline Args declareArgs(StageBuilder &b, const Types &y, bool stateIn) {
  Args a;
  a.q = b.input("q", y.q);
  a.k = b.input("k", y.kv);
  a.v = b.input("v", y.kv);
  a.mask = b.input("mask", y.mask);
  auto state = [&](llvm::StringRef name, mlir::Type type) {
    return stateIn ? b.inout(name, type) : b.output(name, type);
  };
  a.max = state("max_hbm", y.ng);
  a.sum = state("sum_hbm", y.ng);
  a.out = state("out_hbm", y.q);
  if (y.padState)
    a.pad = b.inout("state_pad", b.hbm("statepad", b.f32(),
                                       Expr::pair({b.axis("SP", kStatePadSlots), y.n, y.ge})));
  return a;
}

/// A head's state (G f32 padded to a flit on its slices: `dm`, of DM type `padded` with elem
/// GE) into `dst` ([N, G] f32). Through slot `slot` of state_pad when G f32 are no DMA packet:
/// the padded flits by DMA, then an HBM-to-HBM copy that drops the padding.
inline void storeState(StageBuilder &b, const Types &y, const Args &a, mlir::Value dm,
                       mlir::Type padded, mlir::Value dst, int64_t slot, const std::string &name) {
  if (!y.padState) {
    b.dmaInto(dm, dst);
    return;
  }
  mlir::Value r = b.reinterpret(name + "_p", dm, padded);
  mlir::Value v = b.view(name + "_v", a.pad, slot * y.padCells, y.padNE);
  b.dmaInto(r, v);
  b.dmaInto(b.view(name + "_w", v, 0, y.padNG), dst);
}

/// The state `src` ([N, G] f32) onto its heads' slices (reddm), through slot `slot` of
/// state_pad when G f32 are no DMA packet (storeState's way back).
inline mlir::Value loadState(StageBuilder &b, const Types &y, const Args &a, mlir::Value src,
                             int64_t slot, const std::string &name) {
  if (!y.padState)
    return b.dma(name, src, y.reddm);
  mlir::Value v = b.view(name + "_v", a.pad, slot * y.padCells, y.padNE);
  b.dmaInto(src, b.view(name + "_w", v, 0, y.padNG));
  mlir::Value d = b.dma(name + "_d", v, y.padHs);
  return b.reinterpret(name, d, y.reddm);
}

/// V first: transposed by the Transpose Engine ([D, keys] per slice) and loaded into the TRF
/// on main while K streams in. Returns V in the TRF.
inline mlir::Value loadV(StageBuilder &b, const Types &y, const Args &a) {
  using tcp::Context;
  mlir::Value vd = b.dma("vd", a.v, y.kvdm);
  mlir::Value vr = b.fetch("vr", Context::main, vd, y.vrows);
  mlir::Value vrc = b.collect("vrc", vr);
  mlir::Value vc = b.transpose("vc", vrc, y.vcols);
  mlir::Value vtd = b.commit("vtd", vc, y.vtdm);
  mlir::Value vl = b.fetch("vl", Context::main, vtd, y.vload);
  mlir::Value vlc = b.collect("vlc", vl);
  return b.toTrf("vt", vlc, y.vtrf);
}

/// s = bf16(q . k / sqrt(D)): K into the TRF, q broadcast around its rings as it streams.
inline mlir::Value scores(StageBuilder &b, const Types &y, const Args &a, int64_t headDim) {
  using tcp::Context;
  mlir::Value kd = b.dma("kd", a.k, y.kvdm);
  mlir::Value kl = b.fetch("kl", Context::main, kd, y.kload);
  mlir::Value klc = b.collect("klc", kl);
  mlir::Value kt = b.toTrf("kt", klc, y.ktrf);
  mlir::Value qd = b.dma("qd", a.q, y.qdm);
  mlir::Value qf = b.fetch("qf", Context::main, qd, y.qf);
  mlir::Value qsw = b.switchOp("qsw", tcp::SwitchMode::broadcast1, qf, y.qs);
  mlir::Value qc = b.collect("qc", qsw);
  mlir::Value sa = b.contract("sa", qc, kt, kScorePackFlits, y.sacc);
  mlir::Value ss = b.vector("ss", sa, {Step::imm("div_f", float(std::sqrt(double(headDim))))});
  mlir::Value sb = b.cast("sb", ss, y.sres);
  return b.commit("sd", sb, y.sdm);
}

/// The chunk's max over keys on every slice of the head (any order: max is exact), keys in
/// the packet and one reducer slot per q head. Committed under `name`.
inline mlir::Value chunkMax(StageBuilder &b, const Types &y, mlir::Value sd, llvm::StringRef name) {
  mlir::Value m1 = b.fetch("m1", tcp::Context::main, sd, y.tg);
  mlir::Value mc = b.collect("mc", m1);
  mlir::Value mr = b.vector("mr", mc, {Step::op("reduce_max_f"), Step::op("inter_max_f")}, y.redg);
  return b.commit(name, mr, y.redgdm);
}

/// A per-head f32 value (one per q head) into the VRF on sub.
inline mlir::Value headToVrf(StageBuilder &b, const Types &y, const std::string &fetched,
                             const std::string &collected, const std::string &name,
                             mlir::Value dm) {
  mlir::Value f = b.fetch(fetched, tcp::Context::sub, dm, y.red);
  mlir::Value c = b.collect(collected, f);
  return b.toVrf(name, c, y.redvrf);
}

/// The weights e = min(exp(s - m), mask) (f32, `ed`) and bf16(e) (`ebd`).
struct Weights {
  mlir::Value ed, ebd;
};

inline Weights weights(StageBuilder &b, const Types &y, const Args &a, mlir::Value sd,
                       mlir::Value mv) {
  using tcp::Context;
  mlir::Value e1 = b.fetch("e1", Context::main, sd, y.tg);
  mlir::Value e1c = b.collect("e1c", e1);
  mlir::Value ex = b.vector("ex", e1c, {Step::vrfOf("sub_f", mv), Step::op("exp_f")});
  mlir::Value exd = b.commit("exd", ex, y.edm);
  mlir::Value mkd = b.dma("mkd", a.mask, y.maskdm);
  mlir::Value mkl = b.fetch("mkl", Context::sub, mkd, y.maskload);
  mlir::Value mklc = b.collect("mklc", mkl);
  mlir::Value mkv = b.toVrf("mkv", mklc, y.maskvrf);
  mlir::Value e2 = b.fetch("e2", Context::main, exd, y.sacc);
  mlir::Value e2c = b.collect("e2c", e2);
  mlir::Value em = b.vector("em", e2c, {Step::vrfOf("min_f", mkv)});
  Weights w;
  w.ed = b.commit("ed", em, y.edm);
  mlir::Value e3 = b.fetch("e3", Context::main, w.ed, y.sacc);
  mlir::Value e3c = b.collect("e3c", e3);
  w.ebd = b.commit("ebd", e3c, y.ebdm, /*castToBf16=*/true);
  return w;
}

/// The chunk's l = sum over keys + 6.25e-8: each key block's sum in key order on all its
/// slices (Broadcast01), whose values over the head's slices then sum to blockSlices x l
/// exactly (a power of two), undone by the fma that adds the epsilon. Committed under `name`.
inline mlir::Value chunkSum(StageBuilder &b, const Types &y, const Plan &p, mlir::Value ed,
                            llvm::StringRef name) {
  using tcp::Context;
  mlir::Value l1 = b.fetch("l1", Context::main, ed, y.byt);
  mlir::Value l1s = b.switchOp("l1s", tcp::SwitchMode::broadcast01, l1, y.byt2);
  mlir::Value l1c = b.collect("l1c", l1s);
  mlir::Value lr = b.vector("lr", l1c, {Step::op("reduce_add_f"), Step::op("inter_add_f")}, y.lsum);
  mlir::Value lrd = b.commit("lrd", lr, y.lsumdm);
  mlir::Value l2 = b.fetch("l2", Context::main, lrd, y.lred);
  mlir::Value l2c = b.collect("l2c", l2);
  mlir::Value le =
      b.vector("le", l2c, {Step::fma(float(1.0 / double(p.blockSlices)), float(kSumEpsilon))});
  return b.commit(name, le, y.lreddm);
}

/// o = bf16(e) . V, summed over the head's slices by the inter-slice reducer (each slice's
/// keys, then adjacent slices: the oracle's tree over each key block, then over the blocks),
/// bf16. Committed under `name`.
inline mlir::Value weightedValues(StageBuilder &b, const Types &y, mlir::Value ebd, mlir::Value vt,
                                  llvm::StringRef name) {
  mlir::Value pf = b.fetch("pf", tcp::Context::main, ebd, y.ps);
  mlir::Value pc = b.collect("pc", pf);
  mlir::Value oa = b.contract("oa", pc, vt, 1, y.oacc);
  mlir::Value os = b.vector("os", oa, {Step::op("inter_add_f")}, y.osum);
  mlir::Value ob = b.cast("ob", os, y.ores);
  return b.commit(name, ob, y.odm);
}

/// The header's placement paragraph, with this shape's numbers (wrapped, after a blank line).
inline std::string describePlacement(const Qwen3Shape &s, const Plan &p, const TargetModel &t) {
  const int64_t used = p.kvPerCluster * p.headSlices, B = kOracleSumBlockKeys;
  const std::string heads =
      p.kvClusters == t.clusters
          ? num(used * t.clusters) + " slices [N, T / " + num(p.keysPerSlice) +
                "], kv heads 0.." + num(p.kvPerCluster - 1) + " on " + num(used) +
                " slices of cluster 0 and " + num(p.kvPerCluster) + ".." +
                num(s.kvHeads - 1) + " on " + num(used) +
                " of cluster 1 (the rest of each cluster idle: the `1 # " + num(p.idle) +
                "` factor), so K and V stream into both clusters' DM."
          : num(used) + " slices [T / " + num(p.keysPerSlice) +
                "], the one kv head on cluster 0 (the other clusters and the rest of cluster 0 "
                "idle: `1 # " +
                num(t.clusters) + "` and `1 # " + num(p.idle) +
                "`; a head's reductions stay within a cluster).";
  return wrapParagraph(
      "\nPlacement: " + heads + " Each slice holds " +
      num(p.keysPerSlice) +
      " keys "
      "of one kv head (one bf16 flit: P . V's packet; all " +
      num(s.groups()) +
      " q heads of "
      "its group stream against them), so V's transposition and TRF load are short. q comes "
      "from HBM once per " +
      num(p.qRing) + "-slice ring (" + num(p.qRings) +
      " per head, RQ; "
      "slice s of a ring holds packet s of its kv head's [" +
      (p.qRingHeads == s.groups()
           ? "G, D / " + num(p.flitBf16) + "]"
           : "G % " + num(p.qRingHeads) + ", D / " + num(p.flitBf16) + "], the group's " +
                 num(s.groups() / p.qRingHeads) + " such packets in time") +
      ") and "
      "reaches every slice through the Switch Engine (fresh axis XQ) as the scores "
      "contraction streams it. V goes first: it is transposed by the Transpose Engine (rows "
      "of " +
      num(kTransposeRowElements) +
      ") and loaded into the TRF on main while K streams "
      "in. Once K lands main runs the softmax chain; the passes that only move data (into "
      "the VRF) run on sub. Reductions over T run within a slice, then across the " +
      num(p.headSlices) +
      " slices of a head with the inter-slice reducer (fresh axis XH), in "
      "the order the oracle sums: P . V's tree over a slice's " +
      num(p.keysPerSlice) + " keys and then over adjacent slices is the tree over each " + num(B) +
      "-key block and "
      "then over the blocks. The sum l runs in key order over each " +
      num(B) +
      "-key block: "
      "the block's " +
      num(p.blockSlices) +
      " slices exchange their keys (Broadcast01, fresh "
      "axis XB), each sums the " +
      num(B) +
      " in order, and the inter-slice tree over the "
      "head's slices (fresh LB x LS) adds every block's sum " +
      num(p.blockSlices) + " times, exactly " + num(p.blockSlices) +
      " l (a power of two), undone by the fma with " + "1 / " + num(p.blockSlices) +
      " that adds 6.25e-8.");
}

} // namespace decode_attention

} // namespace rngd::placement::qwen3
