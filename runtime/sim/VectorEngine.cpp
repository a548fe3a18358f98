#include "VectorEngine.h"

#include "rngd/Bf16.h"

#include <cstring>

namespace rngd::sim {
namespace {

const char *aluName(int64_t alu) {
  switch (static_cast<isa::Alu>(alu)) {
  case isa::Alu::FxpAdd:
    return "FxpAdd";
  case isa::Alu::FpFma:
    return "FpFma";
  case isa::Alu::FpMul0:
    return "FpMul0";
  }
  return nullptr;
}

float asFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t asBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

} // namespace

bool checkVectorSteps(const isa::VectorConfig &v, int64_t &floatAlus, int64_t &intAlus,
                      std::string &why) {
  floatAlus = intAlus = 0;
  int64_t lastAlu = -1;
  for (int64_t s = 0; s < v.steps; ++s) {
    const isa::VectorStep &st = v.step[s];
    std::string at = "vector step " + std::to_string(s);
    bool known = (st.alu == int64_t(isa::Alu::FxpAdd) && st.op == int64_t(isa::VectorOp::Add)) ||
                 (st.alu == int64_t(isa::Alu::FpFma) && st.op == int64_t(isa::VectorOp::Add)) ||
                 (st.alu == int64_t(isa::Alu::FpMul0) && st.op == int64_t(isa::VectorOp::Mul));
    if (!known || st.mode != int64_t(isa::OperandMode::Immediate)) {
      why = "unsupported vector step " + std::to_string(s) + " (alu " + std::to_string(st.alu) +
            ", op " + std::to_string(st.op) + ", mode " + std::to_string(st.mode) +
            "); the simulator implements FxpAdd+Add, FpFma+Add and FpMul0+Mul with an "
            "immediate";
      return false;
    }
    // The chain's ALUs sit in a fixed pipeline order and each can be used once per pass.
    if (st.alu <= lastAlu) {
      why = at + " uses " + aluName(st.alu) + " after " + aluName(lastAlu) +
            "; ALUs run in stage order, each at most once per pass";
      return false;
    }
    lastAlu = st.alu;
    if (st.alu == int64_t(isa::Alu::FxpAdd))
      ++intAlus;
    else
      ++floatAlus;
  }
  return true;
}

void applyVector(const isa::VectorConfig &v, uint32_t *words, size_t count) {
  for (int64_t s = 0; s < v.steps; ++s) {
    const isa::VectorStep &st = v.step[s];
    uint32_t imm = st.imm;
    float fimm = asFloat(imm);
    switch (static_cast<isa::Alu>(st.alu)) {
    case isa::Alu::FxpAdd: // i32 add, wrapping
      for (size_t i = 0; i < count; ++i)
        words[i] += imm;
      break;
    case isa::Alu::FpFma: // f32 add (no fused multiply: a + imm)
      for (size_t i = 0; i < count; ++i)
        words[i] = asBits(asFloat(words[i]) + fimm);
      break;
    case isa::Alu::FpMul0: // f32 multiply
      for (size_t i = 0; i < count; ++i)
        words[i] = asBits(asFloat(words[i]) * fimm);
      break;
    }
  }
}

void castF32ToBf16(uint32_t *flits, size_t flitCount, const std::vector<int> &validWords) {
  size_t period = validWords.size();
  for (size_t f = 0; f < flitCount; ++f) {
    uint32_t *w = flits + 8 * f;
    int valid = validWords[f % period];
    uint16_t out[16] = {};
    for (int i = 0; i < valid; ++i)
      out[i] = f32BitsToBf16(w[i]);
    std::memcpy(w, out, 32);
  }
}

} // namespace rngd::sim
