"""Runs the generated batch_attention_first_t<T> and batch_attention_t<T> stages on the simulator
and checks every output bit for bit against a numpy emulation of their numerics (the stages'
header comments): one page of S keys for each of T sequences, slice (t, n) alone.

  s  = bf16(q . k / sqrt(D) + b), b = mask x 2^64 - 2^64; q . k: exact f32 products, a pairwise
       tree over each 32 values of D, the trees added into +0 in D's order; f32 division
  m  = max s; e = min(f32(exp(f32(s - m))), mask)        (first page)
  m' = max(m_page, m_old); a = f32(exp(f32(m_old - m'))); e = min(f32(exp(f32(s - m'))), mask)
  sum e: a pairwise tree over each 8 keys, those sums in key order (the first starts the sum)
  P . V: bf16(e) x V exact, one pairwise tree over the page's 32 keys, added into +0, bf16
  first: l = sum e, o = bf16(P . V); fold: l = f32(a l_old) + sum e,
  o = bf16(bf16(f32(a o_old)) + bf16(P . V))

Inputs are drawn per sequence from (seed, t), so the first 16 rows of a T = 64 run are the
T = 16 run's: `invariance` compares two runs' outputs row for row. The pool (P rows) is drawn
from the seed alone; pages start at random rows (the pool's first and last possible among
them); masks hold visible prefixes, full rows and (in the fold) all-zero rows, whose state
must come back bit for bit as it went in.

usage: batch_attention_oracle.py run FIRST.mlir FIRST.rngd FOLD.mlir FOLD.rngd DIR [SEED]
       batch_attention_oracle.py invariance DIR_A DIR_B ROWS
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prefill_oracle as O  # noqa: E402
from prefill_generated import axes_of  # noqa: E402

RUN = "rngd-run"  # on PATH (lit puts the build's tools there)
BIAS = np.float32(2.0 ** 64)
TREE_KEYS = 8  # the intra-slice reducer's flit of f32 keys


def f32(x):
    return np.asarray(x, dtype=np.float32)


def bf(x):
    """x rounded to bf16, as f32."""
    return O.bf16_to_f32(O.f32_to_bf16(f32(x)))


def exp32(x):
    return np.exp(f32(x).astype(np.float64)).astype(np.float32)


def row_rng(seed, t, what):
    return np.random.default_rng([seed, t, what])


def sequence_inputs(seed, t, A, launch):
    """Sequence t's q (bf16 bits [N, G, D]), page start row and mask [S] for `launch` (0: the
    first page, 1: a later one)."""
    N, G, D, S, P = A["N"], A["G"], A["D"], A["S"], A["P"]
    r = row_rng(seed, t, launch)
    q = O.f32_to_bf16(r.standard_normal((N, G, D), dtype=np.float32) * np.float32(1.5))
    start = [0, P - S][t % 2] if t < 2 else int(r.integers(0, P - S + 1))
    kind = t % 5
    mask = np.zeros(S, dtype=np.float32)
    if launch == 0 or kind in (1, 2):
        mask[: int(r.integers(1, S + 1))] = 1  # a visible prefix
    elif kind == 3:
        mask[:] = 1
    # else (fold, kinds 0 and 4): an all-zero row, the sequence has no such page
    return q, start, mask


def pool(seed, A, which):
    P, N, D = A["P"], A["N"], A["D"]
    r = np.random.default_rng([seed, 1 << 20, which])
    return O.f32_to_bf16(r.standard_normal((P, N, D), dtype=np.float32))


def write_inputs(d, A, seed, launch, tokens):
    N, D = A["N"], A["D"]
    qs, starts, masks = zip(*[sequence_inputs(seed, t, A, launch) for t in range(tokens)])
    np.stack(qs).tofile(d + "/q.bin")
    np.asarray([s * N * D * 2 for s in starts], dtype=np.int32).tofile(d + "/page.bin")
    np.stack(masks).tofile(d + "/mask.bin")
    return np.stack(qs), np.asarray(starts), np.stack(masks)


def page_scores(q, kp, starts, mask, A):
    """s [T, N, G, S] (bf16 values as f32) and the page's V [T, N, S, D]."""
    S, D = A["S"], A["D"]
    rows = starts[:, None] + np.arange(S)[None, :]              # [T, S]
    k = O.bf16_to_f32(kp[0][rows]).transpose(0, 2, 1, 3)        # [T, N, S, D]
    v = O.bf16_to_f32(kp[1][rows]).transpose(0, 2, 1, 3)
    qf = O.bf16_to_f32(q)                                       # [T, N, G, D]
    acc = np.zeros(qf.shape[:3] + (S,), dtype=np.float32)
    for p in range(0, D, 32):
        acc = acc + O.tree(qf[:, :, :, None, p:p + 32] * k[:, :, None, :, p:p + 32])
    scale = np.float32(np.sqrt(np.float64(D)))
    bias = (mask * BIAS - BIAS).astype(np.float32)              # exact: 0 or -2^64
    return bf(acc / scale + bias[:, None, None, :]), v


