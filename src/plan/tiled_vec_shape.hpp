// Shape constants of the tiled_vec kernel family, shared by the host-side planner and the kernels.
#pragma once

namespace xpose {

constexpr int kVecBytes = 16;         // bytes per global load and store where the strides allow it
// Shared-memory tile per block. (32 KiB tiles measured no better on an H100, their loads in flight
// spilling at the occupancy the register cap asked for; with registers for three blocks per SM they
// run faster on an H200 for 2-byte elements: kVecTileBytesLarge.)
constexpr int kVecTileBytes = 16384;
// Half-size tiles for matrices under kVecSmallMatrixBytes, so that even they give about four blocks
// per SM (measured on an H100 at 1024^2 and 2048^2: up to 1.2x faster there, no better above).
constexpr int kVecTileBytesSmall = 8192;
constexpr long long kVecSmallMatrixBytes = 512LL * kVecTileBytes;
// 8 KiB tiles also for 2- to 8-byte elements in matrices under kVecMidMatrixBytes. Measured on an
// H200 (us, 16 -> 8 KiB, one process, two rotated runs of 12 rounds each): f32 2048^2 11.78 / 11.80 ->
// 11.00 / 11.16, 2896^2 20.93 / 21.01 -> 20.14 / 20.40, 64x65536 12.05 / 12.17 -> 11.41 / 11.37; bf16
// 2048^2 7.29 / 7.45 -> 7.09 / 7.28, 4096x2048 11.51 / 11.65 -> 11.31 / 11.34, 65536x64 7.57 / 7.69 ->
// 7.19 / 7.30; f64 1024^2 7.19 / 7.21 -> 6.89 / 7.03; f64 1448^2 alike (11.15 / 11.46 -> 11.39 /
// 11.48); at 32 MiB no longer (f64 2048^2 19.81 / 19.71 against 19.71 / 19.82); for 1-byte elements
// only in the planner's ldmatrix tiles (one_byte_matrices_take_ldmatrix_tiles; their generic store
// phase had run u8 4096^2 at 11.60 -> 12.88).
constexpr long long kVecMidMatrixBytes = 2048LL * kVecTileBytes;
constexpr bool tiled_vec_halves_mid_size_tiles(int esize, long long matrix_bytes) {
  return esize >= 2 && esize <= 8 && matrix_bytes < kVecMidMatrixBytes;
}
// Quarter-size tiles for 1-byte elements where even 8 KiB tiles are fewer than the GPU's SMs, which
// spread such a small matrix over more SMs. Measured on an H200 (us, 8 -> 4 KiB, medians of four
// interleaved runs): u8 256^2 2.82 -> 2.62, 512^2 3.11 -> 2.99, 1024^2 3.77 -> 3.61
// (bench/results/tuning_h200_2026-11-23.txt).
constexpr int kVecTileBytesTiny = 4096;
// Small matrices of 2- to 16-byte elements with 16-byte accesses: 4 KiB tiles (8 KiB kept for
// 16-byte elements, but in batches that small_tiles_fill_batch gives 4 KiB tiles), and 2 KiB ones
// where 4 KiB tiles would be fewer than two per SM, these of 16 rows and moved by 128-thread
// blocks. Such transposes are latency bound, and small blocks that load one or two vectors a thread
// reach their stores sooner. Measured on an H200 (us, 8 KiB tiles of 256 threads -> these, one
// process, seven interleaved runs): f32 256^2 3.04 -> 2.96, 512^2 3.59 -> 3.49, 1024^2 5.14 ->
// 4.98; bf16 256^2 2.88 -> 2.73, 512^2 3.40 -> 3.31, 1024^2 4.27 -> 4.15; f64 256^2 3.29 -> 3.20,
// 512^2 4.25 -> 4.18; c128 256^2 3.67 -> 3.60 (512^2 at 4 KiB: 5.15 -> 5.19, so 8 KiB stays). With
// 256 threads such tiles measured no faster in an earlier session; 1-byte elements gain nothing
// from 128 threads and keep 256.
constexpr int kVecTileBytesMicro = 2048;
// 32 KiB tiles for large matrices of 2-byte elements with 16-byte accesses, the only ones they are built
// for (the planner's two_byte_matrices_take_large_tiles has the A/B): 256 threads a block, with registers
// for three blocks per SM (kVecLargeTileBlocksPerSm: 80, no spill). Measured on an H200
// (bench/results/h200_2026-12-01e_bf16_32k_tiles.txt): at 512 threads (48 registers) they gained less and
// lost 5.8% on bf16 64 x 1000^2; at 256 threads with registers for four blocks (64, spilling) an earlier
// session measured them 4-6% slower. Other element sizes gain nothing from them
// (h200_2026-12-01e_32k_tiles_all_sizes.txt: u8 squares 0.5-1.3% slower, f32 8192^2 0.8-1.1%, f64 level
// to 1.4% slower, c128 level in 128x16 tiles and 8-12% slower in 64x32 ones).
constexpr int kVecTileBytesLarge = 32768;
constexpr int kVecLargeTileBlocksPerSm = 3;

// Threads per block of a tile: 128 for the 2 and 4 KiB tiles of 2- to 16-byte elements; 512 for the
// 16 KiB tiles of 4- and 8-byte elements, two 16-byte loads a thread instead of four. Measured on an
// H200 (us, 256 -> 512 threads, one process, two rotated runs of 15 rounds): f32 64x1000^2 127.2 /
// 127.1 -> 126.0 / 125.0, 64x2048^2 509.2 / 509.4 -> 506.8 / 506.4, 16384^2 521.7 / 521.6 -> 520.7 /
// 520.7; f64 64x1000^2 247.4 / 246.8 -> 245.7 / 245.3, 16384^2 1072.8 / 1073.2 -> 1070.5 / 1071.0,
// 8192^2 alike (260.2 / 260.4 -> 260.4 / 260.4), f32 / f64 1048576x32 alike; not for 1-, 2- and
// 16-byte elements (bf16 8192^2 68.5 -> 74.0, u8 8192^2 36.6 -> 45.4, c128 32x1048576 261.8 -> 265.3).
// Else 256.
constexpr int tiled_vec_threads(int esize, int tile_bytes) {
  if (esize >= 2 && tile_bytes <= kVecTileBytesTiny) return 128;
  return (esize == 4 || esize == 8) && tile_bytes == kVecTileBytes ? 512 : 256;
}

// Which tile sizes tiled_vec is built with, per element size and access width: 16 and 8 KiB always;
// 4 KiB for 1-byte elements, 4 and 2 KiB for wider ones with 16-byte accesses, and 32 KiB for 2-byte
// ones with 16-byte accesses.
constexpr bool tiled_vec_tile_built(int esize, int tile_bytes, int vector_bytes) {
  if (tile_bytes == kVecTileBytes || tile_bytes == kVecTileBytesSmall) return true;
  if (tile_bytes == kVecTileBytesLarge) return esize == 2 && vector_bytes == kVecBytes;
  if (tile_bytes == kVecTileBytesTiny) return esize == 1 || vector_bytes == kVecBytes;
  return tile_bytes == kVecTileBytesMicro && esize >= 2 && vector_bytes == kVecBytes;
}

// The narrowest access: 8 bytes where strides are on the 8-byte grid only. (4-byte accesses measured
// far slower than tiled_unaligned's realigned 16-byte chunks on an H200: bf16 8192^2 with ld 8194
// 0.41 of memcpy against 0.67, f32 8191x8193 0.55 against 0.82.)
constexpr int kVecMinBytes = 8;
// Register cap: at least this many threads resident per SM (64 registers a thread), but for the 32 KiB
// tiles (kVecLargeTileBlocksPerSm).
constexpr int kVecMinThreadsPerSm = 1024;

// Widest tile row (bytes) an element size allows: one 16-byte output vector spans 16 / esize input
// rows, so the tile (tile_bytes / row bytes rows) must have at least that many; 512 at most.
constexpr int tiled_vec_max_row_bytes(int esize, int tile_bytes = kVecTileBytes) {
  return tile_bytes * esize / 16 < 512 ? tile_bytes * esize / 16 : 512;
}
constexpr int kVecMinRowBytes = 64;
// 32-byte tile rows for 1-byte elements, in 8 and 16 KiB tiles only: for matrices of at most 32
// columns, where 64-byte rows would leave half of every tile empty (the planner's rule:
// gpu_planner.cpp). 4 KiB tiles of 32-byte rows ran slower even than half-empty 16 KiB tiles of
// 64-byte rows on an H200 (u8 1048576x32: 26.5 against 22.7 us), so they are not built.
constexpr int kVecNarrowRowBytes = 32;
constexpr int tiled_vec_min_row_bytes(int esize, int tile_bytes) {
  return esize == 1 && tile_bytes >= kVecTileBytesSmall ? kVecNarrowRowBytes : kVecMinRowBytes;
}

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
// second tile column half empty). Nor wide matrices of padded input rows (ld_in > cols, 4096 columns
// or more), which run faster on the 16 KiB tiles. Measured on an H200 (us, 8 KiB of 256-byte rows ->
// 16 KiB of 512-byte rows, one process, two or three rounds in alternated order;
// bench/results/h200_2026-11-30k_tile_knobs.txt, _row_bytes_general.txt): 8192^2 with ld 8200 532.8
// -> 530.3, ld_in 8200 alone 531.8 -> 526.6, ld 8196 550.6 -> 543.5; 4096^2 with ld 4100 136.0 ->
// 135.6 and 8192x4096 with ld_in 4104 and ld_out 8200 266.7 -> 265.9, level within the spread. Rows
// padded by 4 or 8 elements; narrower matrices and other paddings were not measured.
constexpr long long kWideElementPaddedMinCols = 4096;
constexpr bool tiled_vec_halves_wide_element_tiles(int esize, long long rows, long long cols, long long ld_in) {
  const bool wide_padded = ld_in > cols && cols >= kWideElementPaddedMinCols;
  return esize == 16 && rows > 64 && (cols % 16 == 0 || cols >= 256) && !wide_padded;
}
constexpr int kVecWideElementRowBytes = 256;

// Half-size tiles, 16 rows of 512 bytes, for large matrices of 10 to 16 rows that take tiled_vec (the
// planner's few_rows_take_tiles), where 16 KiB tiles of 32 rows would be half empty, and for small
// ones of 1-byte elements instead of their 4 KiB tiles (small ones of wider elements keep their 2 or
// 4 KiB tiles).
constexpr bool tiled_vec_halves_short_tiles(long long rows) { return rows <= 16; }

// Tile-column bands (BandedTileGrid, geometry.cuh): built for the 8, 16 and 32 KiB tiles of 256- and
// 512-byte rows with 16-byte accesses, the tiles large matrices get; 2 to kVecMaxBands bands.
constexpr int kVecMaxBands = 8;
constexpr bool tiled_vec_bands_built(int tile_bytes, int row_bytes, int vector_bytes) {
  return vector_bytes == kVecBytes && tile_bytes >= kVecTileBytesSmall && row_bytes >= 256;
}

// tiled_vec's shifted-output tiles (tiled_vec_shifted_output.cuh): 1- and 2-byte elements in 16 KiB
// tiles of 16-byte accesses, 64 or 128 rows (on 32, skinny's register kernel measured faster; 4-byte
// elements measured slower than their plans). The planner and the launcher both ask this.
constexpr bool tiled_vec_shifted_output_built(int esize, int vector_bytes, int tile_bytes, long long tile_rows) {
  return esize <= 2 && vector_bytes == kVecBytes && tile_bytes == kVecTileBytes &&
         (tile_rows == 64 || tile_rows == 128);
}

// tiled_vec's ldmatrix store phase (tiled_vec_ldmatrix.cuh, NVIDIA only): 8 KiB tiles of 1- and
// 2-byte elements in 16-byte accesses, whose rows split into its tasks of 64 (1-byte) or 32 (2-byte)
// rows by 16-byte chunk columns, as many for every group of 32 threads; tile rows of 128 bytes or
// more, where its swizzle puts the 8 rows each ldmatrix matrix reads in 8 bank groups (shorter rows
// were not measured and keep the generic phase).
constexpr int tiled_vec_ldmatrix_task_rows(int esize) { return esize == 2 ? 32 : 64; }
constexpr bool tiled_vec_ldmatrix_store(int esize, int vector_bytes, int tile_bytes, int row_bytes, int threads) {
  if (esize > 2 || vector_bytes != kVecBytes || tile_bytes != kVecTileBytesSmall || row_bytes < 128) return false;
  const int rows = tile_bytes / row_bytes, task_rows = tiled_vec_ldmatrix_task_rows(esize);
  return rows % task_rows == 0 && (rows / task_rows) * (row_bytes / 16) % (threads / 32) == 0;
}

// Whether a lead of `lead_cols` columns adds a tile column to a matrix of `cols` columns in tiles
// `tile_cols` wide. A slice x[:, k:] of a matrix whose tiles span its rows keeps its tile count
// (k < tile_cols); a pointer moved within a padded row adds one. A banded led grid walks an added
// column apart and bands the others (LedBandedTileGrid).
constexpr bool lead_adds_tile_column(long long cols, int lead_cols, int tile_cols) {
  return lead_cols > 0 && (cols + lead_cols + tile_cols - 1) / tile_cols > (cols + tile_cols - 1) / tile_cols;
}

}  // namespace xpose
