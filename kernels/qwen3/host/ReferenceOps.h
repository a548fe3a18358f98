// The building blocks of the whole-model reference (Reference.h), written from the Hugging Face
// Qwen3 definition and sharing nothing with the kernels. Activations are float; every dot product
// and reduction accumulates in double (a bf16 x float product is exact in double), and the result
// is rounded to float once.
#pragma once

#include "qwen3/host/Model.h"

#include <vector>

namespace rngd::qwen3::ref {

/// out = x / sqrt(mean(x^2) + eps) * weight over n elements (out may alias x).
void rmsNorm(const float *x, int n, const uint16_t *weight, double eps, float *out);

/// HF rotary embedding of one head vector in place: out = x cos + rotate_half(x) sin with
/// rotate_half(x) = [-x2, x1], cos/sin of position * theta^(-2i/headDim) (i < headDim/2, both
/// halves use the same angle), angles and cos/sin in double.
void applyRope(float *head, int headDim, int position, double theta);

/// Softmax of a row; -inf entries get probability 0 (max subtracted first, double throughout).
std::vector<double> softmax(const std::vector<double> &scores);

/// silu(x) = x * sigmoid(x).
double silu(double x);

/// y[r] = sum_c W[r][c] x[c] for W [rows, cols] bf16 row-major; rows split over `threads`
/// std::threads when the matrix is large. Each row's sum order is fixed, so the result does not
/// depend on the thread count.
void gemv(const Bf16Tensor &w, const float *x, float *y, int threads);

/// Single-query causal attention of one q head over keys/values 0..position of its kv head.
/// keys/values: [cacheLength][kvDim] float rows, head n at offset n * headDim. Scores are
/// q.k / sqrt(headDim), keys after `position` are masked with -inf. Writes the normalised output
/// (headDim floats) and, when probs is not null, the softmax row (cacheLength entries).
void attendOneHead(const float *q, const std::vector<float> &keys, const std::vector<float> &values,
                   int cacheLength, int kvDim, int kvHead, int headDim, int position, float *out,
                   std::vector<float> *probs);

} // namespace rngd::qwen3::ref
