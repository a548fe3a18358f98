#!/usr/bin/env python3
"""edit.py IN OUT LINE_MARK OLD NEW: copy IN to OUT replacing OLD by NEW on the first line
that contains LINE_MARK (a line that becomes empty is dropped). Fails if nothing changed."""
import sys

src, dst, mark, old, new = sys.argv[1:6]
lines = open(src).read().split("\n")
for i, line in enumerate(lines):
    if mark in line and old in line:
        lines[i] = line.replace(old, new, 1)
        if not lines[i].strip():
            del lines[i]
        break
else:
    raise SystemExit("edit.py: no line with %r containing %r" % (mark, old))
open(dst, "w").write("\n".join(lines))
