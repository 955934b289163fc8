// Shape constants of the tiled_vec kernel family, shared by the host-side planner and the kernels.
#pragma once

namespace xpose {

constexpr int kVecThreads = 256;      // threads per block
constexpr int kVecSmemBytes = 16384;  // shared-memory tile per block
constexpr int kVecBytes = 16;         // bytes per global load and store
// Register cap: at least this many blocks resident per SM.
constexpr int kVecMinBlocksPerSm = 4;
// Persistent grid: blocks per SM, each looping over tiles with the next tile's loads in flight
// (0: one block per tile). One block per tile measured faster on an H200 for 1-, 2- and 8-byte
// elements (bench/results/), so it is the default; the loop stays for GPUs where it pays.
constexpr int kVecBlocksPerSm = 0;

// Widest tile row (bytes) an element size allows: the store phase spans 8 * (16 / esize) input rows,
// so the tile (kVecSmemBytes / row bytes rows) must have at least that many.
constexpr int tiled_vec_max_row_bytes(int esize) { return esize == 1 ? 128 : esize == 2 ? 256 : 512; }
constexpr int kVecMinRowBytes = 64;

}  // namespace xpose
