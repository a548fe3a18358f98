"""Compares a tensor-parallel run of rngd-qwen3 with the one-chip run of the same checkpoint.

Usage: compare_tp.py ONE.f32 TP.f32 ONE.json TP.json CHIPS [--prefill]

The last step's logits (--dump-logits, f32) must agree within bf16 rounding: every logit
within 4 bf16 units in the last place of the largest |logit| (the chips' partial sums are
rounded to bf16 before the all-reduce adds them, docs/multichip.md). The generated ids must be
equal. The report's chip_link cycles must equal the link model worked out here from the run's
shape: per step one all-reduce for the embedding row and two per layer, each a ring of
2 (N - 1) transfers of H * 2 / N bytes; per step with logits one gather of the vocabulary
blocks onto chip 0; every transfer 500 cycles of DMA start-up plus bytes / 30 per cycle.
With --prefill the runs took the prompt through the prefill stages: the report must show the
same blocks as the one-chip run's, through the decoder's two parts.
"""
import json
import math
import struct
import sys

STARTUP, PCIE = 500, 30  # TargetModel::dmaStartupCycles, pcieBytesPerCycle


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)


def ulp_bf16(x):
    return 2.0 ** (math.floor(math.log2(abs(x))) - 7)


def link_cycles(chips, hidden, vocab, layers, steps, logit_steps):
    part = math.ceil(hidden * 2 / chips)
    all_reduce = 2 * (chips - 1) * (STARTUP + math.ceil(part / PCIE))
    block = math.ceil(vocab / chips) * 2
    gather = STARTUP + math.ceil((chips - 1) * block / PCIE)
    return steps * (1 + 2 * layers) * all_reduce + logit_steps * gather


def main():
    one, tp = floats(sys.argv[1]), floats(sys.argv[2])
    one_run, tp_run = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
    chips = int(sys.argv[5])
    assert len(one) == len(tp), (len(one), len(tp))
    bound = 4 * ulp_bf16(max(abs(v) for v in one))
    worst = max(abs(a - b) for a, b in zip(one, tp))
    assert worst <= bound, "logits differ by %g, more than %g" % (worst, bound)
    assert one_run["generated_ids"] == tp_run["generated"], (one_run["generated_ids"], tp_run["generated"])
    print("logits: %d values, largest difference %g (bound %g), equal: %d" %
          (len(one), worst, bound, sum(a == b for a, b in zip(one, tp))))
    print("generated ids equal: %s" % ",".join(map(str, tp_run["generated"])))
    rep = tp_run["report"]
    stages = {s["stage"]: s for s in rep["stages"]}
    if "--prefill" in sys.argv:
        blocks = rep["prefill"]["blocks"]
        assert blocks == one_run["prefill"]["blocks"], (blocks, one_run["prefill"]["blocks"])
        parts = [n for n in ("prefill_decoder_out", "prefill_decoder_mlp")
                 if stages[n]["launches"] == rep["layers"] * len(blocks)]
        print("prefill blocks %s on every chip: %s" % (blocks, ", ".join(parts)))
        # A block past the first KV chunk meets each earlier chunk through prefill_attention.
        if "prefill_attention" in stages and stages["prefill_attention"]["launches"]:
            print("prefill_attention: %d launches" % stages["prefill_attention"]["launches"])
        return
    steps, generated = rep["steps"], len(tp_run["generated"])
    # The prompt's last step and each step after it produce logits.
    expected = link_cycles(chips, 1024, 151936, rep["layers"], steps, generated)
    got = stages["chip_link"]["cycles"]
    assert got == expected, "chip_link %d cycles, the link model gives %d" % (got, expected)
    print("chip_link: %d cycles over %d steps, as modelled" % (got, steps))


main()
