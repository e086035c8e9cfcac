#!/usr/bin/python3
# Input data of the two-core split-K GEMM (kernel.yaml): C (16 x 40 fp32) = C0 + A (16 x 64 half)
# x B (64 x 40 half), K split in two halves of 32, one per core. A and B hold small integers, so
# every product and partial sum is exact in fp32 whatever order the Cube adds them in; C0 holds
# fractions, so the two atomic adds round and their order shows in the result. Run it from this
# folder: /usr/bin/python3 make.py (the test computes its reference from these files itself).
import numpy as np

rng = np.random.default_rng(20)
a = rng.integers(-8, 9, size=(16, 64)).astype(np.float16)
b = rng.integers(-8, 9, size=(64, 40)).astype(np.float16)
c0 = (rng.standard_normal((16, 40)) * 3.0).astype(np.float32)
a.tofile("a.bin")
b.tofile("b.bin")
c0.tofile("c0.bin")
