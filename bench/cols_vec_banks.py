#!/usr/bin/env python3
"""Counts shared-memory wavefronts of skinny's few-columns kernel's store phase, on the CPU.

Replays the index arithmetic of skinny_cols_vec (src/gpu/kernels/skinny_cols_vec.cuh) for one interior
slab of a packed matrix of few columns: each lane of a warp builds a 16-byte output chunk from 16 / E
elements of the slab's run in shared memory, one element per read. Its reads lie at byte
`at0 + c * E + row * pitch`, where at0 is the run's offset from the 16-byte grid when the run is stored as
it lies and 0 when it is realigned to its first byte. The script reports the mean wavefronts per
warp-wide read (1: conflict-free; n: an n-way bank conflict) with the run on the grid and off it by 1 to
15 bytes, the question behind launch/skinny.cu's cols_vec_realigns: realigning pays where the shifted
layout conflicts more. Output row strides (ld_out) change which input row each lane starts on; the
default is the one of a 64 MiB matrix, as in the offset scan.

  python3 bench/cols_vec_banks.py --esize 1 --cols 24,40,48,100
"""
import argparse
import collections

BANKS = 32


def wavefronts(words):
    """Wavefronts of one warp-wide read: the busiest bank's distinct words (one word twice is a broadcast)."""
    per_bank = collections.defaultdict(set)
    for w in words:
        per_bank[w % BANKS].add(w)
    return max((len(s) for s in per_bank.values()), default=0)


def mean_wavefronts(esize, cols, ld_out, at0, span, run_lanes=2, first_row=256):
    """Mean wavefronts per read of the store phase's whole chunks in the slab starting at `first_row`."""
    pitch = cols * esize
    own_bytes, avail_bytes = span * esize, (span + 32 // esize) * esize
    items = run_lanes * (((own_bytes + 31) // 32 + run_lanes // 2) // (run_lanes // 2)) * cols
    total = reads = 0
    for w0 in range(0, items, 32):
        lanes = []
        for item in range(w0, min(w0 + 32, items)):
            group, c = divmod(item // run_lanes, cols)
            k = run_lanes * group + item % run_lanes
            lead = (c * ld_out + first_row) * esize % 32  # the output row's offset in its sector
            start = 0 if lead == 0 else 32 - lead
            if start + 32 * (k // 2) >= own_bytes:
                continue
            first = start + 16 * k
            if first >= 0 and first + 16 <= avail_bytes:
                lanes.append((c, first))
        for m in range(16 // esize):
            words = [(at0 + c * esize + (first // esize + m) * pitch) // 4 for c, first in lanes]
            if words:
                total += wavefronts(words)
                reads += 1
    return total / reads if reads else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--esize", type=int, default=1, choices=(1, 2, 4, 8))
    p.add_argument("--cols", default="24,33,40,48,64,100", help="comma list of column counts")
    p.add_argument("--span", type=int, default=256, help="input rows per slab (the plan's tile rows)")
    p.add_argument("--run-lanes", type=int, default=2, choices=(2, 8))
    p.add_argument("--bytes", type=int, default=64 << 20, help="matrix bytes, for ld_out = rows")
    args = p.parse_args()
    print("E=%d, %d-row slabs, runs of %d lanes: mean wavefronts per read, run on the grid (or realigned) / "
          "run off it by 1-15 bytes, mean" % (args.esize, args.span, args.run_lanes))
    for cols in (int(x) for x in args.cols.split(",")):
        ld_out = args.bytes // (cols * args.esize)
        on = mean_wavefronts(args.esize, cols, ld_out, 0, args.span, args.run_lanes)
        offs = [mean_wavefronts(args.esize, cols, ld_out, s, args.span, args.run_lanes)
                for s in range(args.esize, 16, args.esize)]
        print("  %4d columns: %.2f / %.2f" % (cols, on, sum(offs) / len(offs)))


if __name__ == "__main__":
    main()
