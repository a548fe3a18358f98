"""Checks the start links of each schedule JSON (rngdc --dump-schedule) against its times and
prints the chain back from the op that ends last, as rngdc --critical-path walks it.

Every op that waited ("why": "waits") starts at or after the end of the op it names; every
DMA part that names the DMA it started behind starts exactly when that DMA's part on the same
engine ended; "queue" links point to an op issued no later; only the first op has none."""
import json
import sys


def main(path):
    d = json.load(open(path))
    ops = {o["id"]: o for o in d["ops"]}

    def end_on(op, engine):
        return max(p["end"] for p in op["parts"] if p["engine"] == engine)

    starts = 0
    for o in ops.values():
        why = o["why"]
        if why == "start":
            starts += 1
            assert "after" not in o, o
            continue
        after = ops[o["after"]]
        if why == "waits":
            assert o["start"] >= after["end"], (o["id"], o["start"], after["id"], after["end"])
        elif why == "queue":
            assert after["start"] <= o["start"] or after["context"] == "tdma", (o["id"], after["id"])
        else:
            raise AssertionError(f"op {o['id']}: unknown why {why!r}")
        for p in o.get("parts", []):
            if "after" in p:
                behind = ops[p["after"]]
                assert p["start"] == end_on(behind, p["engine"]), (o["id"], p, behind["id"])
    assert starts == 1, f"{starts} ops without a predecessor"

    # The chain, as rngdc --critical-path prints it.
    last = max(ops.values(), key=lambda o: (o["end"], 0))
    part = max(last.get("parts", []), key=lambda p: p["end"], default=None)
    chain = []
    op = last
    while op is not None:
        chain.append((op, part))
        nxt, nxt_part = None, None
        if part is not None and "after" in part:
            nxt = ops[part["after"]]
            nxt_part = max((q for q in nxt["parts"] if q["engine"] == part["engine"]),
                           key=lambda q: q["end"])
        elif "after" in op:
            nxt = ops[op["after"]]
            if op["why"] == "waits" and nxt.get("parts"):
                nxt_part = max(nxt["parts"], key=lambda q: q["end"])
        op, part = nxt, nxt_part
    chain.reverse()
    assert chain[-1][0]["end"] == d["makespan"], (chain[-1][0]["end"], d["makespan"])
    # rngdc marks the same chain in the schedule ("critical" on the op and on its part there).
    marked = {o["id"] for o in ops.values() if o.get("critical")}
    assert marked == {op["id"] for op, _ in chain}, (marked, [op["id"] for op, _ in chain])
    for op, part in chain:
        flagged = [p for p in op.get("parts", []) if p.get("critical")]
        assert flagged == ([part] if part else []), (op["id"], flagged, part)
    print(f"links ok: {len(ops)} ops; chain of {len(chain)} ends at the makespan {d['makespan']}")
    for op, part in chain:
        where = part["engine"] if part else op["context"]
        s, e = (part["start"], part["end"]) if part else (op["start"], op["end"])
        print(f"{s} {e} {where} {op['loc']}")


if __name__ == "__main__":
    for schedule in sys.argv[1:]:
        main(schedule)
