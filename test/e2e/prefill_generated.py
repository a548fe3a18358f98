"""Runs a generated prefill stage (any shape, any block size T) on the simulator and checks
every output bit for bit against prefill_oracle.py's emulation; the HBM layouts and sizes are
read from the generated .mlir (its type aliases and tcp.axes), the attention's tile from the
generator's rule (16 x (D / 16) / G keys, at most T).

usage: prefill_generated.py projection|attention|attention_next|decoder|attention_decoder T MLIR
           RNGD WORKDIR [small|uniform]
       prefill_generated.py attention_partial T MLIR RNGD WORKDIR small|uniform VISIBLE [NEXT_RNGD]
"""
import os
import re
import subprocess
import sys
import types

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prefill_oracle as O  # noqa: E402

RUN = "rngd-run"  # on PATH (lit puts the build's tools there)


def axes_of(path):
    text = open(path).read()
    return {k: int(v) for k, v in re.findall(r'(\w+) = (\d+) : i64', text)}


def parse(path):
    text = open(path).read()
    aliases = dict(re.findall(r'^!(\w+) = !tcp\.hbm<\w+, "([^"]*)">', text, re.M))
    args = {}
    for alias, name in re.findall(r'%\w+: !(\w+) \{tcp\.arg = "\w+", tcp\.name = "(\w+)"\}', text):
        args[name] = aliases[alias]
    return args


def run(rngd, d, ins, outs):
    cmd = [RUN, rngd]
    for n in ins:
        cmd += ["--input", "%s=%s/%s.bin" % (n, d, n)]
    for n in outs:
        cmd += ["--output", "%s=%s/%s.bin" % (n, d, n)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("rngd-run failed")
    print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "")


def projection(T, mlir, rngd, d, dist):
    args = parse(mlir)
    A = axes_of(mlir)
    H, O_, N, D = A["H"], A["O"], A["N"], A["D"]
    F, Q = D // 2, A["Q"]
    rng = np.random.default_rng(7)
    if dist == "uniform":
        x, w = rng.random((T, H), dtype=np.float32), rng.random((O_, H), dtype=np.float32)
        rw, hw = rng.random(H, dtype=np.float32), rng.random(O_, dtype=np.float32)
    else:
        x = np.clip(rng.standard_normal((T, H), dtype=np.float32), -4, 4)
        w = rng.standard_normal((O_, H), dtype=np.float32) * np.float32(0.02)
        rw = np.float32(1) + np.float32(0.1) * rng.standard_normal(H, dtype=np.float32)
        hw = np.float32(1) + np.float32(0.1) * rng.standard_normal(O_, dtype=np.float32)
    xb, wb, rwb, hwb = (O.f32_to_bf16(a) for a in (x, w, rw, hw))
    O.to_layout(xb, args["x"], {"T": T, "H": H}).tofile(d + "/x.bin")
    O.to_layout(wb, args["qkv_weight"], {"O": O_, "H": H}).tofile(d + "/qkv_weight.bin")
    rwb.tofile(d + "/input_rms_weight.bin")
    hwb.tofile(d + "/head_rms_weight.bin")
    cos, sin = O.rope_tables(np.arange(T))
    O.to_layout(cos, args["cos"], {"T": T, "F": F}).tofile(d + "/cos.bin")
    O.to_layout(sin, args["sin"], {"T": T, "F": F}).tofile(d + "/sin.bin")
    run(rngd, d, ["x", "input_rms_weight", "qkv_weight", "head_rms_weight", "cos", "sin"],
        ["q_out", "k_cache", "v_cache"])
    # The oracle's emulation (normalised_heads + rope), for T tokens.
    xf, wf = O.bf16_to_f32(xb), O.bf16_to_f32(wb)
    # h in parts of HL values (two halves, or more when halves do not divide a cluster's
    # slices), each part's f32 sum added in order.
    parts, hl = H // A["HL"], A["HL"]
    xn, _ = O.rmsnorm(xf, O.bf16_to_f32(rwb), 16, halves=parts)
    xh = O.bf16_to_f32(O.f32_to_bf16(xn))
    acc = O.contract(xh[:, :hl], wf[:, :hl])
    for i in range(1, parts):
        acc = acc + O.contract(xh[:, i * hl:(i + 1) * hl], wf[:, i * hl:(i + 1) * hl])
    raw = O.f32_to_bf16(acc)
    qn, _ = O.head_rmsnorm(O.bf16_to_f32(raw), O.bf16_to_f32(hwb))
    bits, _ = O.rope(O.bf16_to_f32(qn), O.bf16_to_f32(cos), O.bf16_to_f32(sin))
    rc = 0
    for name, exp, mapping, axes in [
            ("q_out", bits[:, :Q], args["q_out"], {"T": T, "Q": Q}),
            ("k_cache", bits[:, Q:Q + N * D].reshape(T, N, D), args["k_cache"], {"T": T, "N": N, "D": D}),
            ("v_cache", raw[:, Q + N * D:].reshape(T, N, D), args["v_cache"], {"T": T, "N": N, "D": D})]:
        got = O.from_layout(np.fromfile("%s/%s.bin" % (d, name), dtype=np.uint16), mapping, axes)
        bad = np.count_nonzero(got.reshape(exp.shape) != exp)
        print("T=%d %s: %d values, %d mismatches" % (T, name, exp.size, bad))
        rc |= bad != 0
    return rc


