"""Runs a generated batch_attention_norm_t<T> stage on the simulator and checks every value of
attn bit for bit against a numpy emulation of the decoder's a = x / sum: each bf16 of `out`
widened to f32 (exact), one IEEE f32 division by the head's f32 sum (the simulator's FpDiv is
the host's correctly rounded float division, runtime/sim/VectorEngine.cpp), rounded to bf16
nearest-even with NaN kept quiet (rngd/Bf16.h, the Cast Engine's conversion).

The sizes (T, N, G, D, Q) and attn's HBM layout are read from the generated .mlir. The last
`pad` tokens are padding rows, as the host writes them: sum 0, out zero (0 / 0 = NaN) in the
first of them and random (+-inf) in the others; they are checked too and counted apart.

usage: batch_attention_norm_oracle.py MLIR RNGD WORKDIR [SEED [PAD]]
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prefill_oracle as O  # noqa: E402
from prefill_generated import axes_of, parse  # noqa: E402

RUN = "rngd-run"  # on PATH (lit puts the build's tools there)


def inputs(T, N, G, D, pad, seed):
    """out (bf16 bits [T, N, G, D]) and sum (f32 [T, N, G]): normal attention outputs (some of
    them large, as an unnormalised sum of values is) and sums from 1 to a few thousand."""
    rng = np.random.default_rng(seed)
    scale = np.float32(2.0) ** rng.integers(0, 12, (T, N, G, 1)).astype(np.float32)
    out = O.f32_to_bf16(rng.standard_normal((T, N, G, D), dtype=np.float32) * scale)
    total = np.float32(1) + rng.random((T, N, G), dtype=np.float32) * scale[..., 0] * np.float32(3)
    if pad:
        total[T - pad:] = 0
        out[T - pad] = 0
    return out, total.astype(np.float32)


def emulate(out, total):
    with np.errstate(divide="ignore", invalid="ignore"):
        a = O.bf16_to_f32(out) / total[..., None]
    return O.f32_to_bf16(a.astype(np.float32))


def main():
    mlir, rngd, d = sys.argv[1:4]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    A = axes_of(mlir)
    T, N, G, D, Q = A["T"], A["N"], A["G"], A["D"], A["Q"]
    pad = int(sys.argv[5]) if len(sys.argv) > 5 else T // 4
    args = parse(mlir)
    os.makedirs(d, exist_ok=True)
    out, total = inputs(T, N, G, D, pad, seed)
    out.tofile(d + "/out.bin")
    total.tofile(d + "/sum.bin")
    cmd = [RUN, rngd, "--input", "out=%s/out.bin" % d, "--input", "sum=%s/sum.bin" % d,
           "--output", "attn=%s/attn.bin" % d]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("rngd-run failed")
    print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "")
    raw = np.fromfile(d + "/attn.bin", dtype=np.uint16)
    got = O.from_layout(raw, args["attn"], {"T": T, "Q": Q}).reshape(T, Q)
    exp = emulate(out, total).reshape(T, Q)
    valid = T - pad
    bad = np.count_nonzero(got[:valid] != exp[:valid])
    print("T=%d attn: %d values, %d mismatches" % (T, valid * Q, bad))
    rc = bad != 0
    if pad:
        p, e = got[valid:], exp[valid:]
        f = O.bf16_to_f32(p)
        print("T=%d padding rows: %d values, %d NaN, %d inf, %d mismatches" % (
            T, p.size, np.count_nonzero(np.isnan(f)), np.count_nonzero(np.isinf(f)),
            np.count_nonzero(p != e)))
        rc |= np.count_nonzero(p != e) != 0
    return int(rc)


if __name__ == "__main__":
    sys.exit(main())
