"""Checks dm-view-slices.test's output: y [2, 8, 128] = x [2, 32, 128] heads 16..23."""
import struct
import sys

d = sys.argv[1]
x = struct.unpack("<8192H", open(d + "/x.bin", "rb").read())
y = struct.unpack("<2048H", open(d + "/y.bin", "rb").read())
want = [x[(c * 32 + 16 + n) * 128 + i] for c in range(2) for n in range(8) for i in range(128)]
assert list(y) == want, "y differs from heads 16..23 of x"
print("dm view slices ok: %d values" % len(y))
