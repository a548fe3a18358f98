#!/usr/bin/python3
"""The PyTorch side of `make bench`'s prefill comparison: the same prefill rngd-qwen3 runs (a
prompt of T tokens through Qwen3-0.6B's layers, then the final norm and the LM head on the last
row) on this machine's CPU in bf16, with random weights of the model's shapes. Prints one JSON
line: {"seconds": wall time of the best of --repeat runs, "threads": torch's, ...}.

Debian's python3-torch (installed by scripts/install-deps.sh); run it with /usr/bin/python3.
"""
import argparse
import json
import os
import time

import torch

H, Q, KV, HEADS, KV_HEADS, D, L, VOCAB = 1024, 2048, 1024, 16, 8, 128, 3072, 151936
EPS, THETA = 1e-6, 1e6


def rms(x, w):
    x32 = x.float()
    return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + EPS)).to(x.dtype) * w


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin


def layer(x, w, cos, sin, mask):
    t = x.shape[0]
    h = rms(x, w["in_norm"])
    q = (h @ w["q"].T).view(t, HEADS, D)
    k = (h @ w["k"].T).view(t, KV_HEADS, D)
    v = (h @ w["v"].T).view(t, KV_HEADS, D)
    q = rope(rms(q, w["q_norm"]), cos, sin).transpose(0, 1)  # [heads, t, D]
    k = rope(rms(k, w["k_norm"]), cos, sin).transpose(0, 1)
    v = v.transpose(0, 1)
    k = k.repeat_interleave(HEADS // KV_HEADS, dim=0)
    v = v.repeat_interleave(HEADS // KV_HEADS, dim=0)
    scores = (q @ k.transpose(1, 2)) / D ** 0.5 + mask
    a = (torch.softmax(scores.float(), dim=-1).to(x.dtype) @ v).transpose(0, 1).reshape(t, Q)
    r = x + a @ w["o"].T
    h = rms(r, w["post_norm"])
    p = torch.nn.functional.silu(h @ w["gate"].T) * (h @ w["up"].T)
    return r + p @ w["down"].T


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=512)
    ap.add_argument("--layers", type=int, default=28)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 1)  # every core of the machine, as the simulator may
    torch.manual_seed(0)
    dt = torch.bfloat16

    def randn(*shape):
        return (torch.randn(*shape) * 0.02).to(dt)

    layers = [{"q": randn(Q, H), "k": randn(KV, H), "v": randn(KV, H), "o": randn(H, Q),
               "gate": randn(L, H), "up": randn(L, H), "down": randn(H, L),
               "in_norm": torch.ones(H, dtype=dt), "post_norm": torch.ones(H, dtype=dt),
               "q_norm": torch.ones(D, dtype=dt), "k_norm": torch.ones(D, dtype=dt)}
              for _ in range(a.layers)]
    head, norm = randn(VOCAB, H), torch.ones(H, dtype=dt)
    t = a.tokens
    pos = torch.arange(t, dtype=torch.float64)[:, None]
    freq = THETA ** (-torch.arange(D // 2, dtype=torch.float64) * 2 / D)
    angle = torch.cat([pos * freq, pos * freq], dim=-1)
    cos, sin = angle.cos().to(dt)[:, None, :], angle.sin().to(dt)[:, None, :]
    mask = torch.full((t, t), float("-inf")).triu(1).to(dt)
    x0 = randn(t, H) * 50
    best = None
    with torch.no_grad():
        for _ in range(a.repeat):
            start = time.perf_counter()
            x = x0
            for w in layers:
                x = layer(x, w, cos, sin, mask)
            logits = rms(x[-1:], norm) @ head.T
            seconds = time.perf_counter() - start
            best = seconds if best is None else min(best, seconds)
    print(json.dumps({"seconds": best, "threads": torch.get_num_threads(), "tokens": t,
                      "layers": a.layers, "torch": torch.__version__,
                      "logits_finite": bool(torch.isfinite(logits.float()).all())}))


if __name__ == "__main__":
    main()
