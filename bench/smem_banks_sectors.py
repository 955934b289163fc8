#!/usr/bin/env python3
"""Replays the shared-memory index arithmetic of tiled_sectors (src/gpu/kernels/tiled_sectors.cuh) and
counts wavefronts per warp-wide 4-byte access (1 = no bank conflict), for a plain row-major layout and
for sector_word's XOR layouts, in both phases:

- load: 32 consecutive (row, chunk) items store class word k of their chunk (four stores per item);
- store: lanes (tr, tu), 8 down the rows by 4 across the units, read word column u at rows
  16 / E apart from the unit's first owned row, for every mix of first rows the output strides allow.

Usage: python3 bench/smem_banks_sectors.py
"""

ROW_THREADS = 8


def wavefronts(addresses):
    banks = {}
    for a in addresses:
        banks.setdefault(a % 32, set()).add(a)
    return max(len(s) for s in banks.values())


def replay(esize, row_bytes, rows, word):
    words = row_bytes // 4
    chunks = row_bytes // 16
    kv = 16 // esize
    halo = 32 // esize - 1
    items = [(r, q) for r in range(rows + halo) for q in range(chunks)]
    load = []
    for first in range(0, len(items), 32):
        lanes = items[first:first + 32]
        for k in range(4):
            load.append(wavefronts([word(r, k * chunks + q) for r, q in lanes]))
    unit_threads = 32 // ROW_THREADS
    store = []
    # The first owned row of each class (column mod 4), from the output row's lead within a sector.
    for leads in [(0, 8, 16, 24), (8, 16, 24, 0), (0, 16, 0, 16), (16, 0, 16, 0), (24, 16, 8, 0)]:
        first_row = [((32 - lead) % 32) // esize for lead in leads]
        for unit_group in range(words // unit_threads):
            for row_group in range(rows // (kv * ROW_THREADS)):
                for m in range(kv):
                    addresses = []
                    for lane in range(32):
                        tr, tu = lane % ROW_THREADS, lane // ROW_THREADS
                        u = unit_group * unit_threads + tu
                        r = first_row[u // chunks] + (row_group * ROW_THREADS + tr) * kv + m
                        addresses.append(word(r, u))
                    store.append(wavefronts(addresses))
    return sum(load) / len(load), sum(store) / len(store)


def u8_word(r, u):  # sector_word for 1-byte elements, 64-byte rows
    return (r ^ ((r >> 4) & 1)) * 16 + (u ^ (4 * (((r >> 1) ^ (r >> 5)) & 3)))


def u8_wide_word(r, u):  # sector_word for 1-byte elements, 128-byte rows
    return r * 32 + (u ^ (4 * (((r >> 4) ^ (2 * (r & 3))) & 7)))


def bf16_word(r, u):  # sector_word for 2-byte elements, 128-byte rows
    return r * 32 + (u ^ (8 * ((r ^ (r >> 3)) & 3) + 4 * ((r >> 5) & 1)))


if __name__ == "__main__":
    for name, esize, row_bytes, rows, word in [
        ("u8, plain rows", 1, 64, 256, lambda r, u: r * 16 + u),
        ("u8, sector_word", 1, 64, 256, u8_word),
        ("u8 wide, plain rows", 1, 128, 256, lambda r, u: r * 32 + u),
        ("u8 wide, sector_word", 1, 128, 256, u8_wide_word),
        ("bf16, plain rows", 2, 128, 128, lambda r, u: r * 32 + u),
        ("bf16, sector_word", 2, 128, 128, bf16_word),
    ]:
        load, store = replay(esize, row_bytes, rows, word)
        print(f"{name:20s} wavefronts per access: load phase {load:.2f}, store phase {store:.2f}")
