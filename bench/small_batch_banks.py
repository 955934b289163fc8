#!/usr/bin/env python3
"""Shared-memory bank count of small_batch's store phase (src/gpu/kernels/small_batch.cuh).

Lane k of a warp builds output vector k: for j < 16 / E it reads tile element (k * 16 / E + j) * cols
(one input column, 16 / E rows per lane), E bytes each, at byte offsets swizzled by chunk_swizzle.cuh
(x ^ (((x >> bits) & 7) << 4); bits 0: plain). For each read step j this counts the most distinct
4-byte words any bank is asked for (the wavefronts of that step), and prints the mean over j for
the plain tile and for bits 7 to 10, marking the bits the library picks (small_batch_swizzle_bits in
src/plan/small_batch_banks.cpp), for every column count the planner swizzles beyond powers of two (a multiple of 8, rows of 64 bytes
or more, 128 for 16-byte elements, matrices of at most 16 KiB). A model of the reads only: no phases
of 8- and 16-byte accesses, no loads, no instruction counts.
"""


def swizzled(x, bits):
    return x ^ (((x >> bits) & 7) << 4) if bits else x


def wavefronts(e, cols, bits, lanes=32):
    per_vec = 16 // e
    total = 0
    for j in range(per_vec):
        banks = {}
        for k in range(lanes):
            a = swizzled((k * per_vec + j) * cols * e, bits)
            for w in range(a // 4, a // 4 + max(1, e // 4)):
                banks.setdefault(w % 32, set()).add(w)
        total += max(len(v) for v in banks.values())
    return total / per_vec


def library_bits(lane_stride):
    if lane_stride & (lane_stride - 1) == 0:
        return lane_stride.bit_length() - 1
    return max((lane_stride & -lane_stride).bit_length() - 1, 8)


def main():
    for e in (1, 2, 4, 8, 16):
        for cols in range(8, 129, 8):
            row = cols * e
            if row * cols > 16384 or row < (128 if e == 16 else 64) or row & (row - 1) == 0:
                continue
            counts = {b: wavefronts(e, cols, b) for b in (0, 7, 8, 9, 10)}
            picked = library_bits(16 * cols)
            best = min(v for b, v in counts.items() if b)
            flag = "" if counts[picked] <= best + 1e-9 else "  (not the fewest)"
            line = " ".join(f"{b or 'plain'}:{v:.1f}" for b, v in counts.items())
            print(f"E={e:2d} cols={cols:3d}  {line}  picked bits {picked}{flag}")


if __name__ == "__main__":
    main()
