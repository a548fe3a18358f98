#!/usr/bin/env python3
"""Independent host oracle for the gemv, gemm, rmsnorm and softmax NPU kernels.

Computes each kernel's output from its input files without the compiler or the simulator,
emulating the device numerics bit for bit (binary32 round-to-nearest-even, bf16 RNE,
pairwise reduction trees), and also checks the output against plain float64 math.

  engines_oracle.py make-inputs KERNEL DIR SEED DIST   write KERNEL's inputs into DIR
  engines_oracle.py check KERNEL DIR                   exit 0 iff DIR/y.bin passes
  engines_oracle.py emulate KERNEL DIR                 write the emulated DIR/y.bin
  engines_oracle.py selftest                           test the helpers and `check`

KERNEL is gemv, gemm, rmsnorm or softmax; DIST is `uniform` ([0, 1)) or `small` (realistic
small magnitudes).  Files are raw little-endian: bf16 as uint16 bit patterns, f32 as binary32.

  gemv     x.bin bf16 [1024], w.bin bf16 [2048, 1024] row-major  ->  y.bin bf16 [2048]
  gemm     x.bin bf16 [8, 256], w.bin bf16 [256, 256]            ->  y.bin bf16 [8, 256]
  rmsnorm  x.bin bf16 [1024], w.bin bf16 [1024]                  ->  y.bin bf16 [1024]
  softmax  x.bin f32 [512]                                       ->  y.bin f32 [512]

`check` passes iff every output is bit-exact with the emulation AND at least 99.5 % of the
outputs are within max(1 % relative, 2^-8 absolute) of the float64 reference.
Pure Python 3 standard library; it shares no code with oracle.py.
"""
import argparse
import math
import os
import re
import struct
import sys
import tempfile
import time
from array import array
from fractions import Fraction

# ---------------------------------------------------------------------------------------
# binary32 / bf16 rounding helpers.  f32 values are held as Python floats (binary64), which
# represent every binary32 value exactly.

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")
F32_MAX = float.fromhex("0x1.fffffep127")
INF = float("inf")


def f32_bits(x):
    """binary32 bit pattern of an f32-representable float (or of its f32 rounding)."""
    return _U32.unpack(_F32.pack(f32(x)))[0]


def f32_from_bits(b):
    return _F32.unpack(_U32.pack(b & 0xFFFFFFFF))[0]


def f32(x):
    """Round a float64 (assumed to be the EXACT value) or a Fraction/int to binary32, RNE."""
    if not isinstance(x, float):
        return f32_exact(x)
    try:
        return _F32.unpack(_F32.pack(x))[0]  # C double->float cast: one RNE rounding
    except OverflowError:  # struct refuses finite values that round to inf
        return math.copysign(INF, x)


def f32_exact(q):
    """Round an exact rational (Fraction or int) to nearest-even binary32.

    Handles subnormals (quantum 2^-149) and overflow (>= FLT_MAX + half ulp -> inf).
    Zero comes back as +0.0; callers that care about the sign of zero handle it."""
    q = Fraction(q)
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    n, d = abs(q.numerator), q.denominator
    e = n.bit_length() - d.bit_length()  # 2^(e-1) < |q| < 2^(e+1)
    if (n << max(-e, 0)) < (d << max(e, 0)):
        e -= 1  # now 2^e <= |q| < 2^(e+1)
    if e >= 128:
        return sign * INF
    qe = max(e - 23, -149)  # exponent of the quantum (ulp) at this magnitude
    num, den = (n << -qe, d) if qe < 0 else (n, d << qe)
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and m & 1):
        m += 1
    value = math.ldexp(m, qe)
    if value > F32_MAX:
        return sign * INF
    return sign * value


def bf16_from_f32_bits(b):
    """bf16 bit pattern of a binary32 bit pattern: round to nearest even, NaN stays NaN."""
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF):
        return ((b >> 16) | 0x0040) & 0xFFFF  # keep sign, force a quiet NaN
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bf16(x):
    """bf16 bit pattern of the f32 rounding of x."""
    return bf16_from_f32_bits(f32_bits(x))


def bf16_value(h):
    return f32_from_bits(h << 16)


def f32_add(a, b):
    """f32(a + b) for f32 values a, b, rounded once from the exact sum.

    The float64 sum is exact unless the exponents are ~30 apart; exactness is detected
    with the Fast2Sum identity (with |a| >= |b|, s - a is computed exactly, so the sum is
    exact iff s - a == b and s - b == a), and the rare inexact case goes through Fraction."""
    s = a + b
    if (s - a == b and s - b == a) or not (math.isfinite(a) and math.isfinite(b)):
        return f32(s)
    return f32_exact(Fraction(a) + Fraction(b))


