"""The command-line habits of llama.cpp users (rngd-qwen3 with one seeded layer):

  check_cli_habits.py stop DIR       --stop TEXT ends the text before TEXT (stop_string)
  check_cli_habits.py interrupt DIR  Ctrl-C (SIGINT) mid-generation still prints the --json,
                                     with the tokens so far and stop_reason "interrupted"
"""
import json
import signal
import subprocess
import sys

BASE = ["rngd-qwen3", "--layers", "1", "--json"]


def run(args):
    done = subprocess.run(BASE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        sys.exit("rngd-qwen3 %s failed:\n%s" % (" ".join(args), done.stderr))
    return json.loads(done.stdout)


def stop(d):
    first = run(["-p", "Hello", "--max-new-tokens", "6"])
    text = first["text"]
    # A stop text that starts after the first character and first occurs there.
    k = next(k for k in range(1, len(text) - 1) if text.find(text[k:k + 2]) == k)
    second = run(["-p", "Hello", "--max-new-tokens", "6", "--stop", text[k:k + 2], "--stop", "\x01"])
    print("cut at the stop text:", second["text"] == text[:k])
    print("stop_reason:", second["stop_reason"])
    print("fewer tokens:", len(second["generated_ids"]) <= len(first["generated_ids"]))


def interrupt(d):
    p = subprocess.Popen(BASE + ["--token-ids", "1,2,3", "--max-new-tokens", "2000", "--verbose"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in p.stderr:  # a line per step: once a token has been generated, Ctrl-C
        if "-> next" in line:
            break
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=600)
    j = json.loads(out)
    print("exit", p.returncode, "stop_reason", j["stop_reason"],
          "some tokens", 0 < len(j["generated_ids"]) < 2000)


if __name__ == "__main__":
    {"stop": stop, "interrupt": interrupt}[sys.argv[1]](sys.argv[2])
