#!/usr/bin/env python3
"""Host oracle for the example kernels: computes the expected output of a kernel from its
input files independently of the compiler and the simulator (plain Python, IEEE f32 via
struct, bf16 round-to-nearest-even), then compares with the simulator's output bit-exactly.

  oracle.py make-input KIND COUNT SEED PATH   write COUNT random bf16 values (raw LE)
  oracle.py check KERNEL IN OUT               exit 0 iff OUT is KERNEL(IN) bit for bit
"""
import struct
import sys


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bf16_to_f32(h):
    return f32_from_bits(h << 16)


def f32_to_bf16(x):
    """Round to nearest even; NaN stays a (quiet) NaN."""
    b = f32_bits(x)
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF):
        return (b >> 16) | 0x0040
    rounding = 0x7FFF + ((b >> 16) & 1)
    return ((b + rounding) >> 16) & 0xFFFF


def f32_add(a, b):
    # Python floats are f64; the f32 sum of two f32 values is exact in f64 then rounded once.
    return f32_from_bits(f32_bits(a + b))


def read_u16(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%dH" % (len(data) // 2), data))


def make_input(kind, count, seed, path):
    # splitmix64 counter generator: same values on every platform.
    state = seed & 0xFFFFFFFFFFFFFFFF
    values = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        if kind == "bf16-signed":
            # bf16 values in (-4, 4), including exact ties for the +1 rounding.
            mant = z & 0x7F
            exp = 125 + ((z >> 7) % 4)
            sign = (z >> 9) & 1
            values.append((sign << 15) | (exp << 7) | mant)
        else:
            raise SystemExit("unknown input kind " + kind)
    open(path, "wb").write(struct.pack("<%dH" % count, *values))


def expected(kernel, inp):
    if kernel in ("copy", "embedding", "broadcast"):
        return inp  # broadcast moves f32 values bit for bit: compared as 16-bit halves
    if kernel == "transpose":
        # [S = 256, R = 4, C = 8] -> [S, C, R]
        return [inp[s * 32 + r * 8 + c] for s in range(256) for c in range(8) for r in range(4)]
    if kernel == "constant_add":
        return [f32_to_bf16(f32_add(bf16_to_f32(h), 1.0)) for h in inp]
    raise SystemExit("no oracle for kernel " + kernel)


def check(kernel, in_path, out_path):
    inp, out = read_u16(in_path), read_u16(out_path)
    exp = expected(kernel, inp)
    if len(out) != len(exp):
        print("size mismatch: expected %d values, got %d" % (len(exp), len(out)))
        return 1
    bad = [i for i in range(len(exp)) if exp[i] != out[i]]
    if bad:
        i = bad[0]
        print("%d of %d values differ; first at %d: expected 0x%04x, got 0x%04x"
              % (len(bad), len(exp), i, exp[i], out[i]))
        return 1
    print("%s: %d values bit-exact" % (kernel, len(exp)))
    return 0


def check_scatter(row_path, cache_path, offset, out_path):
    """out must be cache with row written at byte offset, and nothing else changed."""
    row, cache, out = (open(p, "rb").read() for p in (row_path, cache_path, out_path))
    expected = cache[:offset] + row + cache[offset + len(row):]
    if out != expected:
        first = next(i for i in range(min(len(out), len(expected))) if out[i] != expected[i])
        print("scatter: first difference at byte %d" % first)
        return 1
    print("scatter: row at byte %d written, %d bytes checked" % (offset, len(out)))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "make-input":
        make_input(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "check-scatter":
        sys.exit(check_scatter(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
    elif sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        raise SystemExit(__doc__)
