"""Cross-checks rngd-qwen3's --json object against its --quiet text and rngd-tokenize.

Usage: check_output.py RUN.json QUIET.txt DECODED.bin PROMPT_IDS NEW_TOKENS
RUN.json is the --json output, QUIET.txt the --quiet stdout of the same run, DECODED.bin
`rngd-tokenize --decode` of the generated ids (raw bytes). Checks: the prompt ids; the number
of generated ids; --quiet printed exactly the JSON text and a newline; the text is the decoded
bytes with malformed UTF-8 replaced (Python's errors="replace" substitutes maximal subparts like
the driver); the stage list and the totals add up.
"""
import json
import sys

run = json.load(open(sys.argv[1]))
quiet = open(sys.argv[2], "rb").read()
decoded = open(sys.argv[3], "rb").read()
prompt_ids = [int(x) for x in sys.argv[4].split(",")]
new_tokens = int(sys.argv[5])

assert run["format"] == "rngd-qwen3-run" and run["version"] == 1, run["format"]
assert run["prompt_ids"] == prompt_ids, run["prompt_ids"]
assert len(run["generated_ids"]) == new_tokens, run["generated_ids"]
assert run["stop_reason"] == "max_new_tokens", run["stop_reason"]
assert run["steps"] == len(prompt_ids) + new_tokens - 1, run["steps"]
text = run["text"]
assert quiet == text.encode() + b"\n", (quiet, text)
assert text == decoded.decode("utf-8", errors="replace"), (text, decoded)
stages = [s["stage"] for s in run["stages"]]
assert stages == ["embedding", "projection", "attention_forward_first", "attention_forward",
                  "decoder", "final_layer"], stages
assert run["total"]["cycles"] == sum(s["cycles"] for s in run["stages"])
assert run["total"]["launches"] == sum(s["launches"] for s in run["stages"])
assert run["stages"][0]["launches"] == run["steps"]  # one embedding per step
assert run["stages"][5]["launches"] == new_tokens  # final_layer only where logits are needed
assert run["total"]["cycles"] > 0 and run["wall_seconds"]["decode_loop"] > 0
# --kernels with the six decode stages only: the prompt ran token by token.
assert run["prefill"] is None, run["prefill"]
ttft = run["time_to_first_token"]
assert ttft["launches"] == 1 + len(prompt_ids) * (1 + 3 * run["layers"]), ttft  # + final_layer
assert 0 < ttft["cycles"] <= run["total"]["cycles"], ttft
print("generated %s" % ",".join(map(str, run["generated_ids"])))
print("text %s" % json.dumps(text))
print("ok: json, quiet and rngd-tokenize agree")
