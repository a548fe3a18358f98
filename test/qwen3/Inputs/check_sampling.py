"""An independent sampler (Sampler.h's contract, written again here) applied to logits that
rngd-qwen3 --dump-logits wrote: which token draw N of a seed takes from them.

Usage: check_sampling.py LOGITS.bin TEMPERATURE TOP_K TOP_P SEED N
Candidates: the TOP_K largest logits (lowest id first on ties), weights e^((l - max) / T) in
double, normalised; then the smallest prefix whose probability reaches TOP_P, renormalised.
Draw N: u = the N-th output of the seed's splitmix64 stream as a double in [0, 1), the first
candidate whose running probability exceeds u. Prints the token and the nucleus size.
"""
import math
import struct
import sys

MASK = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def uniform(seed, n):
    key = splitmix64(splitmix64(seed) ^ 0x73616D706C6572)  # "sampler"
    return (splitmix64((key + n * 0x9E3779B97F4A7C15) & MASK) >> 11) * 2.0 ** -53


def main(path, temperature, top_k, top_p, seed, n):
    data = open(path, "rb").read()
    logits = struct.unpack("<%df" % (len(data) // 4), data)
    order = sorted(range(len(logits)), key=lambda i: (-logits[i], i))[:top_k or len(logits)]
    top = logits[order[0]]
    weights = [math.exp((logits[i] - top) / temperature) for i in order]
    probs = [w / sum(weights) for w in weights]
    reached, kept = 0.0, 0
    while kept < len(probs) and reached < top_p:
        reached += probs[kept]
        kept += 1
    probs = probs[:max(kept, 1)]
    probs = [p / sum(probs) for p in probs]
    u, running = uniform(seed, n), 0.0
    token = order[len(probs) - 1]
    for i, p in zip(order, probs):
        running += p
        if u < running:
            token = i
            break
    print("draw %d: token %d, nucleus %d of %d candidates" % (n, token, len(probs), len(order)))


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], float(a[1]), int(a[2]), float(a[3]), int(a[4]), int(a[5]))
