"""Runs a generated batch_kv_store_t<T> on the simulator and checks the KV pools byte for byte:
row t of k_rows and v_rows at byte offsets[t] of k_pool and v_pool, every other row of the
pools as it was. The sizes (T, N, D, the pool's P rows) are read from the generated .mlir.

usage: batch_projection_kv_oracle.py check MLIR RNGD WORKDIR
       batch_projection_kv_oracle.py outside MLIR RNGD WORKDIR ROW
  check    distinct random rows of the pool (the first and the last among them)
  outside  token 1's offset at pool row ROW (P: just past the pool; -1: before it): rngd-run
           must fail, naming the scatter's index and the pool, and print its message
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prefill_generated import axes_of  # noqa: E402

RUN = "rngd-run"  # on PATH (lit puts the build's tools there)


def inputs(mlir, d):
    os.makedirs(d, exist_ok=True)
    A = axes_of(mlir)
    T, N, D, P = A["T"], A["N"], A["D"], A["P"]
    rng = np.random.default_rng(11)
    k, v = (rng.integers(0, 1 << 16, (T, N * D), dtype=np.uint16) for _ in range(2))
    kp, vp = (rng.integers(0, 1 << 16, (P, N * D), dtype=np.uint16) for _ in range(2))
    rows = rng.permutation(P)[:T]
    rows[0], rows[-1] = 0, P - 1  # the pool's first and last rows
    rows = rng.permutation(rows)
    for name, a in [("k_rows", k), ("v_rows", v), ("k_pool", kp), ("v_pool", vp)]:
        a.tofile("%s/%s.bin" % (d, name))
    return A, k, v, kp, vp, rows


def run(rngd, d, offsets):
    offsets.astype("<i4").tofile(d + "/offsets.bin")
    cmd = [RUN, rngd]
    for n in ["k_rows", "v_rows", "offsets", "k_pool", "v_pool"]:
        cmd += ["--input", "%s=%s/%s.bin" % (n, d, n)]
    for n in ["k_pool", "v_pool"]:
        cmd += ["--output", "%s=%s/%s_out.bin" % (n, d, n)]
    return subprocess.run(cmd, capture_output=True, text=True)


def check(mlir, rngd, d):
    A, k, v, kp, vp, rows = inputs(mlir, d)
    row_bytes = A["N"] * A["D"] * 2
    r = run(rngd, d, rows * row_bytes)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("rngd-run failed")
    rc = 0
    for name, src, pool in [("k_pool", k, kp), ("v_pool", v, vp)]:
        exp = pool.copy()
        exp[rows] = src
        got = np.fromfile("%s/%s_out.bin" % (d, name), dtype=np.uint16).reshape(exp.shape)
        bad = np.count_nonzero(got != exp)
        print("T=%d %s: %d rows of %d written, %d values checked, %d mismatches" %
              (A["T"], name, len(rows), A["P"], exp.size, bad))
        rc |= bad != 0
    return rc


def outside(mlir, rngd, d, row):
    A, k, v, kp, vp, rows = inputs(mlir, d)
    row_bytes = A["N"] * A["D"] * 2
    rows[1] = row
    r = run(rngd, d, rows * row_bytes)
    if r.returncode == 0:
        print("rngd-run accepted pool row %d of %d" % (row, A["P"]))
        return 1
    print("refused: " + (r.stderr.strip() or r.stdout.strip()).splitlines()[-1])
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "check":
        return check(*argv[2:5])
    if len(argv) == 6 and argv[1] == "outside":
        return outside(argv[2], argv[3], argv[4], int(argv[5]))
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
