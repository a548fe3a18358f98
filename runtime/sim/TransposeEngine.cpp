// The Transpose Engine (docs/isa.md, "transpose"): unpack (the first 8 elements of each flit),
// gather (packets_per_col flits form a row), transpose, trim to out_rows, align (each output
// row one flit, zero padded).
#include "Engines.h"

#include <cstring>

namespace rngd::sim {

bool planTranspose(const isa::TransposeConfig &c, int64_t flits, TransposePlan &p,
                   std::string &why) {
  p = TransposePlan();
  p.cfg = c;
  p.elemBytes = int64_t(1) << c.elemLog2;
  p.packetsPerCol = c.inCols / 8;
  int64_t group = c.inRows * p.packetsPerCol;
  if (flits % group != 0) {
    why = "transpose of " + std::to_string(c.inRows) + " x " + std::to_string(c.inCols) +
          " takes groups of " + std::to_string(group) + " flits, but the stream has " +
          std::to_string(flits) + " flits per slice";
    return false;
  }
  p.groups = flits / group;
  p.outFlits = p.groups * c.outRows;
  return true;
}

void runTranspose(const TransposePlan &p, std::vector<uint32_t> &flits,
                  std::vector<uint32_t> &scratch) {
  const isa::TransposeConfig &c = p.cfg;
  int64_t eb = p.elemBytes, ppc = p.packetsPerCol;
  scratch.assign(static_cast<size_t>(p.outFlits * 8), 0);
  const auto *in = reinterpret_cast<const uint8_t *>(flits.data());
  auto *out = reinterpret_cast<uint8_t *>(scratch.data());
  for (int64_t g = 0; g < p.groups; ++g) {
    const uint8_t *m = in + g * c.inRows * ppc * 32; // row r, column k: flit r*ppc + k/8, elem k%8
    uint8_t *o = out + g * c.outRows * 32;
    for (int64_t col = 0; col < c.outRows; ++col)
      for (int64_t r = 0; r < c.inRows; ++r)
        std::memcpy(o + col * 32 + r * eb, m + (r * ppc + col / 8) * 32 + (col % 8) * eb,
                    static_cast<size_t>(eb));
  }
  flits.swap(scratch);
}

} // namespace rngd::sim
