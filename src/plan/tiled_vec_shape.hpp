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
// Quarter-size tiles for 1-byte elements where even 8 KiB tiles are fewer than the GPU's SMs, which
// spread such a small matrix over more SMs. Measured on an H200 (us, 8 -> 4 KiB, medians of four
// interleaved runs): u8 256^2 2.82 -> 2.62, 512^2 3.11 -> 2.99, 1024^2 3.77 -> 3.61; not for wider
// elements (bf16 512^2 3.37 -> 3.47, f64 256^2 3.14 -> 3.29, c128 512^2 5.09 -> 5.30), and 2 KiB
// tiles no better (bench/results/tuning_h200_2026-11-23.txt).
constexpr int kVecTileBytesTiny = 4096;
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

// Half-size tiles also for large matrices whose tile rows are the narrowest (64 bytes: at most 32
// 2-byte, 16 4-byte or 8 8-byte columns), which then have 128 rows instead of 256. Measured on an
// H200 (us, 16 -> 8 KiB): bf16 1048576x32 37.7 -> 36.1, 262144x32 11.7 -> 11.0, f32 1048576x12 29.1
// -> 28.1, 1048576x16 38.0 -> 37.1, f64 1048576x8 36.9 -> 36.5; not for 1-byte elements (u8
// 1048576x32 23.3 -> 29.1, 1048576x64 37.2 -> 41.1) nor 16-byte ones (c128 1048576x3 28.2 -> 30.1).
constexpr bool tiled_vec_halves_narrow_tiles(int esize, int row_bytes) {
  return esize >= 2 && esize <= 8 && row_bytes == kVecMinRowBytes;
}

// Half-size tiles of 256-byte rows (16 columns) for large matrices of 16-byte elements, where 16-column
// tiles leave little of the last tile column empty, and not for short ones (64 rows or fewer keep
// wide tiles). Measured on an H200 (us, 16 KiB of 512-byte rows -> 8 KiB of 256-byte rows, c128):
// 1048576x32 275.1 -> 266.9, 524288x32 138.6 -> 134.8, 1048576x64 545.9 -> 533.4, 262144x128 280.8
// -> 268.6, 2097152x16 271.8 -> 269.2, 8192^2 550.3 -> 546.2, 4096^2 132.3 -> 131.5, 64 x 1000^2
// 492.1 -> 486.4; in a second run 16384^2 2103.0 -> 2085.1, 64 x 2048^2 2043.5 -> 2027.9, 2048^2
// 36.05 -> 35.64, ld 8200 529.9 -> 531.1 (the one loss, 0.2%); not 1048576x24 (203.3 -> 217.9, its
// second tile column half empty).
constexpr bool tiled_vec_halves_wide_element_tiles(int esize, long long rows, long long cols) {
  return esize == 16 && rows > 64 && (cols % 16 == 0 || cols >= 256);
}
constexpr int kVecWideElementRowBytes = 256;

}  // namespace xpose
