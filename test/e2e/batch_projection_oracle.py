"""Runs a generated batch_projection_t<T> on the simulator and checks every output bit for bit
against prefill_oracle.py's emulation (prefill_generated.py's projection mode, with q_out
row-major [T, Q] and the staging rows k_rows, v_rows [T, N, D]); the HBM layouts and sizes are
read from the generated .mlir. Each token is its own sequence at its own position: token t's
x row, and its cos / sin row, are drawn from the token's id (ids[t]), so the same token can
sit at different rows of blocks of different T.

usage: batch_projection_oracle.py check T MLIR RNGD WORKDIR [small|uniform]
       batch_projection_oracle.py invariance MLIR16 RNGD16 MLIR64 RNGD64 WORKDIR
  check       one block of T tokens against the emulation
  invariance  the same 16 tokens at rows 0..15 of a T = 16 block and at scattered rows of a
              T = 64 block (its other 48 rows other tokens): q, k and v must be the same bytes
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prefill_oracle as O  # noqa: E402
from prefill_generated import axes_of, parse  # noqa: E402

RUN = "rngd-run"  # on PATH (lit puts the build's tools there)
OUTS = ["q_out", "k_rows", "v_rows"]


def token_rows(ids, H, dist):
    """x rows [len(ids), H] (f32) and positions, each a function of the token's id only."""
    rows, pos = [], []
    for i in ids:
        rng = np.random.default_rng(1000 + int(i))
        if dist == "uniform":
            rows.append(rng.random(H, dtype=np.float32))
        else:
            rows.append(np.clip(rng.standard_normal(H, dtype=np.float32), -4, 4))
        pos.append(int(rng.integers(0, 40000)))
    return np.stack(rows), np.array(pos)


def weights(A, dist):
    H, O_ = A["H"], A["O"]
    rng = np.random.default_rng(7)
    if dist == "uniform":
        w = rng.random((O_, H), dtype=np.float32)
        rw, hw = rng.random(H, dtype=np.float32), rng.random(O_, dtype=np.float32)
    else:
        w = rng.standard_normal((O_, H), dtype=np.float32) * np.float32(0.02)
        rw = np.float32(1) + np.float32(0.1) * rng.standard_normal(H, dtype=np.float32)
        hw = np.float32(1) + np.float32(0.1) * rng.standard_normal(O_, dtype=np.float32)
    return tuple(O.f32_to_bf16(a) for a in (w, rw, hw))


def run(mlir, rngd, d, ids, dist):
    """Writes the inputs for tokens `ids`, runs the stage; -> (args, axes, x bf16, cos, sin,
    weights, outputs as [T, ...] uint16 arrays in row order)."""
    os.makedirs(d, exist_ok=True)
    args, A = parse(mlir), axes_of(mlir)
    T, H, O_, N, D, Q = len(ids), A["H"], A["O"], A["N"], A["D"], A["Q"]
    F = D // 2
    x, pos = token_rows(ids, H, dist)
    xb = O.f32_to_bf16(x)
    wb, rwb, hwb = weights(A, dist)
    O.to_layout(xb, args["x"], {"T": T, "H": H}).tofile(d + "/x.bin")
    O.to_layout(wb, args["qkv_weight"], {"O": O_, "H": H}).tofile(d + "/qkv_weight.bin")
    rwb.tofile(d + "/input_rms_weight.bin")
    hwb.tofile(d + "/head_rms_weight.bin")
    cos, sin = O.rope_tables(pos)
    O.to_layout(cos, args["cos"], {"T": T, "F": F}).tofile(d + "/cos.bin")
    O.to_layout(sin, args["sin"], {"T": T, "F": F}).tofile(d + "/sin.bin")
    ins = ["x", "input_rms_weight", "qkv_weight", "head_rms_weight", "cos", "sin"]
    cmd = [RUN, rngd]
    for n in ins:
        cmd += ["--input", "%s=%s/%s.bin" % (n, d, n)]
    for n in OUTS:
        cmd += ["--output", "%s=%s/%s.bin" % (n, d, n)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("rngd-run failed")
    got = {}
    for name, axes in [("q_out", {"T": T, "Q": Q}), ("k_rows", {"T": T, "N": N, "D": D}),
                       ("v_rows", {"T": T, "N": N, "D": D})]:
        flat = np.fromfile("%s/%s.bin" % (d, name), dtype=np.uint16)
        got[name] = O.from_layout(flat, args[name], axes).reshape(T, -1)
    return A, xb, cos, sin, (wb, rwb, hwb), got


def emulate(A, xb, cos, sin, w):
    """prefill_generated.py's projection emulation, per token -> {output: [T, ...] bits}."""
    wb, rwb, hwb = w
    H, N, D, Q = A["H"], A["N"], A["D"], A["Q"]
    xf, wf = O.bf16_to_f32(xb), O.bf16_to_f32(wb)
    parts, hl = H // A["HL"], A["HL"]
    xn, _ = O.rmsnorm(xf, O.bf16_to_f32(rwb), 16, halves=parts)
    xh = O.bf16_to_f32(O.f32_to_bf16(xn))
    acc = O.contract(xh[:, :hl], wf[:, :hl])
    for i in range(1, parts):
        acc = acc + O.contract(xh[:, i * hl:(i + 1) * hl], wf[:, i * hl:(i + 1) * hl])
    raw = O.f32_to_bf16(acc)
    qn, _ = O.head_rmsnorm(O.bf16_to_f32(raw), O.bf16_to_f32(hwb))
    bits, _ = O.rope(O.bf16_to_f32(qn), O.bf16_to_f32(cos), O.bf16_to_f32(sin))
    return {"q_out": bits[:, :Q], "k_rows": bits[:, Q:Q + N * D], "v_rows": raw[:, Q + N * D:]}


def check(T, mlir, rngd, d, dist):
    ids = np.arange(T) * 7 + 3
    A, xb, cos, sin, w, got = run(mlir, rngd, d, ids, dist)
    exp = emulate(A, xb, cos, sin, w)
    rc = 0
    for name in OUTS:
        bad = np.count_nonzero(got[name] != exp[name])
        print("T=%d %s: %d values, %d mismatches" % (T, name, exp[name].size, bad))
        rc |= bad != 0
    return rc


def invariance(m16, r16, m64, r64, d):
    ids16 = np.arange(16) * 7 + 3
    rng = np.random.default_rng(5)
    rows = rng.permutation(64)[:16]  # where the 16 tokens sit in the T = 64 block
    ids64 = 100000 + np.arange(64)  # other tokens elsewhere
    ids64[rows] = ids16
    got16 = run(m16, r16, d + "/t16", ids16, "small")[-1]
    got64 = run(m64, r64, d + "/t64", ids64, "small")[-1]
    rc = 0
    for name in OUTS:
        bad = np.count_nonzero(got16[name] != got64[name][rows])
        print("invariance %s: 16 tokens, rows %s of T=64: %d values differ" %
              (name, "scattered" if len(set(rows)) == 16 else "?", bad))
        rc |= bad != 0
    return rc


def main(argv):
    if len(argv) >= 6 and argv[1] == "check":
        return check(int(argv[2]), argv[3], argv[4], argv[5], argv[6] if len(argv) > 6 else "small")
    if len(argv) == 7 and argv[1] == "invariance":
        return invariance(*argv[2:7])
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
