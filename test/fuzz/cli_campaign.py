"""A mutation campaign over rngd-qwen3's command line (docs/reliability.md).

Usage: cli_campaign.py RNGD_QWEN3 [RUNS] [SEED]

Each run takes a valid command (--token-ids, --kernels pointing at a directory that does not
exist, so a command that passes every check stops at the kernel-file check before any weight is
generated) and replaces option values with bad ones: negative, huge (past 64 bits), non-numeric,
empty, NaN/inf, lists with holes, unknown options, repeated options, a --model directory whose
config.json is mutated. A run passes when it exits with status 1 and one "rngd-qwen3: error:"
line within 20 s (no signal, no hang, no other exit status). Prints a count per outcome.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

BAD_INTS = ["-1", "0", "1", "28", "29", "32767", "32768", "32769", "40960", "2147483647",
            "2147483648", "9223372036854775807", "9223372036854775808",
            "99999999999999999999999", "", "x", "1e3", "0x10", " 1", "1 ", "+1", "--1", "1.5"]
BAD_FLOATS = ["nan", "inf", "-inf", "-0", "0", "1e308", "1e-320", "100.0001", "", "abc", "0.5"]
BAD_IDS = ["", ",", "1,,2", "-1", "151936", "155648", "2147483648", "1," * 2000 + "1", "a,b",
           "1;2", "0", "151935"]
OPTIONS_INT = ["--layers", "--max-new-tokens", "--start-pos", "--seed", "--weight-seed", "--top-k"]
OPTIONS_FLOAT = ["--temperature", "--top-p"]
FLAGS = ["--check", "--quiet", "--json", "--verbose", "--raw", "--no-think", "--device-lookup",
         "--keep-kernels", "--bogus", "--check=1", "-x", "--"]
CONFIG_VALUES = [None, -1, 0, 1, 2, 1 << 30, (1 << 30) + 1, 1 << 62, 1.5, "1024", True, [], {},
                 1e308, -0.0]
CONFIG_KEYS = ["hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
               "intermediate_size", "vocab_size", "num_hidden_layers", "max_position_embeddings",
               "rope_theta", "rms_norm_eps", "tie_word_embeddings", "model_type", "rope_scaling"]
QWEN06 = dict(model_type="qwen3", hidden_size=1024, num_attention_heads=16, num_key_value_heads=8,
              head_dim=128, intermediate_size=3072, vocab_size=151936, num_hidden_layers=2,
              rope_theta=1e6, rms_norm_eps=1e-6, tie_word_embeddings=True,
              max_position_embeddings=40960)


def command(rng, exe, workdir, i):
    args = [exe, "--kernels", os.path.join(workdir, "no-kernels"), "--layers", "1",
            "--token-ids", "1,2"]
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.4:
            args += [rng.choice(OPTIONS_INT), rng.choice(BAD_INTS)]
        elif kind < 0.55:
            args += [rng.choice(OPTIONS_FLOAT), rng.choice(BAD_FLOATS)]
        elif kind < 0.7:
            args += ["--token-ids", rng.choice(BAD_IDS)]
        elif kind < 0.8:
            args.append(rng.choice(FLAGS))
        else:
            d = os.path.join(workdir, "model%d" % i)
            os.makedirs(d, exist_ok=True)
            config = dict(QWEN06)
            for _ in range(rng.randint(1, 3)):
                key = rng.choice(CONFIG_KEYS)
                value = rng.choice(CONFIG_VALUES)
                if value is None and rng.random() < 0.5:
                    config.pop(key, None)
                else:
                    config[key] = value
            text = json.dumps(config)
            if rng.random() < 0.2:  # truncated or garbled JSON
                cut = rng.randrange(len(text))
                text = text[:cut] + rng.choice(["", "\x00", "\xff", "}", "]]"])
            with open(os.path.join(d, "config.json"), "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            args += ["--model", d]
    return args


def main():
    exe = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 16)
    outcomes = {}
    bad = []
    with tempfile.TemporaryDirectory() as workdir:
        for i in range(runs):
            args = command(rng, exe, workdir, i)
            try:
                p = subprocess.run(args, capture_output=True, timeout=20)
                err = p.stderr.decode("utf-8", "replace")
                errors = [l for l in err.splitlines() if l.startswith("rngd-qwen3: error: ")]
                if p.returncode == 1 and len(errors) == 1:
                    key = "error, exit 1: " + errors[0][19:].split(" ")[0].split("'")[0][:40]
                    outcome = "ok"
                elif p.returncode == 0:
                    key, outcome = "exit 0", "ok"  # --help-like runs
                else:
                    key, outcome = "exit %d" % p.returncode, "BAD"
            except subprocess.TimeoutExpired:
                key, outcome = "timeout", "BAD"
            outcomes[key] = outcomes.get(key, 0) + 1
            if outcome == "BAD":
                bad.append((key, args[1:]))
    for key, n in sorted(outcomes.items(), key=lambda kv: -kv[1]):
        print("%5d  %s" % (n, key))
    print("%d runs, %d bad" % (runs, len(bad)))
    for key, args in bad[:10]:
        print("BAD %s: %s" % (key, " ".join(repr(a) for a in args)[:300]))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
