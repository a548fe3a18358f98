// Address-nest derivation: fetch/commit sequencers and DMA paired loops.
//
// Both derivations refine every axis into "atoms": digit ranges [lo, hi) of the axis value
// (lo, hi are positional weights, hi = kTop for the most significant digit) cut at every factor
// boundary of both sides. Consecutive boundaries must divide each other, otherwise the two
// decompositions are incompatible. Each atom is one loop; its stride on a side is the stride of
// the side's factor holding it, times (atom lo / factor div), or 0 if no factor holds it.
#include "Mapping.h"
#include "Support.h"

#include <algorithm>
#include <limits>

namespace rngd::mapping {

namespace {

constexpr int64_t kTop = std::numeric_limits<int64_t>::max();

using detail::ceilDiv;
using detail::fail;
using detail::num;

/// fail() for functions returning an optional.
std::nullopt_t none(Error &err, std::string term, std::string message) {
  fail(err, std::move(term), std::move(message));
  return std::nullopt;
}

/// A factor of one side with the stride (cells or bytes) of one step of its digit.
struct Piece {
  const Factor *f = nullptr;
  int64_t stride = 0;
};

int64_t hiOf(const Factor &f) { return f.isTop() ? kTop : f.div * f.count; }

bool holds(const Piece &p, int64_t lo, int64_t hi) {
  int64_t phi = hiOf(*p.f);
  return p.f->div <= lo && (phi == kTop || (hi != kTop && hi <= phi));
}

const Piece *find(const std::vector<Piece> &pieces, int64_t lo, int64_t hi) {
  for (const Piece &p : pieces)
    if (holds(p, lo, hi))
      return &p;
  return nullptr;
}

std::string texts(const std::vector<Piece> &pieces) {
  std::string s;
  for (const Piece &p : pieces)
    s += (s.empty() ? "`" : ", `") + p.f->text + "`";
  return s.empty() ? "nothing" : s;
}

/// A side must not hold a digit of an axis twice.
bool checkDisjoint(std::vector<Piece> pieces, const std::string &side, Error &err) {
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece &a, const Piece &b) { return a.f->div < b.f->div; });
  for (size_t i = 1; i < pieces.size(); ++i)
    if (hiOf(*pieces[i - 1].f) > pieces[i].f->div)
      return fail(err, "`" + pieces[i].f->text + "`",
                  "the " + side + " holds axis " + pieces[i].f->axis + " twice (also `" +
                      pieces[i - 1].f->text + "`)");
  return true;
}

void addBounds(std::vector<int64_t> &bounds, const Factor &f) {
  bounds.push_back(f.div);
  if (hiOf(f) != kTop)
    bounds.push_back(hiOf(f));
}

/// Sorts and dedups the boundaries and checks that each divides the next.
bool checkChain(std::vector<int64_t> &bounds, const std::string &axis, const std::string &term,
                const std::string &sides, Error &err) {
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  for (size_t i = 1; i < bounds.size(); ++i)
    if (bounds[i] % bounds[i - 1])
      return fail(err, term,
                  "incompatible decomposition of axis " + axis + ": " + sides + " (blocks of " +
                      num(bounds[i - 1]) + " and " + num(bounds[i]) + " do not nest)");
  return true;
}

struct Atom {
  int64_t lo = 1, hi = kTop, count = 1;
};

/// Atoms of [lo, hi) given sorted boundaries, major (largest lo) first.
std::vector<Atom> atomsOf(const std::vector<int64_t> &bounds, int64_t lo, int64_t hi,
                          int64_t axisSize) {
  std::vector<Atom> out;
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (bounds[i] < lo || bounds[i] >= hi)
      continue;
    Atom a;
    a.lo = bounds[i];
    a.hi = i + 1 < bounds.size() ? bounds[i + 1] : kTop;
    a.count = a.hi == kTop ? ceilDiv(axisSize, a.lo) : a.hi / a.lo;
    out.push_back(a);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<Piece> piecesOf(const Mapping &m, int64_t cellStride) {
  std::vector<Piece> out;
  std::vector<int64_t> strides = m.strides();
  for (size_t i = 0; i < m.factors().size(); ++i)
    if (!m.factors()[i].isConstant())
      out.push_back({&m.factors()[i], strides[i] * cellStride});
  return out;
}

std::vector<Piece> piecesOf(const std::vector<Piece> &all, const std::string &axis) {
  std::vector<Piece> out;
  for (const Piece &p : all)
    if (p.f->axis == axis)
      out.push_back(p);
  return out;
}

bool isPow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

} // namespace

