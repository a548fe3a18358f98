#!/usr/bin/env python3
"""Oracle for the generated batch_final_layer stage (the batched LM head).

Reads the stage's sizes and HBM layouts (x, out) from the generated .mlir, writes seeded
inputs, and checks the stage's logits bit for bit against an emulation of final_layer's
arithmetic for each token alone (engines_oracle.py's final_layer: RMSNorm with one reduce slot
accumulating 8-value flit trees, then per row f32 products, 32-value trees, summed in H order,
rounded to bf16), and against final_layer's own output run once per token.
  make STAGE.mlir DIR SEED [dense]   x.bin (in x's layout; the last token and token 3 zero:
                                     padding), w.bin, lm.bin (zero but for sampled rows, or
                                     all random with `dense`)
  check STAGE.mlir DIR               DIR/out.bin against the emulation, every token, the
                                     sampled rows and a few zero rows
  token STAGE.mlir DIR t             DIR/x_t.bin: token t's row alone (final_layer's input)
  same STAGE.mlir DIR t FINAL_OUT    token t's W logits in DIR/out.bin == FINAL_OUT's, byte
                                     for byte
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines_oracle as eo  # noqa: E402


# --- the stage's sizes and layouts -------------------------------------------------------

def stage_info(path):
    text = open(path).read()
    axes = {k: int(v) for k, v in re.findall(r'(\w+) = (\d+) : i64', text.split("tcp.axes")[1].split("}")[0])}
    types = dict(re.findall(r'^!(\w+) = !tcp\.hbm<bf16, "([^"]*)">', text, re.M))
    sig = re.search(r'func\.func @batch_final_layer\((.*)\)', text).group(1)
    args = dict((n, t) for t, n in re.findall(r'!(\w+) \{tcp\.arg = "\w+", tcp\.name = "(\w+)"\}', sig))
    lm = types[args["lm_head_weight"]]
    wp = int(re.search(r'# (\d+)', lm).group(1)) if '#' in lm else axes["W"]
    return dict(axes=axes, T=axes["T"], H=axes["H"], W=axes["W"], Wp=wp,
                x=types[args["x"]], out=types[args["out"]])


def _factor(text, values, sizes):
    """(value array, count) of one factor such as `W # 155648 / 8` or `T % 8`."""
    tok = text.split()
    v, size = values[tok[0]], sizes[tok[0]]
    for op, n in zip(tok[1::2], tok[2::2]):
        n = int(n)
        if op == '#':
            size = n
        elif op == '/':
            v, size = v // n, -(-size // n)
        elif op == '%':
            v, size = v % n, min(size, n)
    return v, size


def offsets(mapping, values, sizes):
    """Element offsets of an HBM mapping `[f0, f1, ...]` (major first) at the axis values."""
    factors = [f.strip() for f in mapping.strip('[]').split(',')]
    off, total = 0, 1
    for f in reversed(factors):
        v, count = _factor(f, values, sizes)
        off = off + v * total
        total *= count
    return off, total


def grid(info, rows):
    """Offsets [T, len(rows)] of out's elements (t, w)."""
    t = np.arange(info["T"], dtype=np.int64)[:, None]
    w = np.asarray(rows, dtype=np.int64)[None, :]
    sizes = dict(info["axes"])
    return offsets(info["out"], {"T": t, "W": w}, sizes)


# --- inputs ------------------------------------------------------------------------------

def to_bf16_bits(a):
    b = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)


def zero_tokens(T):
    return sorted({3, T - 1})


def sample_rows(info):
    """Rows of the LM head that carry weights: slots and lanes of the first, a middle and the
    last full tile, and of the tiles past them (whatever the tiling, rows near each multiple
    of 4096 and the last valid ones)."""
    W, rows = info["W"], set()
    for base in range(0, W, 4096 * 9):
        for r in (0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 4095):
            rows.add(base + r)
    for r in list(range(W - 4480, W - 4480 + 20)) + list(range(W - 1030, W)):
        rows.add(r)
    return sorted(r for r in rows if 0 <= r < W)


def make(stage, d, seed, dense=False):
    info = stage_info(stage)
    T, H, Wp = info["T"], info["H"], info["Wp"]
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, (T, H)).astype(np.float32)
    x[zero_tokens(T)] = 0.0
    xb = to_bf16_bits(x)
    t = np.arange(T)[:, None]
    h = np.arange(H)[None, :]
    off, total = offsets(info["x"], {"T": t, "H": h}, info["axes"])
    flat = np.zeros(total, dtype=np.uint16)
    flat[off] = xb
    flat.tofile(os.path.join(d, "x.bin"))
    np.save(os.path.join(d, "x_rows.npy"), xb)
    to_bf16_bits(rng.normal(1.0, 0.1, H)).tofile(os.path.join(d, "w.bin"))
    path = os.path.join(d, "lm.bin")
    if dense:
        with open(path, "wb") as f:
            for r0 in range(0, Wp, 4096):
                n = min(4096, Wp - r0)
                to_bf16_bits(rng.normal(0.0, 0.02, (n, H))).tofile(f)
    else:
        rows = sample_rows(info)
        with open(path, "wb") as f:
            f.truncate(Wp * H * 2)
        mm = np.memmap(path, dtype=np.uint16, mode="r+", shape=(Wp, H))
        mm[rows] = to_bf16_bits(rng.normal(0.0, 0.02, (len(rows), H)))
        mm.flush()
        del mm