def page_sum(e):
    S = e.shape[-1]
    blocks = O.tree(e.reshape(e.shape[:-1] + (S // TREE_KEYS, TREE_KEYS)))
    return O.running_sum(blocks)


def page_values(e, v):
    """bf16(bf16(e) . V): [T, N, G, D], one tree over the page's keys, added into +0."""
    eb = bf(e)
    prod = eb[:, :, :, None, :] * v.transpose(0, 1, 3, 2)[:, :, None, :, :]  # [T,N,G,D,S]
    return bf(np.float32(0) + O.tree(prod))


def emulate(q, kp, starts, mask, A, state=None):
    s, v = page_scores(q, kp, starts, mask, A)
    m_page = s.max(axis=-1)
    vis = mask[:, None, None, :]
    if state is None:
        e = np.fmin(exp32(s - m_page[..., None]), vis)
        return m_page, page_sum(e), page_values(e, v)
    m_old, l_old, o_old = state
    m = np.fmax(m_page, m_old)
    a = exp32(m_old - m)
    e = np.fmin(exp32(s - m[..., None]), vis)
    l = f32(a * l_old) + page_sum(e)
    o = bf(bf(o_old * a[..., None]) + page_values(e, v))
    return m, f32(l), o


def run(rngd, d, outs_inout):
    cmd = [RUN, rngd]
    for n in ["q", "k_pool", "v_pool", "page", "mask"]:
        cmd += ["--input", "%s=%s/%s.bin" % (n, d, n)]
    for n, src in outs_inout:
        if src:
            cmd += ["--input", "%s=%s" % (n, src)]
        cmd += ["--output", "%s=%s/%s.bin" % (n, d, n)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("rngd-run failed")


def read_state(d, A, T):
    N, G, D = A["N"], A["G"], A["D"]
    m = np.fromfile(d + "/max_hbm.bin", dtype=np.float32).reshape(T, N, G)
    l = np.fromfile(d + "/sum_hbm.bin", dtype=np.float32).reshape(T, N, G)
    o = np.fromfile(d + "/out_hbm.bin", dtype=np.uint16).reshape(T, N, G, D)
    return m, l, o


def mismatches(got, exp):
    return int(np.count_nonzero(f32(got).view(np.uint32) != f32(exp).view(np.uint32)))


def report(tag, T, got, exp):
    m, l, o = got
    bad = [mismatches(m, exp[0]), mismatches(l, exp[1]),
           int(np.count_nonzero(o != O.f32_to_bf16(exp[2])))]
    print("%s T=%d: max %d, sum %d, out %d values, %d/%d/%d mismatches"
          % (tag, T, m.size, l.size, o.size, *bad))
    return sum(bad)


def check(argv):
    mlir1, rngd1, mlir2, rngd2, d = argv[:5]
    seed = int(argv[5]) if len(argv) > 5 else 7
    A = axes_of(mlir1)
    T = A["T"]
    for sub in ("first", "fold"):
        os.makedirs(d + "/" + sub, exist_ok=True)
    kp = (pool(seed, A, 0), pool(seed, A, 1))
    for sub in ("first", "fold"):
        kp[0].tofile(d + "/%s/k_pool.bin" % sub)
        kp[1].tofile(d + "/%s/v_pool.bin" % sub)
    q, starts, mask = write_inputs(d + "/first", A, seed, 0, T)
    run(rngd1, d + "/first", [("max_hbm", None), ("sum_hbm", None), ("out_hbm", None)])
    got1 = read_state(d + "/first", A, T)
    bad = report("first", T, got1, emulate(q, kp, starts, mask, A))
    q2, starts2, mask2 = write_inputs(d + "/fold", A, seed, 1, T)
    run(rngd2, d + "/fold", [(n, d + "/first/%s.bin" % n) for n in ("max_hbm", "sum_hbm", "out_hbm")])
    got2 = read_state(d + "/fold", A, T)
    old = (got1[0], got1[1], O.bf16_to_f32(got1[2]))
    bad += report("fold", T, got2, emulate(q2, kp, starts2, mask2, A, old))
    empty = ~mask2.any(axis=1)
    same = [mismatches(got2[i][empty], got1[i][empty]) if i < 2 else
            int(np.count_nonzero(got2[2][empty] != got1[2][empty])) for i in range(3)]
    print("fold T=%d: %d all-zero mask rows, state changed in %d/%d/%d values"
          % (T, int(empty.sum()), *same))
    return int(bad + sum(same) != 0)


def invariance(argv):
    a, b, rows = argv[0], argv[1], int(argv[2])
    bad = 0
    for sub in ("first", "fold"):
        for name, dt in (("max_hbm", np.uint32), ("sum_hbm", np.uint32), ("out_hbm", np.uint16)):
            x = np.fromfile("%s/%s/%s.bin" % (a, sub, name), dtype=dt)
            y = np.fromfile("%s/%s/%s.bin" % (b, sub, name), dtype=dt)
            per = min(x.size, y.size) // rows  # values of one row (the smaller run has `rows`)
            bad += int(np.count_nonzero(x[: rows * per] != y[: rows * per]))
    print("first %d rows: %d values differ between the runs" % (rows, bad))
    return int(bad != 0)


if __name__ == "__main__":
    mode = sys.argv[1]
    sys.exit(check(sys.argv[2:]) if mode == "run" else invariance(sys.argv[2:]))