// ---- Sequencer ----------------------------------------------------------------------------

std::optional<std::vector<Loop>> deriveElementNest(const Mapping &buffer, const Mapping &time,
                                                   const Mapping &packet, Error &err) {
  err = Error{};
  const std::vector<Piece> bufAll = piecesOf(buffer, 1);
  std::vector<Piece> streamAll = piecesOf(time, 1);
  for (const Piece &p : piecesOf(packet, 1))
    streamAll.push_back(p);
  for (const std::string &axis : buffer.axes())
    if (!checkDisjoint(piecesOf(bufAll, axis), "buffer", err))
      return std::nullopt;
  std::vector<const Factor *> stream;
  for (const Factor &f : time.factors())
    stream.push_back(&f);
  for (const Factor &f : packet.factors())
    stream.push_back(&f);
  std::vector<std::string> streamAxes;
  for (const Factor *f : stream)
    if (!f->isConstant() &&
        std::find(streamAxes.begin(), streamAxes.end(), f->axis) == streamAxes.end())
      streamAxes.push_back(f->axis);
  for (const std::string &axis : streamAxes)
    if (!checkDisjoint(piecesOf(streamAll, axis), "stream", err))
      return std::nullopt;

  std::vector<Loop> loops;
  for (const Factor *F : stream) {
    const int64_t lo = F->div, hi = hiOf(*F);
    if (F->isConstant() || lo == hi) { // `1`, or a digit that is always 0 (`A % 1`)
      // Padding cells of the innermost packet factor (`1 # 2`) hold garbage either way: read
      // them contiguously so the packet stays one access.
      bool innermostPadding = F->isConstant() && F == stream.back() && F->cells > 1;
      loops.push_back({F->cells, innermostPadding ? 1 : 0});
      continue;
    }
    const std::vector<Piece> buf = piecesOf(bufAll, F->axis);
    std::vector<int64_t> bounds;
    addBounds(bounds, *F);
    for (const Piece &p : buf)
      if (p.f->div < hi && lo < hiOf(*p.f))
        addBounds(bounds, *p.f);
    std::string sides =
        "buffer " + texts(buf) + " vs stream " + texts(piecesOf(streamAll, F->axis));
    if (!checkChain(bounds, F->axis, "`" + F->text + "`", sides, err))
      return std::nullopt;
    std::vector<Atom> atoms = atomsOf(bounds, lo, hi, F->axisSize);
    // Padding (`# n`) or a view (`= n`) of the stream factor resizes its major atom.
    int64_t minor = 1;
    for (size_t i = 1; i < atoms.size(); ++i)
      minor *= atoms[i].count;
    if (F->cells % minor)
      return none(err, "`" + F->text + "`",
                  "unsupported: ragged: its " + num(F->cells) +
                      " cells do not split into the buffer's blocks of " + num(minor) +
                      " (buffer " + texts(buf) + ")");
    atoms[0].count = F->cells / minor;
    for (const Atom &a : atoms) {
      const Piece *p = find(buf, a.lo, a.hi);
      loops.push_back({a.count, p ? p->stride * (a.lo / p->f->div) : 0});
    }
  }
  std::vector<Loop> out;
  for (const Loop &l : loops)
    if (l.size != 1)
      out.push_back(l);
  return out;
}

