"""rngd-qwen3 chat's turns (its --json lines on stdin): each later turn starts where the
sequence ended and carries only its own tokens; the answer after /reset repeats the first; and
the second answer equals a one-shot run of the whole conversation's tokens (greedy), so the
kept KV cache holds what a run from scratch computes.

Usage: check_chat.py TURNS.jsonl
       check_chat.py interrupt: Ctrl-C (SIGINT) during a long answer stops it; the next turn
       continues the conversation after the tokens the answer had.
"""
import json
import signal
import subprocess
import sys
import time


def interrupt():
    p = subprocess.Popen(["rngd-qwen3", "chat", "--layers", "1", "--max-new-tokens", "2000",
                          "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stdin.write("Hello\n")
    p.stdin.flush()
    time.sleep(8)  # past the weights, into the answer
    p.send_signal(signal.SIGINT)
    p.stdin.write("Again\n")
    p.stdin.flush()
    time.sleep(4)  # into the second answer, which is interrupted too
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate("", timeout=300)
    a, b = (json.loads(l) for l in out.splitlines())
    print("exit", p.returncode, "first", a["stop_reason"], 0 < len(a["generated_ids"]) < 2000,
          "second at", b["position"] == len(a["prompt_ids"]) + len(a["generated_ids"]) - 1)


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
