"""Compares a directory rngd-stagegen wrote with the committed stages: every generated file must
exist in the committed directory with the same bytes, and every committed .mlir must have been
generated (none left behind). Prints one line per file and a summary; exits 1 on a difference.

usage: diff-stages.py GENERATED_DIR COMMITTED_DIR
"""
import difflib
import os
import sys


def main():
    generated, committed = sys.argv[1], sys.argv[2]
    made = sorted(f for f in os.listdir(generated) if f.endswith(".mlir"))
    kept = sorted(f for f in os.listdir(committed) if f.endswith(".mlir"))
    failed = 0
    for name in made:
        path = os.path.join(committed, name)
        if not os.path.exists(path):
            print("FAIL %s: generated, but not in %s" % (name, committed))
            failed += 1
            continue
        want, got = open(path).read(), open(os.path.join(generated, name)).read()
        if want != got:
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), got.splitlines(True), path, name, n=1))
            print("FAIL %s differs from what rngd-stagegen emits" % name)
            failed += 1
        else:
            print("ok %s" % name)
    for name in kept:
        if name not in made:
            print("FAIL %s: committed, but rngd-stagegen does not emit it" % name)
            failed += 1
    print("%d stages, %d failed" % (len(made), failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
