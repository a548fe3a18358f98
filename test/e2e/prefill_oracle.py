#!/usr/bin/python3
"""Independent host oracle for the multi-token (prefill) kernels, in numpy.

The multi-token kernels do millions to billions of multiply-accumulates, too many for the
pure-Python emulation of engines_oracle.py; this oracle emulates the same device numerics with
numpy float32 arrays, which round every operation once to nearest even like the simulator
(binary32; bf16 x bf16 products are exact in binary32; the contraction sums each 32-element
packet by a pairwise tree, level by level v[2j] + v[2j+1], and adds the packets' trees into the
accumulator in order). It shares no code with the compiler, the simulator or the other oracles.
Run it with Debian's python3 (numpy from python3-numpy, installed by scripts/install-deps.sh).

  prefill_oracle.py make-inputs KERNEL DIR SEED DIST   write KERNEL's inputs into DIR
  prefill_oracle.py check KERNEL DIR                   exit 0 iff DIR's outputs pass
  prefill_oracle.py selftest                           test the helpers on small cases

KERNEL: prefill_gemm     y[t, o] = sum_h x[t, h] w[o, h]  (T = 512, H = 1024, O = 4096)
        prefill_rmsnorm  y[t, h] = x[t, h] w[h] / sqrt(mean_h x[t, h]^2 + 1e-6)  (T = 512, H = 1024)
        prefill_projection  RoPE(HeadNorm(RMSNorm(x) W^T)): the two above, then every 128-row
                         head normalised and rotated (O = 4096 rows: Qwen3's 16 q, 8 k, 8 v
                         heads); outputs q_out, k_cache and v_cache (v raw)
        prefill_decoder  the rest of a layer for 512 tokens: o_proj + residual, RMSNorm,
                         silu(gate) x up, down + residual; output y
        prefill_attention  512 queries against an earlier, full chunk, folded into their
                         online-softmax state (max_hbm, sum_hbm, out_hbm: read and written)
        prefill_attention_first  causal attention of 512 queries over the chunk's 512 keys,
                         16 q heads on 8 kv heads; output attn (normalised, bf16)
DIST: `small` (normal activations, 0.02-scaled weights) or `uniform` ([0, 1)).

Files hold the kernel arguments in their HBM layouts (the mapping strings of the kernel file,
below): raw little-endian bf16 bit patterns (f32 for the attention's masks). `check` passes iff every output is bit-exact with
the emulation AND at least 99.5 % of the outputs are within max(1 % relative, 2^-8 absolute)
of float64 math.
"""
import os
import re
import sys

import numpy as np

