"""Checks that `rngd-qwen3 --help` lists every option the parser accepts and nothing else.

Usage: check_help.py SOURCE.cpp HELP.txt
The accepted options are the `a == "--name"` comparisons in SOURCE's parseServeOption and
parseArgs (which follows it); the listed ones
are the `--name` words that start an option line of the help text (two spaces of indentation;
description lines are indented further).
"""
import re
import sys

source = open(sys.argv[1]).read()
body = source[source.index("bool parseServeOption("):]
body = body[:body.index("\n}\n", body.index("Options parseArgs("))]
accepted = set(re.findall(r'a == "(--[a-z-]+)"', body))
help_text = open(sys.argv[2]).read()
listed = set()
for line in help_text.splitlines():
    m = re.match(r"  (--[a-z-]+)", line)
    if m:
        listed.add(m.group(1))
missing = sorted(accepted - listed)
unknown = sorted(listed - accepted)
print("accepted %d, listed %d" % (len(accepted), len(listed)))
if missing:
    sys.exit("not in --help: " + ", ".join(missing))
if unknown:
    sys.exit("in --help but not accepted: " + ", ".join(unknown))
print("every option is in --help")
