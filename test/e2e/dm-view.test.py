"""Checks dm-view.test's outputs against x (bf16 [256 slices, 4 rows, 8])."""
import struct
import sys

d = sys.argv[1]
x = struct.unpack("<8192H", open(d + "/x.bin", "rb").read())
y = struct.unpack("<4096H", open(d + "/y.bin", "rb").read())
z = struct.unpack("<4096H", open(d + "/z.bin", "rb").read())
w = struct.unpack("<4096H", open(d + "/w.bin", "rb").read())


def doubled(bits):
    """2 x a bf16 value, exact (the exponent goes up by one; no input is near overflow)."""
    if bits & 0x7F80 == 0:  # zero or subnormal: the f32 product rounds back to bf16 exactly
        f = struct.unpack("<f", struct.pack("<I", bits << 16))[0] * 2.0
        return struct.unpack("<I", struct.pack("<f", f))[0] >> 16
    return bits + 0x80


half = [x[s * 32 + 16 + i] for s in range(256) for i in range(16)]
strided = [x[s * 32 + 16 * r + 8 + c] for s in range(256) for r in range(2) for c in range(8)]
assert list(z) == half, "z differs from the second half of x"
assert list(y) == [doubled(b) for b in half], "y differs from 2 x the second half of x"
assert list(w) == strided, "w differs from the strided view"
print("dm views ok: %d doubled, %d copied, %d strided" % (len(y), len(z), len(w)))
