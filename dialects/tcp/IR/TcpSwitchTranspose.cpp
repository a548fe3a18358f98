// tcp.switch and tcp.transpose: deriving the Switch and Transpose Engine configurations from
// the input and result stream mappings.
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

using namespace mlir;

namespace rngd::tcp {

namespace {

using Factors = std::vector<mapping::Factor>;

mapping::Mapping of(const Factors &f) { return mapping::Mapping::fromFactors(f); }

Factors slice(const Factors &f, size_t begin, size_t end) {
  return Factors(f.begin() + begin, f.begin() + end);
}

int64_t cells(const Factors &f) {
  int64_t n = 1;
  for (const mapping::Factor &x : f)
    n *= x.cells;
  return n;
}

/// The factors of `m` without single-cell ones (`1`), which place nothing.
Factors nonUnit(const mapping::Mapping &m) {
  Factors out;
  for (const mapping::Factor &f : m.factors())
    if (f.cells != 1)
      out.push_back(f);
  return out;
}

/// Whether `f` uses none of the axes in `used`.
bool fresh(const Factors &f, const std::vector<std::string> &used) {
  for (const mapping::Factor &x : f)
    if (x.isConstant() || llvm::is_contained(used, x.axis))
      return false;
  return true;
}

} // namespace

std::optional<SwitchPlan> planSwitch(SwitchOp op) {
  const TargetModel &t = getTarget(op);
  auto in = resolveStream(op, op.getInput().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !out)
    return std::nullopt;
  SwitchPlan plan;
  plan.in = *in;
  plan.out = *out;
  if (op.getInput().getType().getElementType() != op.getResult().getType().getElementType() ||
      !sameOrder(in->packet, out->packet) || !sameOrder(in->spatial.cluster, out->spatial.cluster)) {
    op.emitOpError("the switch keeps the element type, the cluster and the packet");
    return std::nullopt;
  }
  const Factors &is = in->spatial.slice.factors(), &os = out->spatial.slice.factors();
  std::vector<std::string> used = in->time.axes();
  for (const auto &m : {in->spatial.slice, in->packet})
    for (const std::string &a : m.axes())
      used.push_back(a);
  Factors it = nonUnit(in->time), ot = nonUnit(out->time);
  mapping::Mapping outSlice = out->spatial.slice;
  auto join = [](std::initializer_list<const Factors *> parts) {
    Factors all;
    for (const Factors *p : parts)
      all.insert(all.end(), p->begin(), p->end());
    return all;
  };
  // out slice = prefix, then fresh axes of `freshCells`, then suffix.
  auto slicesMatch = [&](const Factors &prefix, int64_t freshCells, const Factors &suffix) {
    if (os.size() < prefix.size() + suffix.size() + 1)
      return false;
    Factors x = slice(os, prefix.size(), os.size() - suffix.size());
    return sameOrder(of(slice(os, 0, prefix.size())), of(prefix)) &&
           sameOrder(of(slice(os, os.size() - suffix.size(), os.size())), of(suffix)) &&
           fresh(x, used) && cells(x) == freshCells;
  };
  bool found = false;
  SwitchMode mode = op.getMode();
  // Every split of the input slice factors into [slice2, slice1, slice0] (slice1 non-empty)
  // and, where the mode needs it, of the input time into [time1, time0].
  for (size_t i = 0; i < is.size() && !found; ++i)
    for (size_t j = i + 1; j <= is.size() && !found; ++j) {
      Factors s2 = slice(is, 0, i), s1 = slice(is, i, j), s0 = slice(is, j, is.size());
      plan.slice1 = cells(s1);
      plan.slice0 = cells(s0);
      if (mode == SwitchMode::broadcast1) {
        found = sameOrder(of(ot), of(join({&it, &s1}))) && slicesMatch(s2, cells(s1), s0);
      } else if (mode == SwitchMode::transpose) {
        found = !s0.empty() && sameOrder(in->time, out->time) &&
                sameOrder(of(join({&s2, &s0, &s1})), outSlice);
      } else if (mode == SwitchMode::transposed_broadcast1) {
        found = !s0.empty() && sameOrder(of(ot), of(join({&it, &s0}))) &&
                slicesMatch(s2, cells(s0), s1);
      } else {
        for (size_t k = 0; k <= it.size() && !found; ++k) {
          Factors t1 = slice(it, 0, k), t0 = slice(it, k, it.size());
          plan.time0 = cells(t0);
          if (mode == SwitchMode::broadcast01) {
            found = sameOrder(of(ot), of(join({&t1, &s1, &t0, &s0}))) &&
                    slicesMatch(s2, cells(s1) * cells(s0), {});
          } else { // inter_transpose: time [t2, t1', t0] with t1' the size of slice1
            for (size_t m = 0; m < k && !found; ++m) {
              Factors t2 = slice(it, 0, m), tm = slice(it, m, k);
              found = cells(tm) == cells(s1) &&
                      sameOrder(of(ot), of(join({&t2, &s1, &t0}))) &&
                      sameOrder(of(join({&s2, &tm, &s0})), outSlice);
            }
          }
        }
      }
    }
  plan.ring = plan.slice1 * plan.slice0;
  if (!found) {
    op.emitOpError("switch ")
        << stringifySwitchMode(op.getMode()) << ": the result (slice "
        << out->spatial.slice.str() << ", time " << out->time.str()
        << ") is not this configuration applied to the input (slice " << in->spatial.slice.str()
        << ", time " << in->time.str() << ")";
    return std::nullopt;
  }
  if ((plan.ring & (plan.ring - 1)) != 0 || plan.ring > t.slicesPerCluster) {
    op.emitOpError("switch ring: slice1 x slice0 = ")
        << plan.ring << " slices; a ring is a power of two of at most " << t.slicesPerCluster;
    return std::nullopt;
  }
  int64_t flitsPerPacket = (in->packetBytes() + t.flitBytes - 1) / t.flitBytes;
  plan.cycles = switchCycles(plan.ring, in->time.size(), flitsPerPacket);
  return plan;
}

std::optional<TransposePlan> planTranspose(TransposeOp op) {
  const TargetModel &t = getTarget(op);
  auto in = resolveStream(op, op.getInput().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !out)
    return std::nullopt;
  TransposePlan plan;
  plan.in = *in;
  plan.out = *out;
  plan.elemBytes = in->elemBytes;
  auto fail = [&](const Twine &why) {
    op.emitOpError("transpose: ") << why;
    return std::nullopt;
  };
  if (op.getInput().getType().getElementType() != op.getResult().getType().getElementType() ||
      !sameSlices(getTarget(op), in->spatial, out->spatial))
    return fail("the element type and the slices are unchanged");
  const int64_t valid = t.transposeValidElements;
  if (in->packet.size() != valid)
    return fail("input packets carry " + Twine(valid) + " elements, got " +
                Twine(in->packet.size()));
  // The result packet is the rows (the Align stage pads each to a flit; the valid bytes are
  // the rows).
  Factors rows = out->packet.factors();
  if (rows.empty() || cells(rows) != out->packet.size() ||
      llvm::any_of(rows, [](const mapping::Factor &f) { return f.cells != f.count; }))
    return fail("the result packet is the rows, unpadded, got " + out->packet.str());
  const Factors &it = in->time.factors();
  for (size_t i = 0; i + rows.size() <= it.size(); ++i) {
    if (!sameOrder(of(slice(it, i, i + rows.size())), of(rows)))
      continue;
    Factors outer = slice(it, 0, i), cols = slice(it, i + rows.size(), it.size());
    Factors expected = outer;
    expected.insert(expected.end(), cols.begin(), cols.end());
    for (const mapping::Factor &p : in->packet.factors())
      expected.push_back(p);
    if (!sameOrder(of(expected), out->time))
      return fail("the result time must be [outer, row flits, packet] = " +
                  of(expected).str() + ", got " + out->time.str());
    plan.inRows = cells(rows);
    plan.inCols = cells(cols) * valid;
    plan.outRows = plan.inCols;
    int64_t maxRows = t.transposeColumnBytes / plan.elemBytes;
    if (plan.inRows > maxRows)
      return fail(Twine(plan.inRows) + " rows of " + Twine(plan.elemBytes * 8) +
                  "-bit elements exceed the limit of " + Twine(maxRows));
    if (plan.inCols != 8 && plan.inCols != 16 && plan.inCols != 32)
      return fail("rows of " + Twine(plan.inCols) + " elements; rows hold 8, 16 or 32");
    plan.matrices = in->time.size() / (cells(rows) * cells(cols));
    plan.cycles = transposeCycles(plan.inRows, plan.inCols, plan.outRows, valid, plan.matrices);
    return plan;
  }
  return fail("the input time must end in the result packet's rows " + of(rows).str() +
              " followed by the flits of a row, got " + in->time.str());
}

} // namespace rngd::tcp

using namespace rngd::tcp;

LogicalResult SwitchOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.fetch"})) ||
      failed(verifySingleUse(*this, getResult())))
    return failure();
  return success(planSwitch(*this).has_value());
}

LogicalResult TransposeOp::verify() {
  if (failed(verifyProducer(*this, getInput(),
                            {"tcp.collect", "tcp.contract", "tcp.vector", "tcp.cast"})) ||
      failed(verifySingleUse(*this, getResult())))
    return failure();
  // The sub context drives fetch, collect, the Vector Engine and commit
  // (docs/hardware.md section 3.1).
  if (passContext(*this) != Context::main)
    return emitOpError("context: the Transpose Engine runs on the main context only");
  return success(planTranspose(*this).has_value());
}
