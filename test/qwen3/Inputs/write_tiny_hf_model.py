"""Writes a 1-layer Qwen3-0.6B-shaped Hugging Face checkpoint (config.json + model.safetensors).

Usage: write_tiny_hf_model.py DIR [--drop TENSOR] [--lm-head] [--shape SIZE] [--shards N]
                               [--intermediate L]

--shards N writes the tensors into N files model-0000k-of-0000N.safetensors, in turn, with
model.safetensors.index.json's weight_map naming each tensor's file, as save_pretrained does
past its shard size.

--shape 1.7B (or 4B, 8B, 14B) writes that Qwen3 size's layer and embedding shapes instead
(hidden, heads, MLP from Hugging Face's configs; head_dim 128, the same vocabulary), still one
layer; 8B and 14B untie the head (a separate lm_head.weight, as their configs say).
--intermediate L gives the MLP L rows instead of the size's.

The shapes are the real Qwen3-0.6B ones (the kernels have fixed shapes): hidden 1024, 16 query
heads, 8 KV heads of 128, MLP 3072, the full 151,936-token vocabulary, tie_word_embeddings
true (no lm_head.weight, ~311 MB embedding), but one layer. No numpy: matrices are SHAKE-256
bytes of "tiny-qwen3/<tensor name>" used as bf16 with the high byte remapped to sign | exponent
120..121 (|value| in [2^-7, 2^-5)), norm weights are 1 + 0.1 x pattern. --drop leaves one
tensor out (a corrupted checkpoint). --lm-head adds a separate lm_head.weight (another ~311
MB: row i is the embedding's row i + 1, cyclically, so it differs from the embedding but costs
no hashing) while the config keeps tie_word_embeddings true, so Hugging Face would ignore it. A tokenizer.json names id 1 "Hello", id 2 " world" (as
the byte-level "Ġworld"), id 151643 the special "<|endoftext|>", and every other id "t<id>".
"""
import hashlib
import json
import os
import struct
import sys

H, NH, NKV, D, I, V = 1024, 16, 8, 128, 3072, 151936
# Qwen3 dense sizes: hidden, q heads, kv heads, intermediate, tied.
SHAPES = {"0.6B": (1024, 16, 8, 3072, True), "1.7B": (2048, 16, 8, 6144, True),
          "4B": (2560, 32, 8, 9728, True), "8B": (4096, 32, 8, 12288, False),
          "14B": (5120, 40, 8, 17408, False)}

# bf16 high byte = sign | exponent[7:1]; the low byte's top bit is exponent[0]. Exponent bits
# 7:1 = 0b0111100 (60) gives exponents 120/121: |value| in [2^-7, 2^-5) = [0.0078, 0.031), a
# scale like the 0.02-std seeded weights; keep the random sign.
HIGH = bytes(((b & 0x80) | 60) for b in range(256))


_cache = {}


def matrix(name, n):
    if name in _cache:
        return _cache[name]
    raw = bytearray(hashlib.shake_256(("tiny-qwen3/" + name).encode()).digest(2 * n))
    raw[1::2] = bytes(raw[1::2]).translate(HIGH)
    if name == "model.embed_tokens.weight":  # kept for --lm-head
        _cache[name] = bytes(raw)
    return bytes(raw)


def shifted_embedding(_):
    e = matrix("model.embed_tokens.weight", V * H)
    return e[2 * H:] + e[:2 * H]