def f32_div(a, b):
    """f32(a / b): one rounding of the exact quotient (IEEE specials included)."""
    if math.isnan(a) or math.isnan(b) or (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
        return math.nan
    neg = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
    if math.isinf(a) or b == 0:
        return -INF if neg else INF
    if a == 0 or math.isinf(b):
        return -0.0 if neg else 0.0
    r = f32_exact(Fraction(a) / Fraction(b))
    return -0.0 if r == 0 and neg else r


def f32_fma(a, b, c):
    """f32(a * b + c) with a single rounding of the exact value."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return f32(a * b + c)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return f32(a * b + c)  # sign of zero per IEEE; float64 gets it right here
    return f32_exact(exact)


def f32_sqrt(a):
    """Correctly rounded binary32 square root of an f32 value (exact, via math.isqrt)."""
    if math.isnan(a) or a < 0:
        return math.nan
    if a == 0 or math.isinf(a):
        return a
    q = Fraction(a)
    n, t = q.numerator, q.denominator.bit_length() - 1  # a = n / 2^t
    # a = N / 4^k with N an integer of >= 61 bits, so isqrt(N) has > 26 bits and the
    # rounding boundaries of binary32 at that scale fall on integers.
    k = max((t + 1) // 2, (61 - n.bit_length() + t + 1) // 2)
    big = n << (2 * k - t)
    r = math.isqrt(big)
    if r * r == big:
        return f32_exact(Fraction(r, 1 << k))
    return f32_exact(Fraction(2 * r + 1, 1 << (k + 1)))  # sticky: strictly inside (r, r+1)


def round_f32_list(values):
    """Round a list of float64 values (each the exact result) to f32, in bulk."""
    return array("f", values).tolist()  # C double->float casts; overflow gives inf


def add_level(a, b):
    """Elementwise f32(a[i] + b[i]) over two lists of f32 values."""
    s = [x + y for x, y in zip(a, b)]
    for k, (x, y, z) in enumerate(zip(a, b, s)):
        if z - x != y or z - y != x:  # not exact in float64 (or a non-finite operand)
            s[k] = f32_add(x, y)
    return round_f32_list(s)


def tree(values):
    """Pairwise f32-add tree: combine v[2j] and v[2j+1] level by level; an odd last
    element passes up unchanged; stop at one value."""
    v = list(values)
    if not v:
        raise ValueError("empty reduction")
    while len(v) > 1:
        odd = v[-1] if len(v) % 2 else None
        v = add_level(v[0:len(v) - 1:2], v[1::2])
        if odd is not None:
            v.append(odd)
    return v[0]


def segmented_tree(values, width):
    """tree() over each consecutive group of `width` values, all groups at once.

    Only for power-of-two widths: then no level has an odd element, and pairs never
    straddle two groups, so level-wise adds over the whole list equal per-group trees."""
    assert width & (width - 1) == 0 and len(values) % width == 0
    v = list(values)
    while width > 1:
        v = add_level(v[0::2], v[1::2])
        width //= 2
    return v


# ---------------------------------------------------------------------------------------
# Raw little-endian files.

def _native(arr):
    if sys.byteorder != "little":
        arr.byteswap()
    return arr


def read_u16(path):
    a = array("H")
    a.frombytes(open(path, "rb").read())
    return _native(a).tolist()


def read_u32(path):
    a = array("I")
    a.frombytes(open(path, "rb").read())
    return _native(a).tolist()


def write_u16(path, values):
    open(path, "wb").write(_native(array("H", values)).tobytes())


def write_u32(path, values):
    open(path, "wb").write(_native(array("I", values)).tobytes())


def bf16_list_to_floats(bits):
    """Values of a list of bf16 bit patterns (fast: build the f32 bytes and cast)."""
    raw = _native(array("H", bits)).tobytes()
    buf = bytearray(2 * len(raw))
    buf[2::4] = raw[0::2]  # little-endian f32 = 00 00 lo hi
    buf[3::4] = raw[1::2]
    f = array("f")
    f.frombytes(bytes(buf))
    return _native(f).tolist()


def f32_list_to_bits(values):
    a = array("f", values)
    return array("I", a.tobytes()).tolist()


def bits_to_f32_list(bits):
    return array("f", array("I", bits).tobytes()).tolist()


# ---------------------------------------------------------------------------------------
# Counter-based inputs: element i of stream `tag` under `seed` is splitmix64's finaliser
# applied to key + (i+1)*gamma, so every element is independent of how many were drawn.

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
TAGS = {"x": 1, "w": 2}


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_key(seed, name):
    return mix64(((seed & MASK64) ^ mix64(TAGS[name] * GAMMA & MASK64)) & MASK64)


def raw64(key, count):
    return [mix64((key + (i + 1) * GAMMA) & MASK64) for i in range(count)]


def uniforms24(key, count):
    """Uniform [0, 1) on a 2^-24 grid (exact in f32, and truncation to bf16 stays < 1)."""
    return [(z >> 40) * 2.0 ** -24 for z in raw64(key, count)]


def normals(key, count, mean=0.0, std=1.0):
    """Box-Muller from the uniforms of elements 2i and 2i+1 (53-bit uniforms)."""
    z = raw64(key, 2 * count)
    out = []
    for i in range(count):
        u1 = (z[2 * i] >> 11) * 2.0 ** -53
        u2 = (z[2 * i + 1] >> 11) * 2.0 ** -53
        out.append(mean + std * math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2 * math.pi * u2))
    return out


def to_bf16_trunc(values):
    return [b >> 16 for b in f32_list_to_bits(values)]


def to_bf16_rne(values):
    return [bf16_from_f32_bits(b) for b in f32_list_to_bits(values)]


# ---------------------------------------------------------------------------------------
# Kernels: shapes, input generation, bit-exact emulation and float64 reference.

GEMV_I, GEMV_J, GEMV_BLOCK = 2048, 1024, 32
GEMM_T, GEMM_I, GEMM_J = 8, 256, 256
RMS_H, RMS_SLICE = 1024, 4
SM_T, SM_SLICE = 512, 8
RMS_EPS = f32(1e-6)


def make_inputs(kernel, d, seed, dist):
    os.makedirs(d, exist_ok=True)
    kx, kw = stream_key(seed, "x"), stream_key(seed, "w")
    if kernel == "gemv":
        if dist == "uniform":
            x, w = to_bf16_trunc(uniforms24(kx, GEMV_J)), to_bf16_trunc(uniforms24(kw, GEMV_I * GEMV_J))
        else:
            x = to_bf16_rne([min(4.0, max(-4.0, v)) for v in normals(kx, GEMV_J)])
            w = to_bf16_rne(normals(kw, GEMV_I * GEMV_J, 0.0, 0.02))
        write_u16(os.path.join(d, "x.bin"), x)
        write_u16(os.path.join(d, "w.bin"), w)
    elif kernel == "gemm":
        if dist == "uniform":
            x = to_bf16_trunc(uniforms24(kx, GEMM_T * GEMM_J))
            w = to_bf16_trunc(uniforms24(kw, GEMM_I * GEMM_J))
        else:
            x = to_bf16_rne([min(4.0, max(-4.0, v)) for v in normals(kx, GEMM_T * GEMM_J)])
            w = to_bf16_rne(normals(kw, GEMM_I * GEMM_J, 0.0, 0.02))
        write_u16(os.path.join(d, "x.bin"), x)
        write_u16(os.path.join(d, "w.bin"), w)
    elif kernel == "rmsnorm":
        if dist == "uniform":
            x, w = to_bf16_trunc(uniforms24(kx, RMS_H)), to_bf16_trunc(uniforms24(kw, RMS_H))
        else:
            x, w = to_bf16_rne(normals(kx, RMS_H)), to_bf16_rne(normals(kw, RMS_H, 1.0, 0.1))
        write_u16(os.path.join(d, "x.bin"), x)
        write_u16(os.path.join(d, "w.bin"), w)
    elif kernel == "softmax":
        x = uniforms24(kx, SM_T) if dist == "uniform" else normals(kx, SM_T, 0.0, 3.0)
        write_u32(os.path.join(d, "x.bin"), f32_list_to_bits(x))
    elif kernel == "final_layer":
        make_final_layer(d, seed, dist)
    elif kernel == "decoder":
        make_decoder(d, seed, dist)
    elif kernel == "projection":
        make_projection(d, seed, dist)
    elif kernel == "attention_forward_first":
        make_attention_first(d, seed, dist)
    elif kernel == "attention_forward":
        make_attention(d, seed, dist)
    else:
        raise SystemExit("unknown kernel " + kernel)


def _load_bf16(d, name, count):
    bits = read_u16(os.path.join(d, name))
    if len(bits) != count:
        raise SystemExit("%s: expected %d bf16 values, found %d" % (name, count, len(bits)))
    return bf16_list_to_floats(bits)


def gemv(d):
    """-> (expected bf16 bits, float64 reference) for y[i] = sum_j x[j] w[i, j]."""
    I, J, B = GEMV_I, GEMV_J, GEMV_BLOCK
    x = _load_bf16(d, "x.bin", J)
    w = _load_bf16(d, "w.bin", I * J)
    exact = [a * b for a, b in zip(x * I, w)]  # bf16*bf16 is exact in float64
    prods = round_f32_list(exact)  # ... and in f32 (barring underflow, handled here)
    t = segmented_tree(prods, B)  # t[i*32 + jb]: tree over block jb of row i
    nb = J // B
    acc = [0.0] * I
    for jb in range(nb):
        acc = add_level(acc, t[jb::nb])  # acc = f32(acc + t) for every row at once
    ref = [math.fsum(exact[i * J:(i + 1) * J]) for i in range(I)]
    return [bf16_from_f32_bits(b) for b in f32_list_to_bits(acc)], ref


def gemm(d):
    """-> (expected bf16 bits, float64 reference) for y[t, i] = sum_j x[t, j] w[i, j]: every
    token row is a gemv (32-element packets, a pairwise tree each, summed in J order)."""
    T, I, J, B = GEMM_T, GEMM_I, GEMM_J, GEMV_BLOCK
    x = _load_bf16(d, "x.bin", T * J)
    w = _load_bf16(d, "w.bin", I * J)
    bits, ref = [], []
    nb = J // B
    for t in range(T):
        row = x[t * J:(t + 1) * J]
        exact = [a * b for a, b in zip(row * I, w)]
        tr = segmented_tree(round_f32_list(exact), B)
        acc = [0.0] * I
        for jb in range(nb):
            acc = add_level(acc, tr[jb::nb])
        bits += [bf16_from_f32_bits(b) for b in f32_list_to_bits(acc)]
        ref += [math.fsum(exact[i * J:(i + 1) * J]) for i in range(I)]
    return bits, ref


def rmsnorm(d):
    """-> (expected bf16 bits, float64 reference) for y = x*w / sqrt(mean(x^2) + 1e-6)."""
    H = RMS_H
    x, w = _load_bf16(d, "x.bin", H), _load_bf16(d, "w.bin", H)
    v = round_f32_list([a * a for a in x])
    q = segmented_tree(v, RMS_SLICE)  # one partial per slice
    s = tree(q)
    r = f32_sqrt(f32_fma(s, 1.0 / H, RMS_EPS))
    y = [f32_div(f32(a * b), r) for a, b in zip(x, w)]
    rr = math.sqrt(math.fsum(a * a for a in x) / H + 1e-6)
    ref = [a * b / rr for a, b in zip(x, w)]
    return [bf16(v) for v in y], ref


def softmax(d):
    """-> (expected f32 bits, float64 reference) for y = exp(x - max) / sum(exp(x - max))."""
    T = SM_T
    bits = read_u32(os.path.join(d, "x.bin"))
    if len(bits) != T:
        raise SystemExit("x.bin: expected %d f32 values, found %d" % (T, len(bits)))
    x = bits_to_f32_list(bits)
    m = max(x)
    e = [f32(math.exp(f32_add(a, -m))) for a in x]  # exp in float64, then rounded to f32
    q = segmented_tree(e, SM_SLICE)
    s = tree(q)
    y = [f32_div(v, s) for v in e]
    e64 = [math.exp(a - m) for a in x]
    s64 = math.fsum(e64)
    return f32_list_to_bits(y), [v / s64 for v in e64]


# Qwen3 final_layer: RMSNorm over H = 1024 computed on every slice (one reduce slot that
# accumulates 128 flit trees in order), then 19 LM-head tiles of 8192 rows. Only a sample of
# rows carries weights (the rest are zero), so the check stays fast on a 318 MB LM head.
FL_H, FL_ROWS, FL_TILES, FL_W = 1024, 8192, 19, 151936
FL_SAMPLE = [t * FL_ROWS + r for t in (0, 9, 18) for r in (0, 1, 7, 8, 9, 15, 16, 4095, 4096, 4100)]
FL_ZERO = [5 * FL_ROWS + 3, 17 * FL_ROWS + 8000]


def make_final_layer(d, seed, dist):
    kx, kw, kl = stream_key(seed, "x"), stream_key(seed, "w"), stream_key(seed, "x") ^ 0x5A5A
    write_u16(os.path.join(d, "x.bin"), to_bf16_rne(_values(kx, FL_H, dist)))
    write_u16(os.path.join(d, "w.bin"), to_bf16_rne(_values(kw, FL_H, dist, 1.0, 0.1)))
    rows = to_bf16_rne(normals(kl, len(FL_SAMPLE) * FL_H, 0.0, 0.02))
    lm = bytearray(FL_TILES * FL_ROWS * FL_H * 2)
    for k, row in enumerate(FL_SAMPLE):
        lm[row * FL_H * 2:(row + 1) * FL_H * 2] = struct.pack("<%dH" % FL_H, *rows[k * FL_H:(k + 1) * FL_H])
    with open(os.path.join(d, "lm.bin"), "wb") as f:
        f.write(lm)


def final_layer(d):
    """-> (expected bf16 bits, float64 reference, row indices) for the sampled and zero rows."""
    H = FL_H
    x, w = _load_bf16(d, "x.bin", H), _load_bf16(d, "w.bin", H)
    sq = round_f32_list([a * a for a in x])
    flits = segmented_tree(sq, 8)  # one tree per 8-value flit
    s = flits[0]
    for t in flits[1:]:  # the single reduce slot accumulates flit by flit
        s = f32_add(s, t)
    r = f32_sqrt(f32_fma(s, 1.0 / H, RMS_EPS))
    xn = [bf16_value(bf16(f32_div(f32(a * b), r))) for a, b in zip(x, w)]
    rr = math.sqrt(math.fsum(a * a for a in x) / H + 1e-6)
    xn64 = [a * b / rr for a, b in zip(x, w)]
    rows = FL_SAMPLE + FL_ZERO
    exp_bits, ref = [], []
    with open(os.path.join(d, "lm.bin"), "rb") as f:
        for row in rows:
            f.seek(row * H * 2)
            wr = bf16_list_to_floats(list(struct.unpack("<%dH" % H, f.read(H * 2))))
            prods = round_f32_list([a * b for a, b in zip(xn, wr)])
            acc = 0.0
            for t in segmented_tree(prods, 32):
                acc = f32_add(acc, t)
            exp_bits.append(bf16(acc))
            ref.append(math.fsum(a * b for a, b in zip(xn64, wr)))
    return exp_bits, ref, rows


def check_final_layer(d, out=sys.stdout):
    exp_bits, ref, rows = final_layer(d)
    with open(os.path.join(d, "y.bin"), "rb") as f:
        data = f.read()
    if len(data) != FL_TILES * FL_ROWS * 2:
        print("final_layer: y.bin has %d bytes, expected %d" % (len(data), FL_TILES * FL_ROWS * 2), file=out)
        return 1
    actual = [struct.unpack_from("<H", data, 2 * row)[0] for row in rows]
    return compare("final_layer", exp_bits, ref, actual, out)


# Qwen3 decoder: a = x / sum; r = rx + W_o a; h = RMSNorm(r); rx' = r + W_down(silu(W_gate h) u)
# with u = W_up h. Rounding points as in kernels/qwen3/decoder.mlir: a, r, h, p, rx' are bf16.
DEC_N, DEC_G, DEC_D, DEC_H, DEC_L = 8, 2, 128, 1024, 3072
DEC_LP = None  # the MLP pass length (--stage), None for one pass
DEC_QP = None  # o-proj's pass length over Q (--stage), None for one pass
DEC_Q = DEC_N * DEC_G * DEC_D
# The projection's sizes: hidden, q rows, k/v rows (Qwen3-0.6B unless --config says).
PH, PQ, PP = 1024, 2048, 1024


def use_config(path):
    """Takes the projection's, attention's and decoder's sizes from a Hugging Face config.json
    (head_dim 128, as the kernels' D)."""
    global PH, PQ, PP, ATT_N, ATT_G, DEC_N, DEC_G, DEC_H, DEC_L, DEC_Q
    import json
    c = json.load(open(path))
    heads, kv = c["num_attention_heads"], c["num_key_value_heads"]
    PH, PQ, PP = c["hidden_size"], heads * 128, kv * 128
    ATT_N = DEC_N = kv
    ATT_G = DEC_G = heads // kv
    DEC_H, DEC_L = c["hidden_size"], c["intermediate_size"]
    DEC_Q = DEC_N * DEC_G * DEC_D


def use_stage(path):
    """Takes the decoder's pass lengths from the generated stage: the MLP in passes of LP values
    of L when gate, up and down do not fit the TRF at once, o-proj in passes of QP values of Q
    when its rows do not fit the lanes; the passes' sums are added in pass order."""
    global DEC_LP, DEC_QP
    text = open(path).read()
    m = re.search(r'\bLP = (\d+) : i64', text)
    DEC_LP = int(m.group(1)) if m else None
    m = re.search(r'\bQP = (\d+) : i64', text)
    DEC_QP = int(m.group(1)) if m else None


def _values(key, count, dist, mean=0.0, std=1.0):
    """uniform [0, 1) like the furiosa reference, or normal(mean, std) ("small")."""
    return uniforms24(key, count) if dist == "uniform" else normals(key, count, mean, std)


def _weights(key, count, dist):
    """bf16 weights: uniform [0, 1) like the reference, or small-magnitude (+-0.04)."""
    return to_bf16_trunc(uniforms24(key, count)) if dist == "uniform" else _small_uniform(key, count, 0.04)


def _small_uniform(key, count, scale):
    """Uniform in [-scale, scale), bf16-rounded: fast small-magnitude weights."""
    return to_bf16_rne([(2.0 * v - 1.0) * scale for v in uniforms24(key, count)])


def make_decoder(d, seed, dist):
    k = stream_key(seed, "x")
    write_u16(os.path.join(d, "x.bin"), to_bf16_rne(_values(k, DEC_Q, dist)))
    write_u32(os.path.join(d, "sum.bin"),
              f32_list_to_bits([1.0 + 8.0 * v for v in uniforms24(k ^ 1, DEC_N * DEC_G)]))
    write_u16(os.path.join(d, "rx.bin"), to_bf16_rne(_values(k ^ 2, DEC_H, dist)))
    write_u16(os.path.join(d, "post.bin"), to_bf16_rne(_values(k ^ 3, DEC_H, dist, 1.0, 0.1)))
    write_u16(os.path.join(d, "o.bin"), _weights(k ^ 4, DEC_H * DEC_Q, dist))
    write_u16(os.path.join(d, "gate.bin"), _weights(k ^ 5, DEC_L * DEC_H, dist))
    write_u16(os.path.join(d, "up.bin"), _weights(k ^ 6, DEC_L * DEC_H, dist))
    write_u16(os.path.join(d, "down.bin"), _weights(k ^ 7, DEC_H * DEC_L, dist))


def _contract(vec, w, rows):
    """f32 accumulation, in order, of 32-element pairwise trees: one GEMV row per output."""
    cols = len(vec)
    prods = round_f32_list([a * b for a, b in zip(vec * rows, w)])
    t = segmented_tree(prods, 32)
    nb = cols // 32
    acc = [0.0] * rows
    for jb in range(nb):
        acc = add_level(acc, t[jb::nb])
    return acc


def _contract_passes(vec, w, rows, cols, plen):
    """A contraction over `cols` in passes of `plen` columns (None: one pass), each summed from 0
    in _contract's order, the passes' sums added in pass order."""
    plen = plen or cols
    total = None
    for c in range(cols // plen):
        wp = [w[i * cols + c * plen + j] for i in range(rows) for j in range(plen)]
        part = _contract(vec[c * plen:(c + 1) * plen], wp, rows)
        total = part if total is None else [f32_add(a, b) for a, b in zip(total, part)]
    return total


def decoder(d):
    """-> (expected bf16 bits of rx', float64 reference)."""
    H, L, Q = DEC_H, DEC_L, DEC_Q
    x = _load_bf16(d, "x.bin", Q)
    sums = bits_to_f32_list(read_u32(os.path.join(d, "sum.bin")))
    rx, post = _load_bf16(d, "rx.bin", H), _load_bf16(d, "post.bin", H)
    wo = _load_bf16(d, "o.bin", H * Q)
    wg, wu = _load_bf16(d, "gate.bin", L * H), _load_bf16(d, "up.bin", L * H)
    wd = _load_bf16(d, "down.bin", H * L)
    a = [bf16_value(bf16(f32_div(v, sums[q // DEC_D]))) for q, v in enumerate(x)]
    o = _contract_passes(a, wo, H, Q, DEC_QP)
    r = [bf16_value(bf16(f32_add(ov, rv))) for ov, rv in zip(o, rx)]
    sq = round_f32_list([v * v for v in r])
    flits = segmented_tree(sq, 8)
    s = flits[0]
    for t in flits[1:]:
        s = f32_add(s, t)
    rms = f32_sqrt(f32_fma(s, f32(1.0 / H), RMS_EPS))  # the kernel's fma immediate is f32
    h = [bf16_value(bf16(f32_div(f32(v * w), rms))) for v, w in zip(r, post)]
    g, u = _contract(h, wg, L), _contract(h, wu, L)
    p = [bf16_value(bf16(f32(f32(f32(1.0 / (1.0 + math.exp(-gv))) * gv) * uv)))
         for gv, uv in zip(g, u)]
    dn = _contract_passes(p, wd, H, L, DEC_LP)
    out = [bf16(f32_add(dv, rv)) for dv, rv in zip(dn, r)]
    # float64 reference with the stage boundaries' bf16 rounding points (a, r, h, p) but
    # exact sums: what the reference rule judges is the accumulation, not the bf16 boundaries.
    def rnd(v):
        return bf16_value(bf16(v))

    a64 = [rnd(v / sums[q // DEC_D]) for q, v in enumerate(x)]
    r64 = [rnd(rx[i] + math.fsum(wo[i * Q + j] * a64[j] for j in range(Q))) for i in range(H)]
    rr = math.sqrt(math.fsum(v * v for v in r64) / H + 1e-6)
    h64 = [rnd(v * w / rr) for v, w in zip(r64, post)]
    g64 = [math.fsum(wg[i * H + j] * h64[j] for j in range(H)) for i in range(L)]
    u64 = [math.fsum(wu[i * H + j] * h64[j] for j in range(H)) for i in range(L)]
    p64 = [rnd(gv / (1.0 + math.exp(-gv)) * uv) for gv, uv in zip(g64, u64)]
    ref = [r64[i] + math.fsum(wd[i * L + j] * p64[j] for j in range(L)) for i in range(H)]
    return out, ref


# Qwen3 projection: x^ = RMSNorm(x); q, k, v = x^ W^T; per-head RMSNorm of q and k; RoPE
# out = x cos + swap(x) sin; k and v rows into the caches at row PROJ_ROW; q to q_out.
PROJ_ROW, PROJ_POS = 5, 5


def _rmsnorm_flits(v, w, eps_scale):
    """The kernels' RMSNorm: one reduce slot accumulating 8-value trees, then x w / rms."""
    sq = round_f32_list([a * a for a in v])
    flits = segmented_tree(sq, 8)
    s = flits[0]
    for t in flits[1:]:
        s = f32_add(s, t)
    rms = f32_sqrt(f32_fma(s, eps_scale, RMS_EPS))
    return [bf16_value(bf16(f32_div(f32(a * b), rms))) for a, b in zip(v, w)]


def _rope(x, cos, sin):
    half = len(x) // 2
    return [bf16(f32_add(f32(x[i] * cos[i]), f32(sin[i] * x[(i + half) % len(x)])))
            for i in range(len(x))]


def make_projection(d, seed, dist):
    k = stream_key(seed, "x")
    write_u16(os.path.join(d, "x.bin"), to_bf16_rne(_values(k, PH, dist)))
    write_u16(os.path.join(d, "qw.bin"), _weights(k ^ 1, PQ * PH, dist))
    write_u16(os.path.join(d, "kw.bin"), _weights(k ^ 2, PP * PH, dist))
    write_u16(os.path.join(d, "vw.bin"), _weights(k ^ 3, PP * PH, dist))
    write_u16(os.path.join(d, "inw.bin"), to_bf16_rne(_values(k ^ 4, PH, dist, 1.0, 0.1)))
    write_u16(os.path.join(d, "qnw.bin"), to_bf16_rne(_values(k ^ 5, 128, dist, 1.0, 0.1)))
    write_u16(os.path.join(d, "knw.bin"), to_bf16_rne(_values(k ^ 6, 128, dist, 1.0, 0.1)))
    inv = [1e6 ** (-2.0 * (i % 64) / 128) for i in range(128)]
    write_u16(os.path.join(d, "cos.bin"), to_bf16_rne([math.cos(PROJ_POS * f) for f in inv]))
    write_u16(os.path.join(d, "sin.bin"),
              to_bf16_rne([(-1.0 if i < 64 else 1.0) * math.sin(PROJ_POS * inv[i]) for i in range(128)]))
    write_u32(os.path.join(d, "off.bin"), [PROJ_ROW * PP * 2])
    write_u16(os.path.join(d, "kc.bin"), to_bf16_rne(_values(k ^ 7, 512 * PP, dist)))
    write_u16(os.path.join(d, "vc.bin"), to_bf16_rne(_values(k ^ 8, 512 * PP, dist)))


def projection(d):
    """-> (expected bf16 bits of q_out + k row + v row, float64 reference)."""
    x, inw = _load_bf16(d, "x.bin", PH), _load_bf16(d, "inw.bin", PH)
    wq, wk, wv = (_load_bf16(d, n, c) for n, c in (("qw.bin", PQ * PH), ("kw.bin", PP * PH),
                                                   ("vw.bin", PP * PH)))
    qnw, knw = _load_bf16(d, "qnw.bin", 128), _load_bf16(d, "knw.bin", 128)
    cos, sin = _load_bf16(d, "cos.bin", 128), _load_bf16(d, "sin.bin", 128)
    xh = _rmsnorm_flits(x, inw, 1.0 / PH)
    q, kk, v = _contract(xh, wq, PQ), _contract(xh, wk, PP), _contract(xh, wv, PP)
    out = []
    for vec, heads, w in ((q, PQ // 128, qnw), (kk, PP // 128, knw)):
        for h in range(heads):
            out += _rope(_rmsnorm_flits(vec[h * 128:(h + 1) * 128], w, 1.0 / 128), cos, sin)
    out += [bf16(a) for a in v]
    # float64 reference with the same bf16 boundaries (x^, normalised q/k) and exact sums.
    def rnd(a):
        return bf16_value(bf16(a))
    rr = math.sqrt(math.fsum(a * a for a in x) / PH + 1e-6)
    xh64 = [rnd(a * b / rr) for a, b in zip(x, inw)]
    def mat(w, rows):
        return [math.fsum(w[i * PH + j] * xh64[j] for j in range(PH)) for i in range(rows)]
    ref = []
    for vec, heads, w in ((mat(wq, PQ), PQ // 128, qnw), (mat(wk, PP), PP // 128, knw)):
        for h in range(heads):
            hv = vec[h * 128:(h + 1) * 128]
            hr = math.sqrt(math.fsum(a * a for a in hv) / 128 + 1e-6)
            n = [rnd(a * b / hr) for a, b in zip(hv, w)]
            ref += [n[i] * cos[i] + sin[i] * n[(i + 64) % 128] for i in range(128)]
    ref += mat(wv, PP)
    return out, ref


def check_projection(d, out=sys.stdout):
    exp_bits, ref = projection(d)
    q = read_u16(os.path.join(d, "q_out.bin"))
    kc, vc = read_u16(os.path.join(d, "kc_out.bin")), read_u16(os.path.join(d, "vc_out.bin"))
    kc0, vc0 = read_u16(os.path.join(d, "kc.bin")), read_u16(os.path.join(d, "vc.bin"))
    row = slice(PROJ_ROW * PP, (PROJ_ROW + 1) * PP)
    for name, new, old in (("k_cache", kc, kc0), ("v_cache", vc, vc0)):
        if new[:row.start] != old[:row.start] or new[row.stop:] != old[row.stop:]:
            print("projection: %s changed outside row %d" % (name, PROJ_ROW), file=out)
            return 1
    return compare("projection", exp_bits, ref, q + kc[row] + vc[row], out)


# Qwen3 attention_forward_first over one chunk of T = 512 keys; keys <= ATT_ROW are unmasked.
ATT_N, ATT_G, ATT_D, ATT_T, ATT_ROW = 8, 2, 128, 512, 300


def make_attention_first(d, seed, dist):
    k = stream_key(seed, "x")
    write_u16(os.path.join(d, "q.bin"), to_bf16_rne(_values(k, ATT_N * ATT_G * ATT_D, dist)))
    write_u16(os.path.join(d, "k.bin"), to_bf16_rne(_values(k ^ 1, ATT_T * ATT_N * ATT_D, dist)))
    write_u16(os.path.join(d, "v.bin"), to_bf16_rne(_values(k ^ 2, ATT_T * ATT_N * ATT_D, dist)))
    write_u32(os.path.join(d, "mask.bin"),
              f32_list_to_bits([1.0 if t <= ATT_ROW else 0.0 for t in range(ATT_T)]))


def _pairwise(values, op):
    """The inter-slice reducer's order: a pairwise tree over slices."""
    while len(values) > 1:
        nxt = [op(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
        if len(values) % 2:
            nxt.append(values[-1])
        values = nxt
    return values[0]


def _scores(qv, kk, n):
    """bf16((q . k) / 11.313708) for every key of kv head n: 4 blocks of 32-wide trees."""
    N, D, T = ATT_N, ATT_D, ATT_T
    scale, s = f32(11.313708), []
    for t in range(T):
        key = kk[(t * N + n) * D:(t * N + n + 1) * D]
        acc = 0.0
        for blk in segmented_tree(round_f32_list([a * b for a, b in zip(qv, key)]), 32):
            acc = f32_add(acc, blk)
        s.append(bf16_value(bf16(f32_div(acc, scale))))
    return s


def _chunk_sum(e):
    """Each slice's 32 keys in order, then the inter-slice tree, then + 6.25e-8."""
    parts = []
    for j in range(0, len(e), 32):
        acc = e[j]
        for x in e[j + 1:j + 32]:
            acc = f32_add(acc, x)
        parts.append(acc)
    return f32_add(_pairwise(parts, f32_add), f32(6.25e-8))


def _pv(eb, v, n, dd):
    """(P . V for one output: 32-key trees summed across slices, float64 exact sum)."""
    N, D, T = ATT_N, ATT_D, ATT_T
    col = [v[(t * N + n) * D + dd] for t in range(T)]
    prods = round_f32_list([a * b for a, b in zip(eb, col)])
    return _pairwise(segmented_tree(prods, 32), f32_add), math.fsum(a * b for a, b in zip(eb, col))


def _load_attention(d):
    N, G, D, T = ATT_N, ATT_G, ATT_D, ATT_T
    q = _load_bf16(d, "q.bin", N * G * D)
    kk, v = _load_bf16(d, "k.bin", T * N * D), _load_bf16(d, "v.bin", T * N * D)
    return q, kk, v, bits_to_f32_list(read_u32(os.path.join(d, "mask.bin")))


def attention_first(d):
    """-> (max f32 bits, sum f32 bits, out bf16 bits, float64 reference of out)."""
    N, G, D = ATT_N, ATT_G, ATT_D
    q, kk, v, mask = _load_attention(d)
    maxes, sums, outs, ref = [], [], [], []
    for n in range(N):
        for g in range(G):
            s = _scores(q[(n * G + g) * D:(n * G + g + 1) * D], kk, n)
            m = max(s)
            e = [min(f32(math.exp(f32_add(x, -m))), mask[t]) for t, x in enumerate(s)]
            maxes.append(m)
            sums.append(_chunk_sum(e))
            eb = [bf16_value(bf16(x)) for x in e]
            for dd in range(D):
                blk, exact = _pv(eb, v, n, dd)
                outs.append(bf16(blk))
                ref.append(exact)
    return (f32_list_to_bits(maxes), f32_list_to_bits(sums), outs, ref)


def make_attention(d, seed, dist):
    """A later chunk: the first chunk's inputs plus an old online-softmax state."""
    make_attention_first(d, seed, dist)
    k = stream_key(seed, "w")
    ng = ATT_N * ATT_G
    write_u32(os.path.join(d, "max_old.bin"), f32_list_to_bits([f32(v) for v in normals(k, ng, 1.5, 0.5)]))
    write_u32(os.path.join(d, "sum_old.bin"),
              f32_list_to_bits([f32(50.0 + 150.0 * v) for v in uniforms24(k ^ 1, ng)]))
    write_u16(os.path.join(d, "out_old.bin"), to_bf16_rne(_values(k ^ 2, ng * ATT_D, dist, 0.0, 5.0)))


def attention(d):
    """-> (max, sum f32 bits, out bf16 bits, float64 reference of out) after folding the chunk."""
    N, G, D = ATT_N, ATT_G, ATT_D
    q, kk, v, mask = _load_attention(d)
    m_old = bits_to_f32_list(read_u32(os.path.join(d, "max_old.bin")))
    l_old = bits_to_f32_list(read_u32(os.path.join(d, "sum_old.bin")))
    o_old = _load_bf16(d, "out_old.bin", N * G * D)
    maxes, sums, outs, ref = [], [], [], []
    for n in range(N):
        for g in range(G):
            h = n * G + g
            s = _scores(q[h * D:(h + 1) * D], kk, n)
            m = max(max(s), m_old[h])
            alpha = f32(math.exp(f32_add(m_old[h], -m)))
            e = [min(f32(math.exp(f32_add(x, -m))), mask[t]) for t, x in enumerate(s)]
            maxes.append(m)
            sums.append(f32_add(f32(l_old[h] * alpha), _chunk_sum(e)))
            eb = [bf16_value(bf16(x)) for x in e]
            for dd in range(D):
                blk, exact = _pv(eb, v, n, dd)
                scaled = bf16_value(bf16(f32(o_old[h * D + dd] * alpha)))
                outs.append(bf16(f32_add(scaled, bf16_value(bf16(blk)))))
                # float64 with the kernel's rounding points (the chunk's o is bf16).
                ref.append(scaled + bf16_value(bf16(exact)))
    return (f32_list_to_bits(maxes), f32_list_to_bits(sums), outs, ref)


def check_attention_first(d, out=sys.stdout, kernel="attention_forward_first"):
    mx, sm, o, ref = attention_first(d) if kernel == "attention_forward_first" else attention(d)
    got_m, got_s = read_u32(os.path.join(d, "max.bin")), read_u32(os.path.join(d, "sum.bin"))
    got_o = read_u16(os.path.join(d, "out.bin"))
    rc = 0
    for name, exp, got in (("max", mx, got_m), ("sum", sm, got_s)):
        if exp != got:
            print("%s: %s differs: expected %s, got %s"
                  % (kernel, name, [hex(b) for b in exp[:4]], [hex(b) for b in got[:4]]), file=out)
            rc = 1
    if not rc:
        print("%s: max and sum (%d each) bit-exact" % (kernel, len(mx)), file=out)
    return compare(kernel, o, ref, got_o, out) or rc


KERNELS = {"gemv": (gemv, "bf16"), "gemm": (gemm, "bf16"), "rmsnorm": (rmsnorm, "bf16"), "softmax": (softmax, "f32"),
           "final_layer": (None, "bf16"), "decoder": (decoder, "bf16"),
           "projection": (None, "bf16"), "attention_forward_first": (None, "bf16"),
           "attention_forward": (None, "bf16")}


def emulate(kernel, d):
    if kernel not in KERNELS or KERNELS[kernel][0] is None:
        raise SystemExit("no whole-output emulation for kernel " + kernel)
    return KERNELS[kernel][0](d)


# ---------------------------------------------------------------------------------------
# Checking.

def _fmt(bits, fmt):
    v = bf16_value(bits) if fmt == "bf16" else f32_from_bits(bits)
    return "0x%0*x (%.9g)" % (4 if fmt == "bf16" else 8, bits, v)


def compare(kernel, exp_bits, ref, out_bits, out=sys.stdout):
    """Print the summary line (and the first mismatches); return 0 iff the check passes."""
    fmt = KERNELS[kernel][1]
    if len(out_bits) != len(exp_bits):
        print("%s: size mismatch: expected %d values, got %d" % (kernel, len(exp_bits), len(out_bits)), file=out)
        return 1
    n = len(exp_bits)
    actual = bf16_list_to_floats(out_bits) if fmt == "bf16" else bits_to_f32_list(out_bits)
    bad = [i for i in range(n) if exp_bits[i] != out_bits[i]]
    within, max_diff, off = 0, 0.0, []
    for i, (r, a) in enumerate(zip(ref, actual)):
        diff = abs(r - a)
        if diff <= max(0.01 * abs(r), 2.0 ** -8):  # NaN compares false: not within
            within += 1
        else:
            off.append(i)
        if not diff <= max_diff:
            max_diff = diff
    pct = 100.0 * within / n
    print("%s: %d values, %d bit-exact, reference rule %.2f%% within tolerance (max |diff| %.3g)"
          % (kernel, n, n - len(bad), pct, max_diff), file=out)
    for i in bad[:8]:
        print("  mismatch at %d: expected %s, got %s" % (i, _fmt(exp_bits[i], fmt), _fmt(out_bits[i], fmt)), file=out)
    if len(bad) > 8:
        print("  ... %d more mismatches" % (len(bad) - 8), file=out)
    if pct < 99.5:
        for i in off[:8]:
            print("  out of tolerance at %d: float64 reference %.9g, got %s" % (i, ref[i], _fmt(out_bits[i], fmt)), file=out)
    return 0 if not bad and pct >= 99.5 else 1


def read_output(kernel, d):
    path = os.path.join(d, "y.bin")
    return read_u16(path) if KERNELS[kernel][1] == "bf16" else read_u32(path)


def write_output(kernel, d, bits):
    path = os.path.join(d, "y.bin")
    (write_u16 if KERNELS[kernel][1] == "bf16" else write_u32)(path, bits)


def check(kernel, d, out=sys.stdout):
    if kernel == "final_layer":
        return check_final_layer(d, out)
    if kernel == "projection":
        return check_projection(d, out)
    if kernel in ("attention_forward_first", "attention_forward"):
        return check_attention_first(d, out, kernel)
    exp_bits, ref = emulate(kernel, d)
    try:
        actual = read_output(kernel, d)
    except OSError as e:
        print("%s: cannot read the output: %s" % (kernel, e), file=out)
        return 1
    return compare(kernel, exp_bits, ref, actual, out)


# ---------------------------------------------------------------------------------------
# Self-test.

def selftest():
    """Known rounding cases, fast paths against exact ones, and `check` catching errors."""
    fails = []

    def eq(name, got, want):
        same = (math.isnan(got) and math.isnan(want)) if isinstance(want, float) and math.isnan(want) \
            else (got == want and (not isinstance(want, float) or math.copysign(1, got) == math.copysign(1, want)))
        if not same:
            fails.append("%s: got %r, want %r" % (name, got, want))

    F, p2 = Fraction, lambda k: Fraction(2) ** k
    # Ties to even and just-off-tie cases at 1.0 (ulp 2^-23).
    eq("tie down to even", f32_exact(1 + p2(-24)), 1.0)
    eq("tie up to even", f32_exact(1 + 3 * p2(-24)), 1 + 2.0 ** -22)
    eq("above tie", f32_exact(1 + p2(-24) + p2(-80)), 1 + 2.0 ** -23)
    eq("below tie", f32_exact(1 + p2(-24) - p2(-80)), 1.0)
    eq("negative tie", f32_exact(-(1 + p2(-24))), -1.0)
    eq("third", f32_exact(F(1, 3)), float.fromhex("0x1.555556p-2"))
    eq("just below 2^k rounds up", f32_exact(2 - p2(-25)), 2.0)
    # Subnormals (quantum 2^-149).
    eq("min subnormal", f32_exact(p2(-149)), 2.0 ** -149)
    eq("half min subnormal ties to 0", f32_exact(p2(-150)), 0.0)
    eq("above half min subnormal", f32_exact(p2(-150) + p2(-200)), 2.0 ** -149)
    eq("1.5 quanta ties to 2", f32_exact(3 * p2(-150)), 2.0 ** -148)
    eq("2.5 quanta ties to 2", f32_exact(5 * p2(-150)), 2.0 ** -148)
    eq("subnormal to min normal", f32_exact(p2(-126) - p2(-150)), 2.0 ** -126)
    eq("negative underflow keeps sign", f32_exact(-p2(-151)), -0.0)
    eq("tiny", f32_exact(p2(-1000)), 0.0)
    # Overflow.
    eq("max", f32_exact(F(F32_MAX)), F32_MAX)
    eq("max + just under half ulp", f32_exact(F(F32_MAX) + p2(103) - 1), F32_MAX)
    eq("max + half ulp ties to inf", f32_exact(F(F32_MAX) + p2(103)), INF)
    eq("huge", f32_exact(p2(2000)), INF)
    eq("negative huge", f32_exact(-p2(200)), -INF)
    eq("double path overflow", f32(1e300), INF)
    eq("double path tie to inf", f32(float(F(F32_MAX) + p2(103))), INF)
    eq("double path NaN", f32(math.nan), math.nan)
    eq("double path subnormal tie", f32(3 * 2.0 ** -150), 2.0 ** -148)
    # bf16 rounding of f32 bit patterns.
    for name, b, want in [("bf16 tie down", 0x3F808000, 0x3F80), ("bf16 tie up", 0x3F818000, 0x3F82),
                          ("bf16 above tie", 0x3F808001, 0x3F81), ("bf16 below tie", 0x3F807FFF, 0x3F80),
                          ("bf16 overflow", 0x7F7FFFFF, 0x7F80), ("bf16 inf", 0xFF800000, 0xFF80),
                          ("bf16 -0", 0x80000000, 0x8000), ("bf16 subnormal tie", 0x00018000, 0x0002),
                          ("bf16 qNaN", 0x7FC00000, 0x7FC0), ("bf16 low-payload NaN", 0x7F800001, 0x7FC0),
                          ("bf16 negative NaN", 0xFF800001, 0xFFC0)]:
        eq(name, bf16_from_f32_bits(b), want)
    eq("bf16 of nan is nan", math.isnan(bf16_value(bf16(math.nan))), True)
    # Operations against exact arithmetic, including far-apart exponents and subnormals.
    eq("add far apart (double rounding trap)", f32_add(1.0, 2.0 ** -24 + 2.0 ** -60), 1.0 + 2.0 ** -23)
    eq("add far apart tie", f32_add(1.0, 2.0 ** -24), 1.0)
    eq("add cancels to +0", f32_add(1.5, -1.5), 0.0)
    eq("add -0 + -0", f32_add(-0.0, -0.0), -0.0)
    eq("add inf", f32_add(INF, 1.0), INF)
    eq("sqrt 4", f32_sqrt(4.0), 2.0)
    eq("sqrt 2", f32_sqrt(2.0), float.fromhex("0x1.6a09e6p+0"))
    eq("sqrt min subnormal", f32_sqrt(2.0 ** -149), f32(math.sqrt(2.0 ** -149)))
    eq("fma one rounding", f32_fma(1.0 + 2.0 ** -23, 1.0 - 2.0 ** -23, -1.0), -(2.0 ** -46))
    eq("div 1/3", f32_div(1.0, 3.0), float.fromhex("0x1.555556p-2"))
    eq("div by 0", f32_div(-1.0, 0.0), -INF)
    key = stream_key(12345, "x")
    z = raw64(key, 4000)
    for k in range(0, 4000, 4):
        def val(r):
            return f32_from_bits(r & 0xFFFFFFFF) if (r >> 23) & 0xFF != 0xFF else 1.0
        a, b = val(z[k]), val(z[k + 1])
        a2 = math.ldexp(1.0 + (z[k + 2] >> 41) * 2.0 ** -23, (z[k + 2] & 63) - 30) * (1 if z[k + 3] & 1 else -1)
        for u, v in ((a, b), (a, a2), (a2, 1.0), (a2 * 2.0 ** -40, 3.0)):
            u, v = f32(u), f32(v)
            eq("add %r %r" % (u, v), f32_add(u, v), f32_exact(F(u) + F(v)) if F(u) + F(v) != 0 else f32(u + v))
            eq("level add %r %r" % (u, v), add_level([u], [v])[0], f32_add(u, v))
        if a > 0:
            eq("sqrt %r" % a, f32_sqrt(a), f32(math.sqrt(a)))  # double rounding is innocuous for sqrt
        if b != 0:
            eq("div %r %r" % (a, b), f32_div(a, b), f32(a / b) if math.isfinite(a / b) else f32_div(a, b))
    eq("tree odd", tree([1.0, 2.0, 2.0 ** 30, 3.0, 5.0]), f32_add(f32_add(3.0, f32_add(2.0 ** 30, 3.0)), 5.0))
    eq("segmented = per-group tree",
       segmented_tree([float(i) * 1.1 for i in range(64)], 8) == [tree([float(i) * 1.1 for i in range(g, g + 8)])
                                                                 for g in range(0, 64, 8)], True)
    eq("bf16 decode", bf16_list_to_floats([0x3F80, 0xC000, 0x0001]), [1.0, -2.0, 2.0 ** -133])

    # `check` on every kernel and distribution: the emulated output passes (bit-exact and
    # within the float64 rule), and perturbed outputs fail.
    with tempfile.TemporaryDirectory() as d:
        for kernel in ("gemv", "gemm", "rmsnorm", "softmax"):
            for dist in ("uniform", "small"):
                make_inputs(kernel, d, 7, dist)
                exp_bits, ref = emulate(kernel, d)
                fmt_bf16 = KERNELS[kernel][1] == "bf16"
                write_output(kernel, d, exp_bits)
                eq("%s/%s emulated output passes" % (kernel, dist), check(kernel, d), 0)
                lsb = list(exp_bits)
                lsb[len(lsb) // 3] ^= 1
                write_output(kernel, d, lsb)
                with open(os.devnull, "w") as null:
                    eq("%s/%s one-ulp error fails" % (kernel, dist), check(kernel, d, null), 1)
                    vals = bf16_list_to_floats(exp_bits) if fmt_bf16 else bits_to_f32_list(exp_bits)
                    scaled = [v * 1.1 + 0.01 for v in vals]
                    write_output(kernel, d, to_bf16_rne(scaled) if fmt_bf16 else f32_list_to_bits(scaled))
                    eq("%s/%s scaled output fails" % (kernel, dist), compare(kernel, exp_bits, ref,
                                                                            read_output(kernel, d), null), 1)
                    write_output(kernel, d, exp_bits[:-1])
                    eq("%s/%s short output fails" % (kernel, dist), check(kernel, d, null), 1)
                # The float64 rule on its own must also reject a wrong result: feed the wrong
                # values as both "expected" and "actual", so only the rule can fail.
                wrong = to_bf16_rne(scaled) if fmt_bf16 else f32_list_to_bits(scaled)
                with open(os.devnull, "w") as null:
                    eq("%s/%s rule rejects 10%% error" % (kernel, dist),
                       compare(kernel, wrong, ref, wrong, null) == 1, True)
    # Inputs are deterministic and counter-based.
    eq("counter-based", raw64(key, 10)[7], mix64((key + 8 * GAMMA) & MASK64))
    for f in fails[:20]:
        print("FAIL " + f)
    print("selftest: %s (%d failures)" % ("ok" if not fails else "FAILED", len(fails)))
    return 1 if fails else 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", help="the projection's, attention's and decoder's sizes from a "
                   "Hugging Face config.json (default: Qwen3-0.6B's)")
    p.add_argument("--stage", help="the generated stage file, for the decoder's MLP passes "
                   "(its axis LP; default: one pass over L)")
    sub = p.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make-inputs", help="write KERNEL's input files into DIR")
    mk.add_argument("kernel", choices=sorted(KERNELS))
    mk.add_argument("dir")
    mk.add_argument("seed", type=int)
    mk.add_argument("dist", choices=["uniform", "small"])
    for name, text in (("check", "check DIR/y.bin; exit 0 iff it passes"),
                       ("emulate", "write the emulated output to DIR/y.bin")):
        c = sub.add_parser(name, help=text)
        c.add_argument("kernel", choices=sorted(KERNELS))
        c.add_argument("dir")
    sub.add_parser("selftest", help="test the rounding helpers and check")
    a = p.parse_args(argv)
    if a.config:
        use_config(a.config)
    if a.stage:
        use_stage(a.stage)
    if a.cmd == "make-inputs":
        make_inputs(a.kernel, a.dir, a.seed, a.dist)
        return 0
    if a.cmd == "check":
        return check(a.kernel, a.dir)
    if a.cmd == "emulate":
        write_output(a.kernel, a.dir, emulate(a.kernel, a.dir)[0])
        return 0
    return selftest()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