# ---------------------------------------------------------------------------------------
# bf16 and the contraction's arithmetic.


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values):
    """Round binary32 to bf16, nearest even; NaN stays a quiet NaN."""
    b = np.asarray(values, dtype=np.float32).view(np.uint32)
    rounded = ((b + np.uint32(0x7FFF) + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (b & 0x7F800000) == 0x7F800000
    nan &= (b & 0x007FFFFF) != 0
    return np.where(nan, ((b >> 16) | 0x0040).astype(np.uint16), rounded)


def tree(v):
    """Pairwise tree over the last axis, level by level v[2j] + v[2j+1] (a power of two)."""
    while v.shape[-1] > 1:
        v = v[..., 0::2] + v[..., 1::2]
    return v[..., 0]


def running_sum(v):
    """The intra-slice reducer's slot: the first value, then each next one added in order."""
    acc = v[..., 0]
    for j in range(1, v.shape[-1]):
        acc = acc + v[..., j]
    return acc


def contract(x, w, packet=32):
    """f32 [T, O] = x [T, K] . w [O, K]^T as the Contraction Engine sums it: per packet of
    `packet` consecutive k, the exact products reduced by a pairwise tree, then the packets
    added into the accumulator in k order."""
    t, k = x.shape
    o = w.shape[0]
    acc = np.zeros((t, o), dtype=np.float32)
    for p in range(0, k, packet):
        acc += tree(x[:, None, p:p + packet] * w[None, :, p:p + packet])  # exact products
    return acc


# ---------------------------------------------------------------------------------------
# HBM layouts: a mapping string orders an array's cells (major to minor) by factors of its
# axes (docs/mapping.md; no padding or views here).

FACTOR = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*)((?:\s*[/%]\s*\d+)*)\s*$")
OP = re.compile(r"([/%])\s*(\d+)")


def layout_positions(mapping, axes):
    """Position of every logical cell (an array over `axes`, an ordered dict name -> size,
    row-major) in the layout `mapping`: factors `A`, `A / d`, `A % m`, `A / d % m` or
    `A % m / d`, applied left to right."""
    terms = mapping.strip()
    if terms.startswith("["):
        terms = terms[1:-1]
    names = list(axes)
    index = np.indices([axes[a] for a in names], dtype=np.int64)
    pos = np.zeros(index.shape[1:], dtype=np.int64)
    for term in terms.split(","):
        m = FACTOR.match(term)
        if not m or m.group(1) not in axes:
            raise SystemExit("layout: cannot read factor %r of %r" % (term, mapping))
        digit = index[names.index(m.group(1))]
        values = np.arange(axes[m.group(1)])
        for op, n in OP.findall(m.group(2)):
            digit = digit // int(n) if op == "/" else digit % int(n)
            values = values // int(n) if op == "/" else values % int(n)
        pos = pos * (int(values.max()) + 1) + digit
    return pos


def to_layout(array, mapping, axes):
    out = np.empty(array.size, dtype=array.dtype)
    out[layout_positions(mapping, axes).ravel()] = array.ravel()
    return out


def from_layout(flat, mapping, axes):
    return flat[layout_positions(mapping, axes)]


# ---------------------------------------------------------------------------------------
# Kernels.

GEMM_AXES = {"T": 512, "H": 1024, "O": 4096}
GEMM_X = "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]"
GEMM_W = "[O, H]"
PROJ_W = "[H / 512, O, H % 512]"  # prefill_projection's qkv_weight: each half of H a tile
GEMM_Y = "[T / 256, O / 16, T % 64, T % 256 / 64, O % 16]"


def axes_of(names):
    return {n: GEMM_AXES[n] for n in names}


def make_inputs(kernel, d, seed, dist):
    if kernel not in KERNELS:
        raise SystemExit("unknown kernel " + kernel)
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(seed)
    if kernel in ("prefill_attention_first", "prefill_attention"):
        def draw(shape):
            if dist == "uniform":
                return rng.random(shape, dtype=np.float32)
            return np.clip(rng.standard_normal(shape, dtype=np.float32), -4, 4)
        to_layout(f32_to_bf16(draw((16, 512, 128))).reshape(8, 2, 8, 4, 16, 128), ATTN_Q,
                  ATTN_AXES).tofile(os.path.join(d, "q.bin"))
        for name in ("k_cache", "v_cache"):
            f32_to_bf16(draw((512, 8, 128))).tofile(os.path.join(d, name + ".bin"))
        tile, diag = attention_masks()
        tile.tofile(os.path.join(d, "tile_mask.bin"))
        diag.tofile(os.path.join(d, "diag_mask.bin"))
        # The state earlier chunks leave (prefill_attention reads it as max_hbm, sum_hbm and
        # out_hbm and writes them; prefill_attention_first reads it as max_in, sum_in, out_in);
        # uniform: a block's first chunk, the state the host starts from.
        m = (rng.standard_normal((16, 512)) + 2.5).astype(np.float32)
        l = (rng.random((16, 512)) * 100 + 1).astype(np.float32)
        o = (rng.standard_normal((16, 512, 128)) * 10).astype(np.float32)
        if dist == "uniform":
            m[:], l[:], o[:] = MASKED, 0, 0
        to_layout(m.reshape(8, 2, 8, 4, 16), ATTN_STATE, ATTN_STATE_AXES).tofile(
            os.path.join(d, "max_in.bin"))
        to_layout(l.reshape(8, 2, 8, 4, 16), ATTN_STATE, ATTN_STATE_AXES).tofile(
            os.path.join(d, "sum_in.bin"))
        to_layout(o.reshape(8, 2, 8, 4, 16, 128), ATTN_OUT_STATE, ATTN_AXES).tofile(
            os.path.join(d, "out_in.bin"))
        return
    if kernel == "prefill_decoder":
        ax = DEC_AXES
        if dist == "uniform":
            draw = lambda shape, scale: rng.random(shape, dtype=np.float32) * np.float32(scale)
        else:
            draw = lambda shape, scale: np.clip(rng.standard_normal(shape, dtype=np.float32),
                                                -4, 4) * np.float32(scale)
        to_layout(f32_to_bf16(draw((ax["T"], ax["Q"]), 1.0)), DEC_ATTN,
                  {"T": ax["T"], "Q": ax["Q"]}).tofile(os.path.join(d, "attn.bin"))
        to_layout(f32_to_bf16(draw((ax["T"], ax["H"]), 1.0)), GEMM_X,
                  axes_of("TH")).tofile(os.path.join(d, "x.bin"))
        scale = 0.02 if dist == "small" else 0.05
        f32_to_bf16(draw((ax["H"], ax["Q"]), scale)).tofile(os.path.join(d, "o_weight.bin"))
        f32_to_bf16(np.float32(1) + draw(ax["H"], 0.1)).tofile(os.path.join(d, "post_rms_weight.bin"))
        for name in ("gate_weight", "up_weight"):
            f32_to_bf16(draw((ax["L"], ax["H"]), scale)).tofile(os.path.join(d, name + ".bin"))
        f32_to_bf16(draw((ax["H"], ax["L"]), scale)).tofile(os.path.join(d, "down_weight.bin"))
        return
    if kernel == "prefill_rmsnorm":
        t, h = RMS_AXES["T"], RMS_AXES["H"]
        if dist == "uniform":
            x, w = rng.random((t, h), dtype=np.float32), rng.random(h, dtype=np.float32)
        else:
            x = rng.standard_normal((t, h), dtype=np.float32)
            w = np.float32(1) + np.float32(0.1) * rng.standard_normal(h, dtype=np.float32)
        to_layout(f32_to_bf16(x), RMS_X, RMS_AXES).tofile(os.path.join(d, "x.bin"))
        f32_to_bf16(w).tofile(os.path.join(d, "w.bin"))
        return
    t, h, o = GEMM_AXES["T"], GEMM_AXES["H"], GEMM_AXES["O"]
    if dist == "uniform":
        x, w = rng.random((t, h), dtype=np.float32), rng.random((o, h), dtype=np.float32)
    else:
        x = np.clip(rng.standard_normal((t, h), dtype=np.float32), -4, 4)
        w = rng.standard_normal((o, h), dtype=np.float32) * np.float32(0.02)
    to_layout(f32_to_bf16(x), GEMM_X, axes_of("TH")).tofile(os.path.join(d, "x.bin"))
    w_name, w_layout = ("qkv_weight.bin", PROJ_W) if kernel == "prefill_projection" else \
        ("w.bin", GEMM_W)
    to_layout(f32_to_bf16(w), w_layout, axes_of("OH")).tofile(os.path.join(d, w_name))
    if kernel == "prefill_projection":
        rw = rng.random(h, dtype=np.float32) if dist == "uniform" else \
            np.float32(1) + np.float32(0.1) * rng.standard_normal(h, dtype=np.float32)
        f32_to_bf16(rw).tofile(os.path.join(d, "input_rms_weight.bin"))
        hw = rng.random(o, dtype=np.float32) if dist == "uniform" else \
            np.float32(1) + np.float32(0.1) * rng.standard_normal(o, dtype=np.float32)
        f32_to_bf16(hw).tofile(os.path.join(d, "head_rms_weight.bin"))
        # Qwen3's RoPE tables, positions 0..T-1.
        axes = {"T": t, "F": HEAD_DIM // 2}
        for name, table in zip(("cos", "sin"), rope_tables(np.arange(t))):
            to_layout(table, ROPE_TABLE, axes).tofile(os.path.join(d, name + ".bin"))


def read_cells(d, name, mapping, axes, dtype, what):
    flat = np.fromfile(os.path.join(d, name), dtype=dtype)
    cells = int(np.prod(list(axes.values())))
    if flat.size != cells:
        raise SystemExit("%s: expected %d %s values, found %d" % (name, cells, what, flat.size))
    return from_layout(flat, mapping, axes)


def read_bf16(d, name, mapping, axes):
    return read_cells(d, name, mapping, axes, np.uint16, "bf16")


def read_f32(d, name, mapping, axes):
    return read_cells(d, name, mapping, axes, np.float32, "f32")


def prefill_gemm(d):
    """-> {output name: (expected bf16 bits, float64 reference)}"""
    x = bf16_to_f32(read_bf16(d, "x.bin", GEMM_X, axes_of("TH")))
    w = bf16_to_f32(read_bf16(d, "w.bin", GEMM_W, axes_of("OH")))
    ref = x.astype(np.float64) @ w.astype(np.float64).T
    return {"y.bin": (f32_to_bf16(contract(x, w)), ref, GEMM_Y, axes_of("TO"))}


RMS_AXES = {"T": 512, "H": 1024}
RMS_X = "[T / 256, T % 256 / 32, H / 32, T % 32, H % 32]"
RMS_EPS = np.float32(1e-6)


def rmsnorm(x, w, block, halves=1):
    """x's rows normalised as the prefill kernels do it: per token, each slice sums the squares
    of its `block` values of each of `halves` parts of h (in h order, the parts in order; the
    intra-slice reducer, tokens in the lanes after the transpose), the slices' sums add by a
    pairwise tree in slice order (inter-slice reducer), rms = sqrt(fma(sum, 1/H, 1e-6)), then
    (x w) / rms in f32. -> (f32 result, float64 rule)"""
    t, h = x.shape
    sq = x * x  # exact: bf16 squares fit binary32
    slices = h // halves // block
    per_slice = sq.reshape(t, halves, slices, block).transpose(0, 2, 1, 3)
    sums = tree(running_sum(per_slice.reshape(t, slices, halves * block)))
    # fma(s, 1/H, eps) rounds once. For H a power of two s / H is exact, so it is this f32 sum;
    # otherwise the product of the two f32 is exact in float64 and the sum rounds once there.
    if h & (h - 1) == 0:
        rms = np.sqrt(sums * np.float32(1.0 / h) + RMS_EPS)
    else:
        m = sums.astype(np.float64) * np.float64(np.float32(1.0 / h)) + np.float64(RMS_EPS)
        rms = np.sqrt(m.astype(np.float32))
    x64 = x.astype(np.float64)
    ref = x64 * w.astype(np.float64)[None, :] / np.sqrt((x64 * x64).mean(axis=1) + 1e-6)[:, None]
    return (x * w[None, :]) / rms[:, None], ref


def prefill_rmsnorm(d):
    """examples/prefill_rmsnorm.mlir: 32 values of h per slice."""
    x = bf16_to_f32(read_bf16(d, "x.bin", RMS_X, RMS_AXES))
    w = bf16_to_f32(np.fromfile(os.path.join(d, "w.bin"), dtype=np.uint16))
    y, ref = rmsnorm(x, w, 32)
    return {"y.bin": (f32_to_bf16(y), ref, RMS_X, RMS_AXES)}


def head_rmsnorm(q, w):
    """Per-token RMSNorm of each 128-row head of q [T, O] (bf16 values) with weight w [O], as
    the prefill projection does it: the sums of squares of q, each slice's 16 rows (d = 64 J +
    8 j + lane on slice j) added in [J, lane] order, a head's 8 slices by a pairwise tree;
    rms = sqrt(fma(sum, 1/128, 1e-6)); then bf16((q w) / rms)."""
    t, o = q.shape
    q64 = q.astype(np.float64).reshape(t, o // 128, 128)  # the rule: float64 from q on
    ref = q64 * w.astype(np.float64).reshape(1, o // 128, 128) / \
        np.sqrt((q64 * q64).mean(axis=2) + 1e-6)[:, :, None]
    q = q.astype(np.float32)  # bf16 values, exact
    qb = q.reshape(t, o // 128, 2, 8, 8)  # [T, head, J, j, lane]
    sq = qb * qb
    per_slice = running_sum(sq.transpose(0, 1, 3, 2, 4).reshape(t, o // 128, 8, 16))
    sums = tree(per_slice)  # [T, head]
    rms = np.sqrt(sums * np.float32(1.0 / 128) + RMS_EPS)
    out = (q * w[None, :]).reshape(t, o // 128, 128) / rms[:, :, None]
    return f32_to_bf16(out.reshape(t, o)), ref.reshape(t, o)


def normalised_heads(d):
    """x^ = bf16(RMSNorm(x)) with 16 values of each half of h per slice (32 slices), q = x^ w^T
    as two contractions over the halves of h (each as prefill_gemm computes it, f32) whose sums
    are added, every 128-row head normalised (head_rmsnorm):
    -> (bf16 bits, rule, raw q bits, raw q's rule)"""
    x = bf16_to_f32(read_bf16(d, "x.bin", GEMM_X, axes_of("TH")))
    rw = bf16_to_f32(np.fromfile(os.path.join(d, "input_rms_weight.bin"), dtype=np.uint16))
    w = bf16_to_f32(read_bf16(d, "qkv_weight.bin", PROJ_W, axes_of("OH")))
    hw = bf16_to_f32(np.fromfile(os.path.join(d, "head_rms_weight.bin"), dtype=np.uint16))
    xn, _ = rmsnorm(x, rw, 16, halves=2)
    xh = bf16_to_f32(f32_to_bf16(xn))  # a rounding point: the float64 rule starts from it
    half = x.shape[1] // 2
    # a rounding point: the halves' sums added in f32, then bf16
    raw = f32_to_bf16(contract(xh[:, :half], w[:, :half]) + contract(xh[:, half:], w[:, half:]))
    raw_ref = xh.astype(np.float64) @ w.astype(np.float64).T
    bits, _ = head_rmsnorm(bf16_to_f32(raw), hw)
    _, ref = head_rmsnorm(raw_ref, hw)
    return bits, ref, raw, raw_ref


ROPE_TABLE = "[T / 256, F / 8, T % 64, T % 256 / 64, F % 8]"
ROPE_THETA, HEAD_DIM = 1e6, 128  # Qwen3-0.6B's config.json


def double_to_bf16(values):
    """Round float64 to bf16 once, nearest even (finite values in f32's normal range or 0)."""
    b = np.asarray(values, dtype=np.float64).view(np.uint64)
    rounded = (b + np.uint64(0xFFFFFFFFFFF) + ((b >> np.uint64(45)) & np.uint64(1))) >> \
        np.uint64(45) << np.uint64(45)
    return (rounded.view(np.float64).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def rope_tables(positions):
    """cos and sin [len(positions), HEAD_DIM / 2] as bf16 bits: angle p * theta^(-2f / D) in
    float64, rounded once (as rngd-qwen3 makes them). The check computes them itself rather
    than reading the kernel's cos.bin and sin.bin, so a wrong table cannot pass."""
    f = np.arange(HEAD_DIM // 2, dtype=np.float64)
    angle = np.asarray(positions, dtype=np.float64)[:, None] * \
        np.power(ROPE_THETA, -2.0 * f / HEAD_DIM)[None, :]
    return double_to_bf16(np.cos(angle)), double_to_bf16(np.sin(angle))


def rope(xn, cos, sin):
    """RoPE of every 128-row head of xn [T, O] (bf16 values as f32) with the tables cos, sin
    [T, 64] (bf16 as f32): rows d < 64 become bf16(x0 cos + (-x1) sin), rows d + 64 become
    bf16(x1 cos + x0 sin); each product is exact, the sum rounds once."""
    t, o = xn.shape
    x = xn.reshape(t, o // 128, 2, 64)
    c, s = cos[:, None, :], sin[:, None, :]
    lo = x[:, :, 0] * c + (-x[:, :, 1]) * s
    hi = x[:, :, 1] * c + x[:, :, 0] * s
    out = np.stack([lo, hi], axis=2).reshape(t, o)
    x64, c64, s64 = x.astype(np.float64), cos[:, None, :].astype(np.float64), sin[:, None, :].astype(np.float64)
    ref = np.stack([x64[:, :, 0] * c64 - x64[:, :, 1] * s64, x64[:, :, 1] * c64 + x64[:, :, 0] * s64],
                   axis=2).reshape(t, o)
    return f32_to_bf16(out), ref


QKV_Q = "[T / 256, Q / 128, T % 256 / 16, Q % 128 / 8, T % 16, Q % 8]"
CACHE = "[T, N, D]"


def prefill_projection(d):
    """qwen3/prefill_projection_t512.mlir: the normalised heads rotated (RoPE, from the bf16 heads);
    q_out holds q's 16 heads, k_cache the 8 k heads (rotated), v_cache the 8 v heads (the raw
    GEMM rows, bf16)."""
    qn, _, raw, raw_ref = normalised_heads(d)
    t = GEMM_AXES["T"]
    cos, sin = (bf16_to_f32(table) for table in rope_tables(np.arange(t)))
    bits, ref = rope(bf16_to_f32(qn), cos, sin)
    cache_axes = {"T": t, "N": 8, "D": 128}
    return {"q_out.bin": (bits[:, :2048], ref[:, :2048], QKV_Q, {"T": t, "Q": 2048}),
            "k_cache.bin": (bits[:, 2048:3072], ref[:, 2048:3072], CACHE, cache_axes),
            "v_cache.bin": (raw[:, 3072:], raw_ref[:, 3072:], CACHE, cache_axes)}


ATTN_AXES = {"N": 8, "G": 2, "TB": 8, "TT": 4, "TQ": 16, "D": 128}  # q [N, G, T, D]
ATTN_Q = "[TB / 4, N, G, TB % 4, TT, D / 8, TQ, D % 8]"
ATTN_KV_AXES = {"SB": 8, "SI": 64, "N": 8, "D": 128}  # the chunk [S, N, D]
ATTN_KV = "[SB, SI, N, D]"
ATTN_A = "[N, G, D / 16, TB, TT, TQ, D % 16]"
ATTN_TILE_AXES = {"TB": 8, "SB": 8, "TQ": 16}
ATTN_DIAG_AXES = {"TT": 4, "SI": 64, "TQ": 16}
MASKED = np.float32(-2.0 ** 100)  # far below any score, finite: 0 x it is no NaN
SCALE = np.float32(11.313708)     # sqrt(128) as the kernels' div_f immediate


def attention_masks():
    """The causal tables of qwen3/prefill_attention_first_t512.mlir (positions relative to the
    chunk): tile_mask [TB, SB, TQ] masks key tiles at or after the query's 64-position tile,
    diag_mask [TT, SI, TQ] the keys after the query within its tile."""
    tb, sb = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    tile = np.where(sb < tb, np.float32(0), MASKED).astype(np.float32)
    tile = np.repeat(tile[:, :, None], 16, axis=2)
    tt, si, tq = np.meshgrid(np.arange(4), np.arange(64), np.arange(16), indexing="ij")
    diag = np.where(si <= tt * 16 + tq, np.float32(0), MASKED).astype(np.float32)
    return tile, diag


def attention_inputs(d):
    """The attention stages' inputs: q [head, T, D], k and v [S, N, D] (bf16 as f32) and the
    carried state m, l [head, T], o [head, T, D] (f32)."""
    q = bf16_to_f32(read_bf16(d, "q.bin", ATTN_Q, ATTN_AXES)).reshape(16, 512, 128)
    k = bf16_to_f32(read_bf16(d, "k_cache.bin", ATTN_KV, ATTN_KV_AXES)).reshape(512, 8, 128)
    v = bf16_to_f32(read_bf16(d, "v_cache.bin", ATTN_KV, ATTN_KV_AXES)).reshape(512, 8, 128)
    m = read_f32(d, "max_in.bin", ATTN_STATE, ATTN_STATE_AXES).reshape(16, 512)
    l = read_f32(d, "sum_in.bin", ATTN_STATE, ATTN_STATE_AXES).reshape(16, 512)
    o = read_f32(d, "out_in.bin", ATTN_OUT_STATE, ATTN_AXES).reshape(16, 512, 128)
    return q, k, v, m, l, o


def prefill_attention_first(d):
    """qwen3/prefill_attention_first_t512.mlir: causal attention of 512 queries over the chunk's 512
    keys, per q head h (kv head h / 2). Scores s = bf16((q . k + mask) / SCALE) with the
    contraction's sums (32 values of d a packet); the main part masks whole 64-key tiles at or
    after the query's, the diagonal tile comes again with the exact mask; m = the max over
    both; p = bf16(exp(s - m)) (exp in float64, rounded to f32); l = p . 1 (main part, then
    the diagonal's added); o = p . V over every key + p . V over the diagonal tile (f32);
    the carried state (m_in, l_in, o_in: earlier chunks, prefill_attention) folds in at
    m = max(m_main, m_diag, m_in), alpha = exp(m_in - m), l += l_in alpha, o_diag += o_in alpha;
    a = bf16(o / l)."""
    q, k, v, m_in, l_in, o_in = attention_inputs(d)
    tile, diag = attention_masks()
    pos = np.arange(512)
    tile_add = tile[pos[:, None] // 64, pos[None, :] // 64, 0]       # [t, s]
    diag_add = diag[pos[:, None] % 64 // 16, np.arange(64)[None, :], pos[:, None] % 16]  # [t, s % 64]
    out = np.zeros((16, 512, 128), np.uint16)
    a_ref = np.zeros((16, 512, 128))
    causal = pos[None, :] <= pos[:, None]
    ones = np.ones((1, 512), np.float32)
    for h in range(16):
        kh, vh = k[:, h // 2], v[:, h // 2]
        raw = contract(q[h], kh)                                     # [t, s]
        main = bf16_to_f32(f32_to_bf16((raw + tile_add) / SCALE))
        own = np.stack([raw[t, t // 64 * 64:t // 64 * 64 + 64] for t in range(512)])
        dg = bf16_to_f32(f32_to_bf16((own + diag_add) / SCALE))     # [t, 64]
        m = np.maximum(np.maximum(main.max(axis=1), dg.max(axis=1)), m_in[h])
        alpha = np.exp((m_in[h] - m).astype(np.float64)).astype(np.float32)
        pm = bf16_to_f32(f32_to_bf16(np.exp((main - m[:, None]).astype(np.float64)).astype(np.float32)))
        pd = bf16_to_f32(f32_to_bf16(np.exp((dg - m[:, None]).astype(np.float64)).astype(np.float32)))
        l = (contract(pm, ones)[:, 0] + contract(pd, ones[:, :64])[:, 0]) + l_in[h] * alpha
        om = contract(pm, vh.T)
        od = np.stack([contract(pd[t:t + 1], vh[t // 64 * 64:t // 64 * 64 + 64].T)[0]
                       for t in range(512)]) + o_in[h] * alpha[:, None]
        out[h] = f32_to_bf16((om + od) / l[:, None])
        # The float64 rule, from the bf16 q, k and v.
        s64 = (q[h].astype(np.float64) @ kh.astype(np.float64).T) / np.sqrt(128.0)
        s64 = np.where(causal, s64, -np.inf)
        big = np.maximum(s64.max(axis=1), m_in[h].astype(np.float64))
        p64, a64 = np.exp(s64 - big[:, None]), np.exp(m_in[h].astype(np.float64) - big)
        a_ref[h] = (p64 @ vh.astype(np.float64) + o_in[h] * a64[:, None]) / \
            (p64.sum(axis=1) + l_in[h] * a64)[:, None]
    return {"attn.bin": (out.reshape(8, 2, 8, 4, 16, 128), a_ref.reshape(8, 2, 8, 4, 16, 128),
                         ATTN_A, ATTN_AXES)}


ATTN_STATE_AXES = {"N": 8, "G": 2, "TB": 8, "TT": 4, "TQ": 16}
ATTN_STATE = "[N, G, TB, TT, TQ]"
ATTN_OUT_STATE = "[N, G, TB, TT, D % 64, D / 64, TQ]"


def prefill_attention(d):
    """qwen3/prefill_attention_t512.mlir: 512 queries against one earlier, full chunk, folded into
    each query's state (m, l, o): s = bf16(q . k / SCALE); m' = max(m, max_s s); alpha =
    exp(m - m') (float64, rounded to f32); p = bf16(exp(s - m')); l' = l alpha + p . 1;
    o' = p . V + o alpha (f32). The rule compares m' with the float64 max, l' with the float64
    sum over the old state and the chunk relative to the state's max m', and o' / l' with the
    float64 attention o_ref / l_ref."""
    q, k, v, m_old, l_old, o_old = attention_inputs(d)
    ones = np.ones((1, 512), np.float32)
    m_new, l_new, o_new = (np.zeros_like(m_old), np.zeros_like(l_old), np.zeros_like(o_old))
    m_ref, l_ref, o_ref = (np.zeros(m_old.shape), np.zeros(l_old.shape), np.zeros(o_old.shape))
    for h in range(16):
        kh, vh = k[:, h // 2], v[:, h // 2]
        s = bf16_to_f32(f32_to_bf16(contract(q[h], kh) / SCALE))
        m = np.maximum(s.max(axis=1), m_old[h])
        alpha = np.exp((m_old[h] - m).astype(np.float64)).astype(np.float32)
        p = bf16_to_f32(f32_to_bf16(np.exp((s - m[:, None]).astype(np.float64)).astype(np.float32)))
        m_new[h] = m
        l_new[h] = l_old[h] * alpha + contract(p, ones)[:, 0]
        o_new[h] = contract(p, vh.T) + o_old[h] * alpha[:, None]
        s64 = (q[h].astype(np.float64) @ kh.astype(np.float64).T) / np.sqrt(128.0)
        m_ref[h] = np.maximum(s64.max(axis=1), m_old[h].astype(np.float64))
        big = m.astype(np.float64)  # l' and o' are relative to the state's max
        a64 = np.exp(m_old[h].astype(np.float64) - big)
        p64 = np.exp(s64 - big[:, None])
        l_ref[h] = l_old[h] * a64 + p64.sum(axis=1)
        o_ref[h] = p64 @ vh.astype(np.float64) + o_old[h] * a64[:, None]
    st = (8, 2, 8, 4, 16)
    return {"max_hbm.bin": (m_new.view(np.uint32).reshape(st), m_ref.reshape(st), ATTN_STATE,
                            ATTN_STATE_AXES),
            "sum_hbm.bin": (l_new.view(np.uint32).reshape(st), l_ref.reshape(st), ATTN_STATE,
                            ATTN_STATE_AXES),
            # o' against the float64 attention it stands for: o' / l' (l' the emulated sum,
            # the kernel's when the sums are bit-exact) against o_ref / l_ref.
            "out_hbm.bin": (o_new.view(np.uint32).reshape(st + (128,)),
                            (o_ref / l_ref[:, :, None]).reshape(st + (128,)), ATTN_OUT_STATE,
                            ATTN_AXES,
                            np.broadcast_to(l_new.astype(np.float64)[:, :, None],
                                            o_new.shape).reshape(st + (128,)))}

DEC_AXES = {"T": 512, "H": 1024, "Q": 2048, "L": 3072}
DEC_ATTN = "[Q / 16, T, Q % 16]"


def down_order():
    """The order in which prefill_decoder's down contraction meets block k's 1024 values of
    L: [L % 32 / 16, L % 1024 / 32, L % 16], the pack-2 packet two consecutive L % 1024 / 32."""
    a, b, e = np.meshgrid(np.arange(2), np.arange(32), np.arange(16), indexing="ij")
    return (32 * b + 16 * a + e).ravel()


def silu_times(g, u):
    """p = bf16(f32(f32(sigmoid(g)) g) u), sigmoid in float64 rounded to f32 (decode's rule)."""
    sig = (1.0 / (1.0 + np.exp(-g.astype(np.float64)))).astype(np.float32)
    return f32_to_bf16((sig * g) * u)


def prefill_decoder(d):
    """qwen3/prefill_decoder_t512.mlir: r = bf16(((P0 + P1) + P2) + P3 + x), P_k o_proj's partial
    sums over K blocks of 512; h = bf16(RMSNorm(r)) (16 values of h per slice, as the
    projection's x); g, u = h W^T; p = silu_times(g, u); y = bf16((D0 + D1) + D2 + r), D_k the
    down partial sums over K blocks of 1024 in down_order()."""
    ax = DEC_AXES
    a = bf16_to_f32(read_bf16(d, "attn.bin", DEC_ATTN, {"T": ax["T"], "Q": ax["Q"]}))
    x = bf16_to_f32(read_bf16(d, "x.bin", GEMM_X, axes_of("TH")))
    wo = bf16_to_f32(read_bf16(d, "o_weight.bin", "[H, Q]", {"H": ax["H"], "Q": ax["Q"]}))
    pw = bf16_to_f32(np.fromfile(os.path.join(d, "post_rms_weight.bin"), dtype=np.uint16))
    lh = {"L": ax["L"], "H": ax["H"]}
    wg = bf16_to_f32(read_bf16(d, "gate_weight.bin", "[L, H]", lh))
    wu = bf16_to_f32(read_bf16(d, "up_weight.bin", "[L, H]", lh))
    wd = bf16_to_f32(read_bf16(d, "down_weight.bin", "[H, L]", {"H": ax["H"], "L": ax["L"]}))
    parts = [contract(a[:, 512 * k:512 * k + 512], wo[:, 512 * k:512 * k + 512]) for k in range(4)]
    r = bf16_to_f32(f32_to_bf16((((parts[0] + parts[1]) + parts[2]) + parts[3]) + x))
    hn, _ = rmsnorm(r, pw, 16)
    h = bf16_to_f32(f32_to_bf16(hn))
    p = bf16_to_f32(silu_times(contract(h, wg), contract(h, wu)))
    order = down_order()
    downs = [contract(p[:, 1024 * k + order], wd[:, 1024 * k + order]) for k in range(3)]
    y = f32_to_bf16(((downs[0] + downs[1]) + downs[2]) + r)
    # The float64 rule, from the bf16 inputs.
    r64 = x.astype(np.float64) + a.astype(np.float64) @ wo.astype(np.float64).T
    h64 = r64 * pw.astype(np.float64)[None, :] / np.sqrt((r64 * r64).mean(axis=1) + 1e-6)[:, None]
    g64, u64 = h64 @ wg.astype(np.float64).T, h64 @ wu.astype(np.float64).T
    p64 = g64 / (1.0 + np.exp(-g64)) * u64
    y64 = r64 + p64 @ wd.astype(np.float64).T
    return {"y.bin": (y, y64, GEMM_X, axes_of("TH"))}


KERNELS = {"prefill_gemm": prefill_gemm, "prefill_rmsnorm": prefill_rmsnorm,
           "prefill_projection": prefill_projection,
           "prefill_attention_first": prefill_attention_first,
           "prefill_attention": prefill_attention,
           "prefill_decoder": prefill_decoder}


def compare(name, expected, ref, got, out=sys.stdout, divisor=None):
    """Bit-exactness, and the float64 rule on the values (divided by `divisor` first: an
    unnormalised sum against its normalised reference)."""
    n = expected.size
    bad = np.flatnonzero(expected.ravel() != got.ravel())
    actual = (bf16_to_f32(got) if got.dtype == np.uint16 else got.view(np.float32)).astype(np.float64)
    if divisor is not None:
        actual = actual / divisor
    diff = np.abs(actual - ref)
    within = np.count_nonzero(diff <= np.maximum(0.01 * np.abs(ref), 2.0 ** -8))
    print("%s: %d values, %d bit-exact, reference rule %.2f%% within tolerance (max |diff| %.3g)"
          % (name, n, n - bad.size, 100.0 * within / n, float(np.nanmax(diff))), file=out)
    digits = 2 * expected.dtype.itemsize
    for i in bad[:8]:
        print("  mismatch at %d: expected 0x%0*x, got 0x%0*x"
              % (i, digits, expected.ravel()[i], digits, got.ravel()[i]), file=out)
    return 0 if bad.size == 0 and within >= 0.995 * n else 1


def check(kernel, d, out=sys.stdout):
    rc = 0
    for name, (expected, ref, mapping, axes, *divisor) in KERNELS[kernel](d).items():
        path = os.path.join(d, name)
        got = np.fromfile(path, dtype=expected.dtype) if os.path.exists(path) else \
            np.zeros(0, expected.dtype)
        if got.size != expected.size:
            print("%s: expected %d values, found %d" % (name, expected.size, got.size), file=out)
            rc = 1
            continue
        got = from_layout(got, mapping, axes).reshape(expected.shape)
        rc |= compare("%s %s" % (kernel, name), expected, np.reshape(ref, expected.shape), got, out,
                      np.reshape(divisor[0], expected.shape) if divisor else None)
    return rc


# ---------------------------------------------------------------------------------------
# Self-test: the helpers against plain Python on small cases.


def selftest():
    fails = []

    def eq(what, got, want):
        if not np.array_equal(np.asarray(got), np.asarray(want)):
            fails.append("%s: got %s, want %s" % (what, got, want))

    eq("bf16 round to even", f32_to_bf16(np.array([1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8], np.float32)),
       [0x3F80, 0x3F82])
    eq("bf16 NaN stays NaN", f32_to_bf16(np.array([np.nan], np.float32))[0] & 0x7FC0, 0x7FC0)
    eq("bf16 decode", bf16_to_f32([0x3F80, 0xC000]), [1.0, -2.0])
    # From float64 in one rounding: 1 + 2^-8 + 2^-40 is above the tie (via f32 it would be the
    # tie 1 + 2^-8 and round to even, 0x3F80).
    eq("bf16 from double", double_to_bf16([1.0 + 2.0 ** -8, 1.0 + 2.0 ** -8 + 2.0 ** -40, -0.0,
                                           -3.0 * 2.0 ** -8]), [0x3F80, 0x3F81, 0x8000, 0xBC40])
    # RoPE at position 600, frequency 32: 600 * 1e6^(-1/2) = 0.6 rad.
    cos, sin = rope_tables([0, 600])
    eq("rope position 0", (cos[0, :3], sin[0, :3]), ([0x3F80] * 3, [0] * 3))
    eq("rope theta", (cos[1, 32], sin[1, 32]), (double_to_bf16(np.cos(0.6)),
                                                double_to_bf16(np.sin(0.6))))
    # The tree: ((a + b) + (c + d)), not a running sum: 2^24 + 1 + 1 + ... differs.
    x = np.array([[2.0 ** 24, 1.0, 1.0, 1.0]], np.float32)
    w = np.ones((1, 4), np.float32)
    eq("pairwise tree", contract(x, w, packet=4), [[np.float32(2.0 ** 24 + 2.0)]])
    eq("running sum in order", running_sum(np.array([[2.0 ** 24, 1.0, 1.0, 2.0]], np.float32)),
       [np.float32(2.0 ** 24 + 2.0)])
    eq("packets in order", contract(np.array([[2.0 ** 24, 1.0, 1.0, 0.0]], np.float32),
                                    np.ones((1, 4), np.float32), packet=2),
       [[np.float32(2.0 ** 24)]])
    # Layouts: a permutation and its inverse.
    ax = {"T": 4, "H": 8}
    a = np.arange(32, dtype=np.uint16).reshape(4, 8)
    flat = to_layout(a, "[T / 2, H / 4, T % 2, H % 4]", ax)
    eq("layout order", flat[:8], [0, 1, 2, 3, 8, 9, 10, 11])
    eq("layout round trip", from_layout(flat, "[T / 2, H / 4, T % 2, H % 4]", ax), a)
    eq("mod then div", to_layout(a, "[H % 4 / 2, T, H / 4, H % 2]", ax)[:4], [0, 1, 4, 5])
    for f in fails:
        print("FAIL " + f)
    print("selftest: %s (%d failures)" % ("ok" if not fails else "FAILED", len(fails)))
    return 1 if fails else 0


def main(argv):
    if argv[:1] == ["make-inputs"] and len(argv) == 5:
        make_inputs(argv[1], argv[2], int(argv[3]), argv[4])
        return 0
    if argv[:1] == ["check"] and len(argv) == 3 and argv[1] in KERNELS:
        return check(argv[1], argv[2])
    if argv == ["selftest"]:
        return selftest()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
