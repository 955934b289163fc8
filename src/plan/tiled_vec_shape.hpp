// Shape constants of the tiled_vec kernel family, shared by the host-side planner and the kernels.
#pragma once

namespace xpose {

constexpr int kVecThreads = 256;      // threads per block
constexpr int kVecSmemBytes = 16384;  // shared-memory tile per block
constexpr int kVecBytes = 16;         // bytes per global load and store

// Widest tile row (bytes) an element size allows: the store phase spans 8 * (16 / esize) input rows,
// so the tile (kVecSmemBytes / row bytes rows) must have at least that many.
constexpr int tiled_vec_max_row_bytes(int esize) { return esize == 1 ? 128 : esize == 2 ? 256 : 512; }
constexpr int kVecMinRowBytes = 64;

}  // namespace xpose
