#!/usr/bin/env python3
"""Counts shared-memory wavefronts per warp-wide access of tiled_unaligned, on the CPU.

Replays the kernel's index arithmetic (src/gpu/kernels/tiled_unaligned.cuh) for interior tiles and
reports, per row padding, the mean wavefronts of a store-phase read (one element per lane) and of a
load-phase write, over several (ld_in, ld_out) pairs, per 32-bit word each lane moves. One
wavefront is conflict-free; n means an n-way bank conflict. Used to pick the row padding
(kPitchWords) and to weigh whole 8- and 16-byte shared accesses (--vector) against words. 1- and
2-byte elements now cross shared memory as words (tiled_unaligned_packed.cuh), which this does not
model: --esize 1 and 2 replay the element gather those phases replaced.

  python3 bench/smem_banks.py --esize 4
"""
import argparse
import random

BANKS = 32
# store_run_lanes(E): 16-byte chunks of one output row per run (the 1- and 2-byte entries only serve
# the replay of the old element gather, see the docstring)
RUN_LANES = {1: 8, 2: 8, 4: 4, 8: 8, 16: 8}
THREADS = 256
TILE_BYTES = {1: (128, 128), 2: (256, 128), 4: (256, 256), 8: (512, 256), 16: (512, 512)}  # (in, out) per row


def wavefronts(words, width=1):
    """Wavefronts for one warp-wide access of `width` words per lane (words[i]: lane i's first word).

    The warp is served in phases of 32 / width lanes (128 bytes each); a phase takes as many
    wavefronts as the busiest bank has distinct words (the same word twice is a broadcast)."""
    lanes = 32 // width
    total = 0
    for p in range(0, len(words), lanes):
        per_bank = {}
        for w in words[p:p + lanes]:
            for u in range(width):
                per_bank.setdefault((w + u) % BANKS, set()).add(w + u)
        total += max(len(s) for s in per_bank.values())
    return total


def count(e, ld_in, ld_out, pad, realign, vector):
    in_bytes, out_bytes = TILE_BYTES[e]
    rows, cols = out_bytes // e, in_bytes // e
    halo = 32 // e - 1 if e < 32 else 0
    chunks = in_bytes // 16 + 1
    pitch = 4 * chunks + (4 if realign else 0) + pad
    sectors = out_bytes // 32 + 1
    reads = writes = n_reads = n_writes = 0
    for tr in (1, 2):
        for tc in (1, 2):
            r0, c0 = tr * rows, tc * cols
            shift0, step = ((r0 * ld_in + c0) * e) & 15, (ld_in * e) & 15

            def shift(r):
                return (shift0 + r * step) & 15

            def row_word(r):  # word where the row's raw chunk 0 is stored
                return r * pitch + (4 - (shift(r) >> 2) if realign else 0)

            # Load phase: each lane stores its 16-byte chunk as 4 words (rotated by k / 8), as 2
            # 8-byte halves (8-byte elements, rotated by k / 8) or whole (16-byte elements).
            width = 4 // (16 // e) if vector and e >= 8 else 1
            stores = 4 // width
            items = (rows + halo) * chunks
            for base in range(0, items, THREADS):
                for warp in range(THREADS // 32):
                    for i in range(stores):
                        words = []
                        for lane in range(32):
                            idx = base + warp * 32 + lane
                            if idx < items:
                                r, k = divmod(idx, chunks)
                                words.append(row_word(r) + 4 * k + width * ((i + k // 8) % stores))
                        if words:
                            writes += wavefronts(words, width) / width
                            n_writes += 1
            dst = (c0 * ld_out + r0) * e
            # Store phase: lane (c = lane // RUN, q = lane % RUN) reads chunk q of a run of RUN
            # 16-byte chunks of output row c (32 / RUN rows per group of 32 lanes).
            RUN = RUN_LANES[e]
            rows_per_group = 32 // RUN
            groups = cols // rows_per_group
            runs = (2 * (sectors - 1) + RUN - 1) // RUN
            for item in range(groups * runs):
                for m in range(16 // e):
                    words = []
                    for lane in range(32):
                        c = (item % groups) * rows_per_group + lane // RUN
                        chunk = (item // groups) * RUN + lane % RUN
                        lead = (dst + c * ld_out * e) & 31
                        start = 0 if lead == 0 else 32 - lead
                        if start + 32 * (chunk // 2) >= out_bytes:
                            continue
                        r = (start + 16 * chunk) // e + m
                        words.append((row_word(r) * 4 + shift(r) + c * e) // 4)
                    if words:  # 4- to 16-byte elements read word by word unless `vector`
                        width = e // 4 if vector and e >= 8 else 1
                        reads += wavefronts(words, width) / width
                        n_reads += 1
    return reads / n_reads, writes / n_writes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--esize", type=int, choices=sorted(TILE_BYTES), required=True)
    ap.add_argument("--max-pad", type=int, default=8)
    ap.add_argument("--vector", action="store_true",
                    help="8- and 16-byte elements read and written as whole 8/16-byte shared accesses")
    args = ap.parse_args()
    rng = random.Random(1)
    pairs = [(8193, 8191), (8200, 8200), (1000, 1000), (8191, 8193), (8196, 8196), (1001, 1003), (4097, 4099)]
    pairs += [(rng.randint(1000, 9000), rng.randint(1000, 9000)) for _ in range(5)]
    print(f"{args.esize}-byte elements, {len(pairs)} stride pairs; wavefronts per 32-bit word of a warp access "
          "(1 = no conflict)")
    print("layout            read mean  read max  write mean")
    for realign in (False, True):
        for pad in range(args.max_pad + 1):
            res = [count(args.esize, li, lo, pad, realign, args.vector) for li, lo in pairs]
            rd = [a for a, _ in res]
            wr = [b for _, b in res]
            name = f"{'realigned' if realign else 'raw'} +{pad}"
            print(f"{name:<16} {sum(rd) / len(rd):10.2f} {max(rd):9.2f} {sum(wr) / len(wr):11.2f}")


if __name__ == "__main__":
    main()