def bf16(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


def norm(name, n):
    # 1 + 0.1 * a small deterministic pattern (bf16 truncation of the float).
    h = hashlib.shake_256(("tiny-qwen3/" + name).encode()).digest(n)
    return b"".join(struct.pack("<H", bf16(1.0 + 0.1 * (b - 127.5) / 127.5)) for b in h)


def tensors():
    yield "model.embed_tokens.weight", [V, H], lambda n: matrix(n, V * H)
    p = "model.layers.0."
    yield p + "input_layernorm.weight", [H], lambda n: norm(n, H)
    yield p + "self_attn.q_proj.weight", [NH * D, H], lambda n: matrix(n, NH * D * H)
    yield p + "self_attn.k_proj.weight", [NKV * D, H], lambda n: matrix(n, NKV * D * H)
    yield p + "self_attn.v_proj.weight", [NKV * D, H], lambda n: matrix(n, NKV * D * H)
    yield p + "self_attn.o_proj.weight", [H, NH * D], lambda n: matrix(n, H * NH * D)
    yield p + "self_attn.q_norm.weight", [D], lambda n: norm(n, D)
    yield p + "self_attn.k_norm.weight", [D], lambda n: norm(n, D)
    yield p + "post_attention_layernorm.weight", [H], lambda n: norm(n, H)
    yield p + "mlp.gate_proj.weight", [I, H], lambda n: matrix(n, I * H)
    yield p + "mlp.up_proj.weight", [I, H], lambda n: matrix(n, I * H)
    yield p + "mlp.down_proj.weight", [H, I], lambda n: matrix(n, H * I)
    yield "model.norm.weight", [H], lambda n: norm(n, H)
    yield "lm_head.weight", [V, H], shifted_embedding


def write_file(path, specs):
    """One safetensors file of `specs` (name, shape, generator); returns its data bytes."""
    header, off = {"__metadata__": {"format": "pt"}}, 0
    for n, s, _ in specs:
        size = 2
        for d in s:
            size *= d
        header[n] = {"dtype": "BF16", "shape": s, "data_offsets": [off, off + size]}
        off += size
    hb = json.dumps(header).encode()
    hb += b" " * (-len(hb) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hb)))
        f.write(hb)
        for n, _, g in specs:
            f.write(g(n))
    return off


def main():
    global H, NH, NKV, I
    out, args = sys.argv[1], sys.argv[2:]
    drop = args[args.index("--drop") + 1] if "--drop" in args else None
    lm_head = "--lm-head" in args
    H, NH, NKV, I, tied = SHAPES[args[args.index("--shape") + 1] if "--shape" in args else "0.6B"]
    if "--intermediate" in args:
        I = int(args[args.index("--intermediate") + 1])
    lm_head = lm_head or not tied
    os.makedirs(out, exist_ok=True)
    config = {
        "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_act": "silu",
        "attention_bias": False, "hidden_size": H, "num_attention_heads": NH,
        "num_key_value_heads": NKV, "head_dim": D, "intermediate_size": I, "vocab_size": V,
        "num_hidden_layers": 1, "rope_theta": 1000000.0, "rms_norm_eps": 1e-6,
        "rope_scaling": None, "tie_word_embeddings": tied, "torch_dtype": "bfloat16",
    }
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    specs = [(n, s, g) for n, s, g in tensors()
             if n != drop and (n != "lm_head.weight" or lm_head)]
    shards = int(args[args.index("--shards") + 1]) if "--shards" in args else 0
    groups = [specs[k::shards] for k in range(shards)] if shards else [specs]
    names = (["model-%05d-of-%05d.safetensors" % (k + 1, shards) for k in range(shards)]
             if shards else ["model.safetensors"])
    total = sum(write_file(os.path.join(out, f), g) for f, g in zip(names, groups))
    if shards:
        weight_map = {n: f for f, g in zip(names, groups) for n, _, _ in g}
        with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    vocab = {"t%d" % i: i for i in range(V) if i not in (1, 2, 151643)}
    vocab.update({"Hello": 1, "\u0120world": 2})
    tokenizer = {"model": {"type": "BPE", "vocab": vocab},
                 "added_tokens": [{"id": 151643, "content": "<|endoftext|>", "special": True}]}
    with open(os.path.join(out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer, f)
    print("wrote %s: %d tensors, %d bytes of data" % (out, len(specs), total))


main()
