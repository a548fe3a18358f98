#!/usr/bin/env python3
"""flip.py IN OUT OFFSET: copy IN to OUT with one bit flipped at byte OFFSET."""
import sys

data = bytearray(open(sys.argv[1], "rb").read())
data[int(sys.argv[3])] ^= 0x10
open(sys.argv[2], "wb").write(bytes(data))
