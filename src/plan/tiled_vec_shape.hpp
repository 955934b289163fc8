// Shape constants of the tiled_vec kernel family, shared by the host-side planner and the kernels.
#pragma once

namespace xpose {

constexpr int kVecThreads = 256;      // threads per block
// Shared-memory tile per block. (32 KiB tiles measured no better on an H100: their loads in flight
// need registers enough to spill at the occupancy they allow.)
constexpr int kVecTileBytes = 16384;
// Half-size tiles for matrices under kVecSmallMatrixBytes, so that even they give about four blocks
// per SM (measured on an H100 at 1024^2 and 2048^2: up to 1.2x faster there, no better above).
constexpr int kVecTileBytesSmall = 8192;
constexpr long long kVecSmallMatrixBytes = 512LL * kVecTileBytes;
constexpr int kVecBytes = 16;         // bytes per global load and store where the strides allow it
// The narrowest access: 8 bytes where strides are on the 8-byte grid only. (4-byte accesses measured
// far slower than tiled_unaligned's realigned 16-byte chunks on an H200: bf16 8192^2 with ld 8194
// 0.41 of memcpy against 0.67, f32 8191x8193 0.55 against 0.82.)
constexpr int kVecMinBytes = 8;
// Register cap: at least this many blocks resident per SM.
constexpr int kVecMinBlocksPerSm = 4;

// Widest tile row (bytes) an element size allows: one 16-byte output vector spans 16 / esize input
// rows, so the tile (tile_bytes / row bytes rows) must have at least that many; 512 at most.
constexpr int tiled_vec_max_row_bytes(int esize, int tile_bytes = kVecTileBytes) {
  return tile_bytes * esize / 16 < 512 ? tile_bytes * esize / 16 : 512;
}
constexpr int kVecMinRowBytes = 64;

}  // namespace xpose