std::optional<Sequencer> deriveSequencer(const Mapping &buffer, const Mapping &time,
                                         const Mapping &packet, int64_t elemBytes,
                                         int64_t maxAccessBytes, int64_t maxEntries,
                                         int64_t maxEntrySize, Error &err) {
  const std::string what = "time `" + time.str() + "`, packet `" + packet.str() + "`";
  if (!isPow2(elemBytes) || elemBytes > maxAccessBytes)
    return none(err, what,
                "element size " + num(elemBytes) + " B must be a power of two <= the " +
                    num(maxAccessBytes) + " B access limit");
  std::optional<std::vector<Loop>> nest = deriveElementNest(buffer, time, packet, err);
  if (!nest)
    return std::nullopt;
  for (Loop &l : *nest)
    l.stride *= elemBytes;
  std::vector<Loop> loops = mergeLoops(*nest);

  Sequencer seq;
  seq.packetBytes = packet.size() * elemBytes;
  const bool contiguous = !loops.empty() && loops.back().stride == elemBytes;
  const int64_t run = contiguous ? loops.back().size * elemBytes : elemBytes;
  int64_t access = 1;
  while (access * 2 <= maxAccessBytes)
    access *= 2;
  while (access > elemBytes && (run % access || seq.packetBytes % access))
    access /= 2;
  seq.accessBytes = access;
  if (contiguous) {
    loops.back() = Loop{run / access, access};
    if (loops.back().size == 1)
      loops.pop_back();
  }
  seq.loops = mergeLoops(loops);

  if (int64_t(seq.loops.size()) > maxEntries)
    return none(err, what,
                "needs " + num(seq.loops.size()) + " sequencer entries, limit " + num(maxEntries) +
                    ": " + seq.str() + " over buffer `" + buffer.str() + "`");
  for (const Loop &l : seq.loops)
    if (l.size > maxEntrySize)
      return none(err, what,
                  "entry " + num(l.size) + ":" + num(l.stride) + " exceeds the limit of " +
                      num(maxEntrySize) + " iterations (buffer `" + buffer.str() + "`)");
  return seq;
}

// ---- DMA ----------------------------------------------------------------------------------

std::optional<DmaPlan> deriveDma(const std::vector<Level> &src, const std::vector<Level> &dst,
                                 const std::vector<std::string> &axes, int64_t elemBytes,
                                 int64_t maxPacketBytes, int64_t maxLoops, const AxisEnv &env,
                                 Error &err) {
  return deriveDma(src, dst, axes, elemBytes, maxPacketBytes, maxLoops, env, DmaOrder::DstMajor,
                   err);
}

