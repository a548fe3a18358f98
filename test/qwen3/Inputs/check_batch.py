"""Batch invariance: the same requests run alone (--max-batch 1) and batched give the same
tokens, text and stop reasons, and bit-identical last-step logits (DIR/<index>.f32).

Usage: check_batch.py REFERENCE.jsonl REFERENCE_LOGITS_DIR RUN.jsonl RUN_LOGITS_DIR REPORT.json
Prints one line per request, then the report's decode steps (largest batch, count) and
"invariant" when everything matched (a difference is printed and the exit code is 1).
"""
import json
import os
import sys

FIELDS = ("index", "generated_ids", "text", "stop_reason")


def lines(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def main(ref_out, ref_dir, run_out, run_dir, report):
    ref, run = lines(ref_out), lines(run_out)
    ok = len(ref) == len(run)
    if not ok:
        print("request counts differ: %d and %d" % (len(ref), len(run)))
    for a, b in zip(ref, run):
        same = all(a.get(f) == b.get(f) for f in FIELDS)
        la = open(os.path.join(ref_dir, "%d.f32" % a["index"]), "rb").read()
        lb = open(os.path.join(run_dir, "%d.f32" % b["index"]), "rb").read()
        print("request %d: %d tokens, %s, logits %s" % (
            a["index"], len(a["generated_ids"]), "same" if same else "DIFFERENT",
            "identical" if la == lb else "DIFFER"))
        ok = ok and same and la == lb and len(la) > 0
    steps = json.load(open(report))["decode_steps"]
    print("decode steps %d, largest batch %d, all cycles > 0: %s" % (
        len(steps), max(s["batch"] for s in steps), all(s["cycles"] > 0 for s in steps)))
    print("invariant" if ok else "NOT invariant")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
