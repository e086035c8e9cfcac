#!/usr/bin/python3
"""Checks output/c.bin of tests/asc/int8_mmad.asc against a reference computed here from the
kernel's own input files (plain Python, independent of the kernel and of its host check).
usage: check_c.py DIR M K N"""
import struct
import sys

d, m, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
a = struct.unpack(f"{m * k}b", open(f"{d}/input/a.bin", "rb").read())
bt = struct.unpack(f"{n * k}b", open(f"{d}/input/bt.bin", "rb").read())
raw = open(f"{d}/output/c.bin", "rb").read()
if len(raw) != 4 * m * n:
    sys.exit(f"c.bin has {len(raw)} bytes, not {4 * m * n}")
c = struct.unpack(f"<{m * n}i", raw)
bad = [(i, j) for i in range(m) for j in range(n)
       if c[i * n + j] != sum(a[i * k + x] * bt[j * k + x] for x in range(k))]
if bad:
    sys.exit(f"{len(bad)} wrong elements, first at row {bad[0][0]} column {bad[0][1]}")
print(f"c.bin matches the reference ({m}x{k}x{n})")
