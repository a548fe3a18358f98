"""rngd-qwen3 chat's turns (its --json lines on stdin): each later turn starts where the
sequence ended and carries only its own tokens; the answer after /reset repeats the first; and
the second answer equals a one-shot run of the whole conversation's tokens (greedy), so the
kept KV cache holds what a run from scratch computes.

Usage: check_chat.py TURNS.jsonl
       check_chat.py interrupt: Ctrl-C (SIGINT) during a long answer stops it; the next turn
       continues the conversation after the tokens the answer had.
"""
import json
import queue
import re
import signal
import subprocess
import sys
import threading
import time


def reader(stream, q):
    """Puts each byte chunk of `stream` on q (None at the end)."""
    for chunk in iter(lambda: stream.read1(4096), b""):
        q.put(chunk)
    q.put(None)


def wait_for(q, seen, what, timeout=600):
    """Reads q into seen[0] until `what` (bytes, or a callable on the text) holds."""
    deadline = time.time() + timeout
    while not (what(seen[0]) if callable(what) else what in seen[0]):
        chunk = q.get(timeout=max(1, deadline - time.time()))
        if chunk is None:
            raise SystemExit("the chat ended early: %r" % seen[0][-300:])
        seen[0] += chunk


def interrupt():
    """Ctrl-C once each answer has started streaming (whatever the machine's speed)."""
    p = subprocess.Popen(["rngd-qwen3", "chat", "--layers", "1", "--max-new-tokens", "2000"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out_q, err_q = queue.Queue(), queue.Queue()
    for stream, q in ((p.stdout, out_q), (p.stderr, err_q)):
        threading.Thread(target=reader, args=(stream, q), daemon=True).start()
    out, err = [b""], [b""]
    turns = []
    for turn, text in enumerate([b"Hello\n", b"Again\n"]):
        wait_for(out_q, out, lambda o: o.endswith(b"> "))  # the chat waits for a line
        start = len(out[0])
        p.stdin.write(text)
        p.stdin.flush()
        wait_for(out_q, out, lambda o: len(o) > start)  # the answer has started
        p.send_signal(signal.SIGINT)
        wait_for(err_q, err, lambda e: e.count(b"interrupted]") == turn + 1)
    p.stdin.close()
    p.wait(timeout=120)
    lines = re.findall(rb"\[(\d+) new tokens at position (\d+), (\d+) generated, interrupted\]",
                       err[0])
    (n1, p1, g1), (n2, p2, g2) = [tuple(map(int, l)) for l in lines]
    print("exit", p.returncode, "first interrupted", 0 < g1 < 2000,
          "second at", p2 == n1 + g1 - 1)


if sys.argv[1] == "interrupt":
    interrupt()
    sys.exit(0)
turns = [json.loads(l) for l in open(sys.argv[1])]
a, b, c = turns
print("turn 2 at", b["position"], "=", len(a["prompt_ids"]) + len(a["generated_ids"]) - 1,
      "starting with the answer's last token", b["prompt_ids"][0] == a["generated_ids"][-1])
print("after /reset: turn", c["turn"], "position", c["position"], "same answer",
      c["generated_ids"] == a["generated_ids"])
whole = a["prompt_ids"] + a["generated_ids"][:-1] + b["prompt_ids"]
one = subprocess.run(["rngd-qwen3", "--layers", "1", "--token-ids", ",".join(map(str, whole)),
                      "--max-new-tokens", str(len(b["generated_ids"])), "--json"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
print("second answer as one run of %d tokens:" % len(whole),
      json.loads(one.stdout)["generated_ids"] == b["generated_ids"])