def drawer(rng, dist):
    """f32 draws of a shape from rng: uniform [0, 1), or normal clipped to [-4, 4] ("small")."""
    if dist == "uniform":
        return lambda s: rng.random(s, dtype=np.float32)
    return lambda s: np.clip(rng.standard_normal(s, dtype=np.float32), -4, 4)


def attention_axes(N, G, TB, TT, TQ, D):
    """The axes of q/out ([N, G, TB, TT, TQ, D]) and of the state (the same without D)."""
    st = {"N": N, "G": G, "TB": TB, "TT": TT, "TQ": TQ}
    return dict(st, D=D), st


def attention(T, mlir, rngd, d, dist):
    ins, _, check = attention_case(T, mlir, d, dist)
    run(rngd, d, ins, ["attn"])
    return check()


def attention_case(T, mlir, d, dist):
    """prefill_attention_first's inputs, written to d; returns their names, the expected a
    ([HQ, T, D] bf16 bits) and a check of d/attn.bin against it."""
    args = parse(mlir)
    A = axes_of(mlir)
    N, G, D, TQ = A.get("N", 1), A.get("G", 1), A["D"], 16
    HQ = N * G
    # The key tile: the stage's SI (a pass of fewer q heads than G has longer tiles).
    tile = A.get("SI", min(TQ * (D // 16) // G, T))
    TB, TT = T // tile, tile // TQ
    ax, st_ax = attention_axes(N, G, TB, TT, TQ, D)
    rng = np.random.default_rng(9)
    draw = drawer(rng, dist)
    q = O.f32_to_bf16(draw((HQ, T, D)))
    k = O.f32_to_bf16(draw((T, N, D)))
    v = O.f32_to_bf16(draw((T, N, D)))
    O.to_layout(q.reshape(N, G, TB, TT, TQ, D), args["q"], ax).tofile(d + "/q.bin")
    kv_ax = {"SB": TB, "SI": tile, "N": N, "D": D}
    O.to_layout(k.reshape(TB, tile, N, D), args["k_cache"], kv_ax).tofile(d + "/k_cache.bin")
    O.to_layout(v.reshape(TB, tile, N, D), args["v_cache"], kv_ax).tofile(d + "/v_cache.bin")
    tb, sb = np.meshgrid(np.arange(TB), np.arange(TB), indexing="ij")
    tmask = np.repeat(np.where(sb < tb, np.float32(0), O.MASKED).astype(np.float32)[:, :, None], TQ, axis=2)
    tt, si, tq = np.meshgrid(np.arange(TT), np.arange(tile), np.arange(TQ), indexing="ij")
    dmask = np.where(si <= tt * 16 + tq, np.float32(0), O.MASKED).astype(np.float32)
    tmask.tofile(d + "/tile_mask.bin")
    dmask.tofile(d + "/diag_mask.bin")
    m = (rng.standard_normal((HQ, T)) + 2.5).astype(np.float32)
    l = (rng.random((HQ, T)) * 100 + 1).astype(np.float32)
    o = (rng.standard_normal((HQ, T, D)) * 10).astype(np.float32)
    if dist == "uniform":
        m[:], l[:], o[:] = O.MASKED, 0, 0
    O.to_layout(m.reshape(N, G, TB, TT, TQ), args["max_in"], st_ax).tofile(d + "/max_in.bin")
    O.to_layout(l.reshape(N, G, TB, TT, TQ), args["sum_in"], st_ax).tofile(d + "/sum_in.bin")
    O.to_layout(o.reshape(N, G, TB, TT, TQ, D), args["out_in"], ax).tofile(d + "/out_in.bin")
    qf, kf, vf = (O.bf16_to_f32(a) for a in (q, k, v))
    pos = np.arange(T)
    tile_add = tmask[pos[:, None] // tile, pos[None, :] // tile, 0]
    diag_add = dmask[pos[:, None] % tile // 16, np.arange(tile)[None, :], pos[:, None] % 16]
    ones = np.ones((1, T), np.float32)
    out = np.zeros((HQ, T, D), np.uint16)
    for h in range(HQ):
        kh, vh = kf[:, h // G], vf[:, h // G]
        raw = O.contract(qf[h], kh)
        main = O.bf16_to_f32(O.f32_to_bf16((raw + tile_add) / O.SCALE))
        own = np.stack([raw[t, t // tile * tile:t // tile * tile + tile] for t in range(T)])
        dg = O.bf16_to_f32(O.f32_to_bf16((own + diag_add) / O.SCALE))
        mm = np.maximum(np.maximum(main.max(axis=1), dg.max(axis=1)), m[h])
        alpha = np.exp((m[h] - mm).astype(np.float64)).astype(np.float32)
        pm = O.bf16_to_f32(O.f32_to_bf16(np.exp((main - mm[:, None]).astype(np.float64)).astype(np.float32)))
        pd = O.bf16_to_f32(O.f32_to_bf16(np.exp((dg - mm[:, None]).astype(np.float64)).astype(np.float32)))
        ll = (O.contract(pm, ones)[:, 0] + O.contract(pd, ones[:, :tile])[:, 0]) + l[h] * alpha
        om = O.contract(pm, vh.T)
        od = np.stack([O.contract(pd[t:t + 1], vh[t // tile * tile:t // tile * tile + tile].T)[0]
                       for t in range(T)]) + o[h] * alpha[:, None]
        out[h] = O.f32_to_bf16((om + od) / ll[:, None])

    def check():
        got = O.from_layout(np.fromfile(d + "/attn.bin", dtype=np.uint16), args["attn"], ax)
        bad = np.count_nonzero(got.reshape(HQ, T, D) != out)
        print("T=%d attn (%s): %d values, %d mismatches" % (T, dist, out.size, bad))
        return int(bad != 0)
    ins = ["q", "k_cache", "v_cache", "tile_mask", "diag_mask", "max_in", "sum_in", "out_in"]
    return ins, out, check


def fold_inputs(T, mlir, d, dist):
    """A chunk fold's inputs (prefill_attention, prefill_attention_partial): q, one chunk's k
    and v (SB x SI keys) and the carried state (m, l, o), drawn in this order and written in the
    stage's layouts. Returns them with the shapes and layouts the checks need."""
    f = types.SimpleNamespace(args=parse(mlir), A=axes_of(mlir))
    A = f.A
    f.N, f.G, f.D, f.TQ = A["N"], A.get("G", 1), A["D"], 16
    f.HQ, f.TB, f.TT, f.S = f.N * f.G, A.get("TB", 1), A.get("TT", 1), A["SB"] * A["SI"]
    N, G, D, TQ, HQ, TB, TT, S = f.N, f.G, f.D, f.TQ, f.HQ, f.TB, f.TT, f.S
    f.ax, f.st_ax = attention_axes(N, G, TB, TT, TQ, D)
    rng = np.random.default_rng(11)
    draw = drawer(rng, dist)
    f.q = O.f32_to_bf16(draw((HQ, T, D)))
    f.k = O.f32_to_bf16(draw((S, N, D)))
    f.v = O.f32_to_bf16(draw((S, N, D)))
    O.to_layout(f.q.reshape(N, G, TB, TT, TQ, D), f.args["q"], f.ax).tofile(d + "/q.bin")
    kv_ax = {"SB": A["SB"], "SI": A["SI"], "N": N, "D": D}
    for name, a in (("k_cache", f.k), ("v_cache", f.v)):
        O.to_layout(a.reshape(A["SB"], A["SI"], N, D), f.args[name], kv_ax).tofile(
            "%s/%s.bin" % (d, name))
    f.m = (rng.standard_normal((HQ, T)) + 2.5).astype(np.float32)
    f.l = (rng.random((HQ, T)) * 100 + 1).astype(np.float32)
    f.o = (rng.standard_normal((HQ, T, D)) * 10).astype(np.float32)
    if dist == "uniform":
        f.m[:], f.l[:], f.o[:] = O.MASKED, 0, 0
    write_fold_state(f, d)
    return f


def write_fold_state(f, d):
    """The carried state (m, l, o) into max_hbm, sum_hbm and out_hbm (in and out of the fold)."""
    for name, a in (("max_hbm", f.m), ("sum_hbm", f.l), ("out_hbm", f.o)):
        O.to_layout(a.reshape((f.N, f.G, f.TB, f.TT, f.TQ) + a.shape[2:]), f.args[name],
                    f.ax if name == "out_hbm" else f.st_ax).tofile("%s/%s.bin" % (d, name))


def fold_expected(f, mask=None):
    """The folded state as prefill_oracle.prefill_attention emulates it: s = bf16((q . k
    [+ mask]) / SCALE), m' = max(m, max s), alpha = exp(m - m'), p = bf16(exp(s - m')),
    l' = l alpha + p . 1, o' = p . V + o alpha."""
    qf, kf, vf = (O.bf16_to_f32(a) for a in (f.q, f.k, f.v))
    ones = np.ones((1, f.S), np.float32)
    mn, ln, on = np.zeros_like(f.m), np.zeros_like(f.l), np.zeros_like(f.o)
    for h in range(f.HQ):
        kh, vh = kf[:, h // f.G], vf[:, h // f.G]
        dot = O.contract(qf[h], kh)
        sc = O.bf16_to_f32(O.f32_to_bf16((dot if mask is None else dot + mask) / O.SCALE))
        mm = np.maximum(sc.max(axis=1), f.m[h])
        alpha = np.exp((f.m[h] - mm).astype(np.float64)).astype(np.float32)
        p = O.bf16_to_f32(O.f32_to_bf16(np.exp((sc - mm[:, None]).astype(np.float64)).astype(np.float32)))
        mn[h] = mm
        ln[h] = f.l[h] * alpha + O.contract(p, ones)[:, 0]
        on[h] = O.contract(p, vh.T) + f.o[h] * alpha[:, None]
    return [("max_hbm", mn, f.st_ax), ("sum_hbm", ln, f.st_ax), ("out_hbm", on, f.ax)]


def attention_next(T, mlir, rngd, d, dist):
    """prefill_attention: T queries against one earlier, full chunk (SB x SI keys), folded into
    each query's state (m, l, o) as prefill_oracle.prefill_attention emulates it."""
    f = fold_inputs(T, mlir, d, dist)
    run(rngd, d, ["q", "k_cache", "v_cache", "max_hbm", "sum_hbm", "out_hbm"],
        ["max_hbm", "sum_hbm", "out_hbm"])
    rc = 0
    for name, exp, axes in fold_expected(f):
        got = O.from_layout(np.fromfile("%s/%s.bin" % (d, name), dtype=np.uint32),
                            f.args[name], axes)
        bad = np.count_nonzero(got.reshape(exp.shape) != exp.view(np.uint32))
        print("T=%d %s (%s): %d values, %d mismatches" % (T, name, dist, exp.size, bad))
        rc |= bad != 0
    return rc


def attention_partial(T, mlir, rngd, d, dist, visible=1, against=None):
    """prefill_attention_partial: attention_next with key_mask [S] (0 for the keys < `visible`,
    -2^100 for the rest) added before the scale, s = bf16((q . k + key_mask) / SCALE), as
    prefill_attention_first adds its masks. `against`: prefill_attention's .rngd, run on the same
    inputs; its outputs must equal these bit for bit (key_mask all 0: visible = S)."""
    f = fold_inputs(T, mlir, d, dist)
    A = f.A
    mask = np.where(np.arange(f.S) < visible, np.float32(0), O.MASKED).astype(np.float32)
    O.to_layout(mask.reshape(A["SB"], A["SI"]), f.args["key_mask"],
                {"SB": A["SB"], "SI": A["SI"]}).tofile(d + "/key_mask.bin")
    state = ["max_hbm", "sum_hbm", "out_hbm"]
    got = {}
    for name in (["next"] if against else []) + ["partial"]:
        ins = ["q", "k_cache", "v_cache"] + (["key_mask"] if name == "partial" else []) + state
        run(against if name == "next" else rngd, d, ins, state)
        got[name] = {n: np.fromfile("%s/%s.bin" % (d, n), dtype=np.uint32) for n in state}
        write_fold_state(f, d)  # the inputs again
    rc = 0
    for name, exp, axes in fold_expected(f, mask):
        out = O.from_layout(got["partial"][name], f.args[name], axes)
        bad = np.count_nonzero(out.reshape(exp.shape) != exp.view(np.uint32))
        print("T=%d visible=%d %s (%s): %d values, %d mismatches" % (T, visible, name, dist,
                                                                     exp.size, bad))
        rc |= bad != 0
        if against:
            diff = np.count_nonzero(got["partial"][name] != got["next"][name])
            print("T=%d %s against prefill_attention: %d values, %d differ" % (
                T, name, exp.size, diff))
            rc |= diff != 0
    return rc


def contract_rows(x, w, packet=32, rows=256):
    """O.contract in blocks of `rows` output rows (the same sums, less memory)."""
    return np.concatenate([O.contract(x, w[i:i + rows], packet)
                           for i in range(0, w.shape[0], rows)], axis=1)


def decoder(T, mlir, rngd, d, dist):
    ins, check = decoder_case(T, mlir, d, dist)
    run(rngd, d, ins, ["y"])
    return check()


def attention_decoder(T, mlir, rngd, d, dist):
    """prefill_attention_decoder: the attention's a (checked as attn) is the decoder's input;
    the decoder part's axes carry the prefix M."""
    ains, out, _ = attention_case(T, mlir, d, dist)
    a = out.transpose(1, 0, 2).reshape(T, -1)  # [HQ, T, D] -> [T, Q]
    dins, check_y = decoder_case(T, mlir, d, dist, prefix="M", attn=a)
    run(rngd, d, ains + dins, ["attn", "y"])
    # attn is laid out as prefill_decoder reads it, by T and Q.
    got = O.from_layout(np.fromfile(d + "/attn.bin", dtype=np.uint16), parse(mlir)["attn"],
                        {"T": T, "Q": a.shape[1]})
    bad = np.count_nonzero(got.reshape(a.shape) != a)
    print("T=%d attn (%s): %d values, %d mismatches" % (T, dist, a.size, bad))
    return int(bad != 0) | check_y()


def decoder_case(T, mlir, d, dist, prefix="", attn=None):
    """prefill_decoder: r = bf16((((P0 + P1) + ...) + x), P_k o_proj's partial sums over the K
    blocks of QP / KS values (QP: a pass's values of Q, Q itself in one pass), in K order; h = bf16(RMSNorm(r)),
    16 values of h a slice (of each of H / HX parts of x, in part order); g, u = h W^T over all
    of H, or over HP parts of H (x's parts, or gate/up's own) whose f32 sums add in order;
    p = silu_times(g, u); y = bf16(((D0 + D1) + ...) + r), D_k down's partial sums over K
    blocks of L (LP / KD values each, KD blocks a pass; a shorter last pass holds whole blocks
    of the same size) in O.down_order's generalisation [L % dv / 16, L % block / dv, L % 16],
    dv a token's values on a slice of down's ring. Writes the inputs to d (all but attn when
    it is given: the bf16 bits of a, [T, Q]); returns their names and a check of d/y.bin. The
    decoder's axes and aliases carry `prefix` (upper and lower case) in a fused stage."""
    args = parse(mlir)
    A = {k[len(prefix):]: v for k, v in axes_of(mlir).items() if k.startswith(prefix)}
    H, Q, L = A["H"], A["Q"], A["L"]
    oblock = A.get("QP", Q) // A["KS"]
    hparts = A.get("HP", 1)
    lpass = A.get("LP", L)
    dblock = lpass // A["KD"]
    # A token's values on a slice of down's ring: `L % dv / 16` in the broadcast's time, or
    # one flit (dv = 16) when it has no such term.
    ds = re.search(r'^!%sds = !tcp\.stream<[^>]*time = "([^"]*)"' % prefix.lower(),
                   open(mlir).read(), re.M).group(1)
    m = re.search(r'%sLP? %% (\d+) / 16' % prefix, ds)
    dv = int(m.group(1)) if m else 16
    rng = np.random.default_rng(11)
    if dist == "uniform":
        draw = lambda shape, scale: rng.random(shape, dtype=np.float32) * np.float32(scale)
    else:
        draw = lambda shape, scale: np.clip(rng.standard_normal(shape, dtype=np.float32),
                                            -4, 4) * np.float32(scale)
    scale = 0.02 if dist == "small" else 0.05
    ab, xb = O.f32_to_bf16(draw((T, Q), 1.0)), O.f32_to_bf16(draw((T, H), 1.0))
    ab = ab if attn is None else attn
    wob = O.f32_to_bf16(draw((H, Q), scale))
    pwb = O.f32_to_bf16(np.float32(1) + draw(H, 0.1))
    wgb, wub = (O.f32_to_bf16(draw((L, H), scale)) for _ in range(2))
    wdb = O.f32_to_bf16(draw((H, L), scale))
    def ax(**sizes):
        return {prefix + k: v for k, v in sizes.items()}
    if attn is None:
        O.to_layout(ab, args["attn"], ax(T=T, Q=Q)).tofile(d + "/attn.bin")
    O.to_layout(xb, args["x"], ax(T=T, H=H)).tofile(d + "/x.bin")
    O.to_layout(wob, args["o_weight"], ax(H=H, Q=Q)).tofile(d + "/o_weight.bin")
    pwb.tofile(d + "/post_rms_weight.bin")
    O.to_layout(wgb, args["gate_weight"], ax(L=L, H=H)).tofile(d + "/gate_weight.bin")
    O.to_layout(wub, args["up_weight"], ax(L=L, H=H)).tofile(d + "/up_weight.bin")
    O.to_layout(wdb, args["down_weight"], ax(H=H, L=L)).tofile(d + "/down_weight.bin")
    ins = ["x", "o_weight", "post_rms_weight", "gate_weight", "up_weight", "down_weight"]
    a, x, wo, pw, wg, wu, wd = (O.bf16_to_f32(v) for v in (ab, xb, wob, pwb, wgb, wub, wdb))
    acc = None
    for k in range(0, Q, oblock):
        part = contract_rows(a[:, k:k + oblock], wo[:, k:k + oblock])
        acc = part if acc is None else acc + part
    r = O.bf16_to_f32(O.f32_to_bf16(acc + x))
    # x in parts of HX values (when H's rows do not tile a cluster's slices): each slice sums
    # its 16 values of every part, in part order.
    hn, _ = O.rmsnorm(r, pw, 16, halves=H // A.get("HX", H))
    h = O.bf16_to_f32(O.f32_to_bf16(hn))
    hl = H // hparts

    def gemm(w):
        s = contract_rows(h[:, :hl], w[:, :hl])
        for i in range(1, hparts):
            s = s + contract_rows(h[:, i * hl:(i + 1) * hl], w[:, i * hl:(i + 1) * hl])
        return s
    p = O.bf16_to_f32(O.silu_times(gemm(wg), gemm(wu)))
    i0, i1, i2 = np.meshgrid(np.arange(dv // 16), np.arange(dblock // dv), np.arange(16),
                             indexing="ij")
    order = (dv * i1 + 16 * i0 + i2).ravel()
    acc = None
    for k in range(0, L, dblock):
        part = contract_rows(p[:, k + order], wd[:, k + order])
        acc = part if acc is None else acc + part
    y = O.f32_to_bf16(acc + r)

    def check():
        got = O.from_layout(np.fromfile(d + "/y.bin", dtype=np.uint16), args["y"], ax(T=T, H=H))
        bad = np.count_nonzero(got.reshape(T, H) != y)
        print("T=%d y (%s): %d values, %d mismatches" % (T, dist, y.size, bad))
        return int(bad != 0)
    return (ins if attn is not None else ["attn"] + ins), check


if __name__ == "__main__":
    kind, T, mlir, rngd, d = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    dist = sys.argv[6] if len(sys.argv) > 6 else "small"
    os.makedirs(d, exist_ok=True)
    modes = {"projection": projection, "attention": attention, "attention_next": attention_next,
             "decoder": decoder, "attention_decoder": attention_decoder}
    if kind == "attention_partial":  # ... small|uniform VISIBLE [PREFILL_ATTENTION_RNGD]
        sys.exit(attention_partial(T, mlir, rngd, d, dist, int(sys.argv[7]), *sys.argv[8:9]))
    sys.exit(modes[kind](T, mlir, rngd, d, dist))