# --- the emulation -----------------------------------------------------------------------

def normalise(x, w):
    """final_layer's RMSNorm of one token (f32 bits emulated exactly), bf16 values."""
    H = len(x)
    sq = eo.round_f32_list([a * a for a in x])
    flits = eo.segmented_tree(sq, 8)
    s = flits[0]
    for v in flits[1:]:
        s = eo.f32_add(s, v)
    r = eo.f32_sqrt(eo.f32_fma(s, eo.f32(1.0 / H), eo.RMS_EPS))
    return [eo.bf16_value(eo.bf16(eo.f32_div(eo.f32(a * b), r))) for a, b in zip(x, w)]


def contract(xn, wrows):
    """bf16 bits of each row's logit: f32 products, 32-value pairwise trees, summed in H
    order from 0 (the Contraction Engine's order in one lane)."""
    p = (np.asarray(xn, np.float32)[None, :] * wrows).astype(np.float32)  # exact products
    p = p.reshape(p.shape[0], -1, 32)
    while p.shape[2] > 1:
        p = (p[:, :, 0::2] + p[:, :, 1::2]).astype(np.float32)
    acc = np.zeros(p.shape[0], np.float32)
    for k in range(p.shape[1]):
        acc = (acc + p[:, k, 0]).astype(np.float32)
    return to_bf16_bits(acc)


def check(stage, d):
    info = stage_info(stage)
    T, H, W, Wp = info["T"], info["H"], info["W"], info["Wp"]
    xb = np.load(os.path.join(d, "x_rows.npy"))
    w = bf16_to_f32(np.fromfile(os.path.join(d, "w.bin"), np.uint16)).tolist()
    mm = np.memmap(os.path.join(d, "lm.bin"), dtype=np.uint16, mode="r", shape=(Wp, H))
    rows = sample_rows(info)
    zeros = [r for r in (5, 4100, W // 2 + 3, W - 2000) if r not in rows]
    check_rows = rows + zeros
    wrows = bf16_to_f32(np.asarray(mm[check_rows]))
    out = np.fromfile(os.path.join(d, "out.bin"), np.uint16)
    off, total = grid(info, check_rows)
    if out.size != total:
        print("out.bin has %d values, expected %d" % (out.size, total))
        return 1
    got = out[off]
    bad = 0
    for t in range(T):
        xn = normalise(bf16_to_f32(xb[t]).tolist(), w)
        exp = contract(xn, wrows)
        bad += int(np.count_nonzero(exp != got[t]))
        if np.count_nonzero(exp != got[t]) and bad < 5:
            i = int(np.nonzero(exp != got[t])[0][0])
            print("token %d row %d: expected %04x got %04x" % (t, check_rows[i], exp[i], got[t, i]))
    nz = int(np.count_nonzero(got[zero_tokens(T)]))
    print("T=%d: %d tokens x %d rows, %d mismatches; padding tokens %s: %d nonzero" %
          (T, T, len(check_rows), bad, zero_tokens(T), nz))
    return 1 if bad or nz else 0


def token(stage, d, t):
    xb = np.load(os.path.join(d, "x_rows.npy"))
    xb[t].tofile(os.path.join(d, "x_%d.bin" % t))


def same(stage, d, t, final_out):
    info = stage_info(stage)
    W = info["W"]
    out = np.fromfile(os.path.join(d, "out.bin"), np.uint16)
    off, _ = grid(info, range(W))
    mine = out[off[t]]
    ref = np.fromfile(final_out, np.uint16)[:W]
    diff = int(np.count_nonzero(mine != ref))
    print("token %d: %d logits, %d differ from final_layer's, %d nonzero" %
          (t, W, diff, int(np.count_nonzero(ref))))
    return 1 if diff else 0


def main(argv):
    cmd, stage, d = argv[1], argv[2], argv[3]
    if cmd == "make":
        make(stage, d, int(argv[4]), len(argv) > 5 and argv[5] == "dense")
        return 0
    if cmd == "check":
        return check(stage, d)
    if cmd == "token":
        token(stage, d, int(argv[4]))
        return 0
    if cmd == "same":
        return same(stage, d, int(argv[4]), argv[5])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
