#!/usr/bin/env python3
"""Counts shared-memory wavefronts of tiled_vec's two phases, on the CPU.

Replays the index arithmetic of src/gpu/kernels/tiled_vec.cuh (VecTile's store-phase lane mapping and
vec_tile_offset) for every tile shape of rows of 128 bytes or more, built or not, and prints the mean
wavefronts of a store-phase read (kV rows of one unit per lane) and of a load-phase write (one V-byte
vector per lane), each over the ideal for the access width. 1.00 is conflict-free; 2.00 a 2-way
conflict. Model: the whole warp's access is served in as many wavefronts as the busiest bank has
distinct 4-byte words, but never fewer than its bytes / 128. It predicts ncu's shared-load conflict
counts within 4% on four tiles: u8 64x256 and f32 64x64 (bench/results/h200_2026-11-24k_profile_16384x16384_u8.json,
_8192x8192_f32.json), f32 128x32 and f64 64x32 (h200_2026-12-01f_tiled_vec_unit_swizzle.txt, both layouts).

--layout chunk replays the committed layout (16-byte chunks XOR-ed by row / kV); --layout unit the
experiment of the seventy-fourth session (each unit's place XOR-ed by (row / kV) x kUnitThreads within
its 128 bytes, bench/results/h200_2026-12-01f_tiled_vec_unit_swizzle.txt), which ran no faster.

  python3 bench/smem_banks_tiled_vec.py --layout chunk
"""
import argparse

BANKS = 32
LANES = 32


def tile(e, v, row_bytes, tile_bytes):
    """VecTile's constants (tiled_vec.cuh, tiled_vec_threads in plan/tiled_vec_shape.hpp), or None."""
    threads = 512 if e in (4, 8) and tile_bytes == 16384 else (128 if e >= 2 and tile_bytes <= 4096 else 256)
    kv = v // e
    rows = tile_bytes // row_bytes
    unit = 4 if e < 4 else e
    row_threads = min(rows // kv, 32 if v == 16 and row_bytes >= 128 else 128 // v)
    if row_threads < 1:
        return None
    unit_threads = LANES // row_threads
    t = dict(e=e, v=v, row_bytes=row_bytes, tile_bytes=tile_bytes, threads=threads, kv=kv, rows=rows, unit=unit,
             row_threads=row_threads, unit_threads=unit_threads, row_groups=rows // (row_threads * kv),
             unit_groups=row_bytes // unit // unit_threads, swizzle=min(row_bytes // 16, 16) - 1)
    if t["row_groups"] < 1 or t["unit_groups"] < 1 or tile_bytes // v % threads:
        return None
    return t


def offset(t, layout, r, byte_col):
    """Byte offset of tile byte (r, byte_col) in shared memory."""
    if layout == "unit" and t["row_bytes"] >= 128 and t["unit"] < 16:
        key = (r // t["kv"] * t["unit_threads"]) & (128 // t["unit"] - 1)
        return r * t["row_bytes"] + (byte_col ^ key * t["unit"])
    chunk = (byte_col >> 4) ^ ((r // t["kv"]) & t["swizzle"])
    return r * t["row_bytes"] + (chunk << 4) + (byte_col & 15)


def wavefronts(words, access_bytes):
    per_bank = {}
    for w in words:
        per_bank.setdefault(w % BANKS, set()).add(w)
    return max(max(len(s) for s in per_bank.values()), LANES * access_bytes // 128)


def store_phase(t, layout):
    total = ideal = 0
    for s in range(t["row_groups"] * t["unit_groups"]):
        for i in range(t["kv"]):
            words = []
            for lane in range(LANES):
                tr, tu = lane % t["row_threads"], lane // t["row_threads"]
                rb = ((s % t["row_groups"]) * t["row_threads"] + tr) * t["kv"]
                cb = ((s // t["row_groups"]) * t["unit_threads"] + tu) * t["unit"]
                a = offset(t, layout, rb + i, cb)
                words += [a // 4 + k for k in range(t["unit"] // 4)]
            total += wavefronts(words, t["unit"])
            ideal += max(1, LANES * t["unit"] // 128)
    return total / ideal


def load_phase(t, layout):
    vecs_per_row = t["row_bytes"] // t["v"]
    total = ideal = 0
    for k in range(t["tile_bytes"] // t["v"] // t["threads"]):
        for first in range(0, t["threads"], LANES):
            words = []
            for lane in range(LANES):
                idx = k * t["threads"] + first + lane
                a = offset(t, layout, idx // vecs_per_row, idx % vecs_per_row * t["v"])
                a -= a % t["v"]  # the vector is stored whole at its aligned place (units permuted in "unit")
                words += [a // 4 + q for q in range(t["v"] // 4)]
            total += wavefronts(words, t["v"])
            ideal += LANES * t["v"] // 128
    return total / ideal


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layout", choices=["chunk", "unit"], default="chunk")
    args = ap.parse_args()
    print("%-28s %8s %8s" % ("tile (E, V, rows x cols)", "store", "load"))
    for e in (1, 2, 4, 8, 16):
        for v in (16, 8):
            for tile_bytes in (4096, 8192, 16384, 32768):
                for row_bytes in (128, 256, 512):
                    t = tile(e, v, row_bytes, tile_bytes) if v >= e else None
                    if t is None:
                        continue
                    name = "E%d V%d %dx%d (%d KiB)" % (e, v, t["rows"], row_bytes // e, tile_bytes // 1024)
                    print("%-28s %8.2f %8.2f" % (name, store_phase(t, args.layout), load_phase(t, args.layout)))


if __name__ == "__main__":
    main()
