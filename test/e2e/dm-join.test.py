"""Checks dm-join.test's output: y = 2 x, bf16, same order (x and y are [512 slices, 96])."""
import struct
import sys

d = sys.argv[1]
x = struct.unpack("<49152H", open(d + "/x.bin", "rb").read())
y = struct.unpack("<49152H", open(d + "/y.bin", "rb").read())


def doubled(bits):
    """2 x a bf16 value, exact (the exponent goes up by one; no input is near overflow)."""
    if bits & 0x7F80 == 0:  # zero or subnormal: the f32 product rounds back to bf16 exactly
        f = struct.unpack("<f", struct.pack("<I", bits << 16))[0] * 2.0
        return struct.unpack("<I", struct.pack("<f", f))[0] >> 16
    return bits + 0x80


bad = [i for i in range(len(x)) if y[i] != doubled(x[i])]
assert not bad, "y differs from 2 x at %d of %d cells, first at %d" % (len(bad), len(x), bad[0])
print("dm join ok: %d doubled" % len(y))
