// tcp.switch and tcp.transpose: deriving the Switch and Transpose Engine configurations from
// the input and result stream mappings.
#include "dialects/tcp/IR/TcpPass.h"
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
  const TargetModel &t = defaultTarget();
  auto in = resolveStream(op, op.getInput().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !out)
    return std::nullopt;
  SwitchPlan plan{*in, *out};
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
  bool found = false;
  if (op.getMode() == SwitchMode::broadcast1) {
    // out time = [in time..., slice1]; out slice = [slice2, fresh, slice0].
    Factors ot = nonUnit(out->time);
    size_t nt = nonUnit(in->time).size();
    if (ot.size() > nt && sameOrder(of(slice(ot, 0, nt)), of(nonUnit(in->time)))) {
      Factors s1 = slice(ot, nt, ot.size());
      for (size_t i = 0; i + s1.size() <= is.size() && !found; ++i) {
        if (!sameOrder(of(slice(is, i, i + s1.size())), of(s1)))
          continue;
        Factors s2 = slice(is, 0, i), s0 = slice(is, i + s1.size(), is.size());
        if (os.size() < s2.size() + s0.size() + 1)
          continue;
        Factors x = slice(os, s2.size(), os.size() - s0.size());
        found = (s2.empty() || sameOrder(of(slice(os, 0, s2.size())), of(s2))) &&
                (s0.empty() || sameOrder(of(slice(os, os.size() - s0.size(), os.size())), of(s0))) &&
                fresh(x, used) && cells(x) == cells(s1);
        plan.slice1 = cells(s1);
        plan.slice0 = cells(s0);
      }
    }
  } else {
    // transpose: out slice = [slice2, slice0, slice1]; time unchanged.
    if (sameOrder(in->time, out->time))
      for (size_t i = 0; i < is.size() && !found; ++i)
        for (size_t j = i + 1; j < is.size() && !found; ++j) {
          Factors s2 = slice(is, 0, i), s1 = slice(is, i, j), s0 = slice(is, j, is.size());
          Factors swapped = s2;
          swapped.insert(swapped.end(), s0.begin(), s0.end());
          swapped.insert(swapped.end(), s1.begin(), s1.end());
          found = sameOrder(of(swapped), out->spatial.slice);
          plan.slice1 = cells(s1);
          plan.slice0 = cells(s0);
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
  const TargetModel &t = defaultTarget();
  auto in = resolveStream(op, op.getInput().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !out)
    return std::nullopt;
  TransposePlan plan{*in, *out};
  plan.elemBytes = in->elemBytes;
  auto fail = [&](const Twine &why) {
    op.emitOpError("transpose: ") << why;
    return std::nullopt;
  };
  if (op.getInput().getType().getElementType() != op.getResult().getType().getElementType() ||
      !sameSlices(in->spatial, out->spatial))
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
  return success(planTranspose(*this).has_value());
}
