#!/usr/bin/env python3
"""Counts shared-memory wavefronts per warp-wide load of the in-place realigned kernel's store phase.

Replays the index arithmetic of store_realigned (src/gpu/kernels/in_place_realigned.cuh) on the CPU:
each lane gathers the 16 / E elements of one output chunk from as many tile rows, one column, one
shared load per element. A warp takes runs of R chunks in each of 32 / R output rows; rows are
padded by P words. Prints, per element size, tile edge, run length and padding, the worst mean
wavefronts per load over several leading dimensions and base shifts (1.0: conflict-free). Used to
pick realigned_run_lanes and realigned_pad_words.

  python3 bench/in_place_banks.py
"""
import argparse

BANKS = 32


def warps(edge, chunks, run):
    """The (output row, chunk) pairs of each warp-wide store, 32 lanes each."""
    rows_per_warp = 32 // run
    for q0 in range(0, chunks, run):
        for c0 in range(0, edge, rows_per_warp):
            yield [(c0 + lane // run, q0 + lane % run) for lane in range(32)]


def mean_wavefronts(esize, edge, run, pad, ld, shift):
    chunks = edge * esize // 16 + 1
    pitch = 4 * chunks + 4 + pad  # words per shared row: margin, chunks, padding
    total = loads = 0
    for warp in warps(edge, chunks, run):
        for m in range(16 // esize):
            banks = {}
            for c, q in warp:
                if c >= edge or q >= chunks:
                    continue
                lead = (shift + c * ld * esize) % 16  # output row c's offset into its first chunk
                byte = 16 * q - lead + m * esize
                if byte < 0 or byte >= edge * esize:
                    continue
                word = (byte // esize) * pitch + 4 + c * esize // 4
                banks.setdefault(word % BANKS, set()).add(word)
            if banks:
                total += max(len(words) for words in banks.values())
                loads += 1
    return total / loads


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lds", default="1001,4095,8191,8193", help="leading dimensions in elements")
    args = parser.parse_args()
    lds = [int(x) for x in args.lds.split(",")]
    print("esize edge run  worst mean wavefronts per load for padding 0..5")
    for esize, edge in [(1, 128), (1, 64), (2, 64), (4, 32), (4, 64)]:
        for run in (1, 2, 4, 8):
            worst = [max(mean_wavefronts(esize, edge, run, pad, ld, esize * s) for ld in lds for s in (1, 3))
                     for pad in range(6)]
            print(f"{esize:5d} {edge:4d} {run:3d}  " + " ".join(f"{w:5.2f}" for w in worst))


if __name__ == "__main__":
    main()
