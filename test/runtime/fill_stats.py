"""Prints the range, mean, std and first values of a bf16 .npy file ('<u2' bit patterns) and
checks them against the distribution named on the command line.

Usage: fill_stats.py FILE.npy unit|uniform|normal [--plus-one OUT.npy]
--plus-one also checks OUT == bf16(IN + 1) element for element (constant_add's output).
"""
import struct
import sys


def load(path):
    raw = open(path, "rb").read()
    assert raw[:6] == b"\x93NUMPY", path
    header_len = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + header_len].decode()
    assert "'<u2'" in header, header
    data = raw[10 + header_len:]
    bits = struct.unpack("<%dH" % (len(data) // 2), data)
    return [struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits]


def bf16(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16  # nearest even
    return struct.unpack("<f", struct.pack("<I", u << 16))[0]


def main():
    values, kind = load(sys.argv[1]), sys.argv[2]
    n = len(values)
    mean = sum(values) / n
    std = (sum((v - mean) ** 2 for v in values) / n) ** 0.5
    negative = sum(v < 0 for v in values)
    print("%s: n %d min %g max %g mean %.3f std %.3f negative %d first %s" % (
        kind, n, min(values), max(values), mean, std, negative,
        ",".join("%g" % v for v in values[:4])))
    if kind == "unit":
        assert min(values) >= 0 and max(values) < 1 and negative == 0
        assert abs(mean - 0.5) < 0.02 and abs(std - 12 ** -0.5) < 0.02
    elif kind == "uniform":
        assert min(values) >= -1 and max(values) < 1
        assert 0.45 * n < negative < 0.55 * n
        assert abs(mean) < 0.03 and abs(std - 3 ** -0.5) < 0.02
    elif kind == "normal":
        assert abs(mean) < 0.05 and abs(std - 1) < 0.05
        assert min(values) < -2.5 and max(values) > 2.5 and min(values) >= -6 and max(values) < 6
    else:
        sys.exit("unknown distribution " + kind)
    if len(sys.argv) > 4 and sys.argv[3] == "--plus-one":
        out = load(sys.argv[4])
        bad = [i for i in range(n) if out[i] != bf16(values[i] + 1.0)]
        assert not bad, "out != bf16(in + 1) at %d elements, first %d" % (len(bad), bad[0])
        print("out = bf16(in + 1) on all %d" % n)
    print("ok")


main()