std::optional<DmaPlan> deriveDma(const std::vector<Level> &src, const std::vector<Level> &dst,
                                 const std::vector<std::string> &axes, int64_t elemBytes,
                                 int64_t maxPacketBytes, int64_t maxLoops, const AxisEnv &env,
                                 DmaOrder order, Error &err) {
  err = Error{};
  auto describe = [](const std::vector<Level> &levels) {
    std::string s;
    for (const Level &l : levels)
      s += (s.empty() ? "`" : " | `") + l.mapping.str() + "`";
    return s.empty() ? std::string("nothing") : s;
  };
  const std::string what = describe(src) + " -> " + describe(dst);
  if (elemBytes <= 0 || elemBytes > maxPacketBytes)
    return none(err, what,
                "element size " + num(elemBytes) + " B exceeds the " + num(maxPacketBytes) +
                    " B packet limit");

  std::vector<Piece> srcAll, dstAll;
  for (const Level &l : src)
    for (const Piece &p : piecesOf(l.mapping, l.cellStride))
      srcAll.push_back(p);
  for (const Level &l : dst)
    for (const Piece &p : piecesOf(l.mapping, l.cellStride))
      dstAll.push_back(p);

  // Iterated axes: the tensor's, then axes only the destination has (broadcast).
  std::vector<std::string> iter = axes;
  for (const Level &l : dst)
    for (const std::string &a : l.mapping.axes())
      if (std::find(iter.begin(), iter.end(), a) == iter.end())
        iter.push_back(a);

  std::vector<DmaPlan::PairLoop> loops;
  for (const std::string &axis : iter) {
    const bool tensorAxis = std::find(axes.begin(), axes.end(), axis) != axes.end();
    std::optional<int64_t> size = env.size(axis);
    if (!size)
      return none(err, axis, "unknown axis " + axis);
    const std::vector<Piece> s = piecesOf(srcAll, axis), d = piecesOf(dstAll, axis);
    if (d.empty())
      continue; // only the source has it (e.g. a replica axis): read at index 0
    if (!checkDisjoint(s, "source", err) || !checkDisjoint(d, "destination", err))
      return std::nullopt;
    std::vector<int64_t> bounds{1};
    for (const Piece &p : s)
      addBounds(bounds, *p.f);
    for (const Piece &p : d)
      addBounds(bounds, *p.f);
    if (!checkChain(bounds, axis, axis, "source " + texts(s) + " vs destination " + texts(d), err))
      return std::nullopt;
    std::vector<Atom> atoms = atomsOf(bounds, 1, kTop, *size);
    std::vector<const Piece *> srcOf, dstOf;
    for (const Atom &a : atoms) {
      srcOf.push_back(find(s, a.lo, a.hi));
      dstOf.push_back(find(d, a.lo, a.hi));
    }
    // A view (`= n`) on either side limits the iterations of the major atom of its factor.
    std::vector<int64_t> limit(atoms.size(), kTop);
    for (const std::vector<Piece> *side : {&s, &d})
      for (const Piece &p : *side) {
        if (!p.f->view)
          continue;
        size_t major = atoms.size();
        int64_t minor = 1;
        for (size_t i = 0; i < atoms.size(); ++i)
          if (holds(p, atoms[i].lo, atoms[i].hi)) {
            if (major == atoms.size())
              major = i;
            else
              minor *= atoms[i].count;
          }
        if (major == atoms.size())
          continue;
        if (p.f->view % minor)
          return none(err, "`" + p.f->text + "`",
                      "unsupported: a view of " + num(p.f->view) +
                          " does not split into the other side's blocks of " + num(minor));
        limit[major] = std::min(limit[major], p.f->view / minor);
      }
    for (size_t i = 0; i < atoms.size(); ++i) {
      Atom a = atoms[i];
      if (!dstOf[i] && !tensorAxis)
        continue; // broadcast axis: only the destination's digits are iterated
      bool ragged = a.hi == kTop && *size % a.lo != 0;
      if (limit[i] < a.count) {
        a.count = limit[i];
        ragged = false;
      }
      if (a.count <= 1)
        continue;
      if (ragged) {
        const Piece *p = dstOf[i] ? dstOf[i] : srcOf[i];
        return none(err, p ? "`" + p->f->text + "`" : axis,
                    "unsupported: ragged last block: " + axis + " = " + num(*size) +
                        " is not a multiple of " + num(a.lo));
      }
      if (!dstOf[i]) {
        std::string digit = axis + (a.lo > 1 ? " / " + num(a.lo) : "") +
                            (a.hi == kTop ? "" : " % " + num(a.hi / a.lo));
        return none(err, axis,
                    "the destination (" + texts(d) + ") does not hold `" + digit +
                        "`; elements would collide");
      }
      int64_t ss = srcOf[i] ? srcOf[i]->stride * (a.lo / srcOf[i]->f->div) : 0;
      int64_t ds = dstOf[i]->stride * (a.lo / dstOf[i]->f->div);
      loops.push_back({a.count, ss, ds});
    }
  }

  auto key = [](int64_t stride) { return stride == 0 ? kTop : stride; };
  std::stable_sort(loops.begin(), loops.end(),
                   [&](const DmaPlan::PairLoop &a, const DmaPlan::PairLoop &b) {
                     if (order == DmaOrder::DstMajor) {
                       if (key(a.dstStride) != key(b.dstStride))
                         return key(a.dstStride) > key(b.dstStride);
                       return key(a.srcStride) > key(b.srcStride);
                     }
                     if (key(a.srcStride) != key(b.srcStride))
                       return key(a.srcStride) > key(b.srcStride);
                     return key(a.dstStride) > key(b.dstStride);
                   });

  // Packet: the innermost loops contiguous on both sides, capped at maxPacketBytes.
  int64_t run = elemBytes;
  while (!loops.empty() && loops.back().srcStride == run && loops.back().dstStride == run) {
    run *= loops.back().size;
    loops.pop_back();
  }
  DmaPlan plan;
  plan.packetBytes = run;
  if (run > maxPacketBytes) {
    const int64_t n = run / elemBytes;
    int64_t d = maxPacketBytes / elemBytes;
    while (n % d)
      --d;
    plan.packetBytes = d * elemBytes;
    loops.push_back({run / plan.packetBytes, plan.packetBytes, plan.packetBytes});
  }
  for (const DmaPlan::PairLoop &l : loops) {
    if (l.size == 1)
      continue;
    plan.loops.push_back(l);
    while (plan.loops.size() >= 2) {
      DmaPlan::PairLoop in = plan.loops.back();
      DmaPlan::PairLoop &out = plan.loops[plan.loops.size() - 2];
      if (out.srcStride != in.size * in.srcStride || out.dstStride != in.size * in.dstStride)
        break;
      out = DmaPlan::PairLoop{out.size * in.size, in.srcStride, in.dstStride};
      plan.loops.pop_back();
    }
  }
  if (int64_t(plan.loops.size()) > maxLoops)
    return none(err, what,
                "needs " + num(plan.loops.size()) + " DMA loops, limit " + num(maxLoops) + ": " +
                    plan.str());
  return plan;
}

} // namespace rngd::mapping
