// Host-side GPU planning: which kernel the automatic plan takes (gather, tiled_vec, small_batch, skinny,
// tiled_sectors, tiled_unaligned or the element-wise tile), and tiled_vec's tile shape and bands.
#include "plan/gpu_planner.hpp"

#include <algorithm>
#include <cstdint>

#include "core/env.hpp"
#include "plan/small_batch_banks.hpp"
#include "plan/tiled_vec_shape.hpp"

namespace xpose::plan {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Whether the last of the tiles of `tile` elements that cover `extent` is cut and holds at most
// 1 / `parts` of a tile.
bool last_tile_at_most(std::int64_t extent, std::int64_t tile, std::int64_t parts) {
  return extent % tile != 0 && extent % tile <= tile / parts;
}

// Tuning knobs for measuring alternatives on a new GPU without rebuilding (unset in normal use):
// XPOSE_TILED_VEC_ROW_BYTES forces the tile row width, XPOSE_TILED_VEC_TILE_BYTES the tile size.
using core::env_int;

bool large_matrix(const TransposeDesc& d) { return matrix_bytes(d) >= kVecSmallMatrixBytes; }

// Whether every input (output) row and matrix starts a multiple of `grid` bytes from the base.
bool input_rows_on(const TransposeDesc& d, std::int64_t grid) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.ld_in * e % grid == 0 && (d.batch == 1 || d.batch_stride_in * e % grid == 0);
}
bool output_rows_on(const TransposeDesc& d, std::int64_t grid) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.ld_out * e % grid == 0 && (d.batch == 1 || d.batch_stride_out * e % grid == 0);
}

// Whether a matrix fills at least three quarters of the tiles that cover it (over both cut edges).
bool tiles_three_quarters_full(const TransposeDesc& d, std::int64_t tile_rows, std::int64_t tile_cols) {
  return 4 * d.rows * d.cols >= 3 * tiles_cover(d.rows, tile_rows) * tiles_cover(d.cols, tile_cols);
}

// Large matrices of 16-byte elements: half-size tiles of 256-byte rows (tiled_vec_shape.hpp).
bool halves_wide_element_tiles(const TransposeDesc& d) {
  return large_matrix(d) &&
         tiled_vec_halves_wide_element_tiles(static_cast<int>(dtype_size(d.dtype)), d.rows, d.cols, d.ld_in);
}

// Large matrices of at most 32 one-byte columns, at least a tile (512 rows) tall: 32-byte tile rows,
// so that 8 and 16 KiB tiles are full. Measured on an H200 (us, 64- -> 32-byte rows in 16 KiB tiles,
// one process, 15 rotated rounds): u8 1048576x32 22.73 -> 20.38 (memcpy 18.94), 2097152x32 41.69 ->
// 37.74, 262144x32 8.43 -> 7.71; u8 1048576x48 (two 32-byte tiles a row) 29.49 -> 39.65, so only up
// to 32 columns.
bool narrow_byte_rows(const TransposeDesc& d, int tile_bytes) {
  return dtype_size(d.dtype) == 1 && d.cols <= kVecNarrowRowBytes && d.rows >= kVecTileBytes / kVecNarrowRowBytes &&
         tile_bytes >= kVecTileBytesSmall && large_matrix(d);
}

// Row width of the tile in bytes. Measured at 8192^2 (H200 and H100, bench/results/): longer
// contiguous runs per row help both sides, and the write side most; the fastest widths per element
// size: 1 and 2 B: 256 (H200, since tiles are decoded by FastDiv: 8192^2 and 16384^2 u8 0.92 /
// 0.92 -> 0.94 / 0.94 of memcpy against 128, bf16 0.93 / 0.93 -> 0.95 / 0.96; 128 was fastest
// before), 4 B: 256, 8 and 16 B: 512. Narrow matrices get no wider tiles than their rows, short
// ones wide tiles, so a tile lies mostly inside the matrix.
// Output rows that start mid-sector: narrower tile rows, i.e. more output rows per tile - 64 bytes
// for 1-byte elements (H200, u8 ld 8200: 0.78 of memcpy against 0.65 at 128), 128 for 2-byte ones
// (H200, bf16 ld 8200 / 64 x 1000^2 / ld 8196: 0.85 / 0.90 / 0.84 against 0.83 / 0.88 / 0.82 at 64;
// an H100 had measured 64 faster). With 8-byte accesses (strides on the 8-byte grid only, the cases
// tiled_sectors leaves to tiled_vec) large batches take twice those. Measured on an H200 (of memcpy,
// old -> doubled, one process each, two rounds; bench/results/h200_2026-11-25u_tiled_vec_8byte_grid_row_bytes.txt):
// u8 64 x 1000^2 0.82 -> 0.86 (0.62 at 256 bytes), 67 x 1000^2 0.89 -> 0.93, bf16 3355 x 100^2 0.76 ->
// 0.80. Single matrices split: bf16 100x335544 0.85 -> 0.89 and u8 1992x32768 0.83 -> 0.85 gained,
// but bf16 500x67108 0.91 -> 0.74, 1000x32000 with ld_out 1004 0.78 -> 0.66 and u8 1000x67000 0.87
// -> 0.85 lost, so they keep the narrower rows. With 16-byte accesses the narrower rows stay ahead
// (bf16 64 x 1000^2 0.94 at 128 bytes, 0.80 at 256).
int mid_sector_row_bytes(const TransposeDesc& d, int vector_bytes) {
  const int narrow = dtype_size(d.dtype) == 1 ? 64 : 128;
  return vector_bytes == kVecMinBytes && d.batch > 1 && large_matrix(d) ? 2 * narrow : narrow;
}

// Large matrices of 4-byte elements whose input rows start 32, 64 or 96 bytes into a 128-byte line
// (ld_in on the 8-element grid, off the 32-element one): 16 KiB tiles of 512-byte rows rather than
// 256, so that fewer of each row's pieces touch a line more than their bytes need. Measured on an
// H200 (us, 256- -> 512-byte rows, one process, two or three rounds in alternated order;
// bench/results/h200_2026-11-30k_tile_knobs.txt, _row_bytes_general.txt, _f32_rows_under_1024.txt):
// f32 8192^2 with ld 8200 139.0 -> 137.5, ld_in 8200 alone 138.1 -> 137.3, ld 8208 138.0 -> 136.4,
// 16384x4096 with ld_in 4104 and ld_out 16392 140.4 -> 138.2, 4096x16384 with ld_in 16392 and ld_out
// 4104 137.0 -> 136.0, 8 x 4096^2 with ld 4104 267.1 -> 265.7, 1000x16384 with ld_in 16392 36.2 ->
// 36.0, 16 x 1000x2000 64.8 -> 64.6. Not on 1000 columns (64 x 1000^2 125.3 -> 126.2, 16384x1000
// level), nor where the input rows lie on the line grid (ld_out 8200 alone 133.3 -> 133.7, packed
// 8192^2 131.6 -> 134.1). Every measured case had rows 32 or 64 bytes into a line: 96 is taken with
// them unmeasured; 16 (rows on the 16-byte grid only) was not measured and keeps 256-byte rows.
constexpr std::int64_t kMidLineMinRows = 1000, kMidLineMinCols = 1024;
bool mid_line_rows_take_wide_tiles(const TransposeDesc& d, int tile_bytes, int vector_bytes) {
  const std::int64_t row_bytes = d.ld_in * 4;
  return dtype_size(d.dtype) == 4 && vector_bytes == kVecBytes && tile_bytes == kVecTileBytes &&
         row_bytes % 32 == 0 && row_bytes % 128 != 0 && d.rows >= kMidLineMinRows && d.cols >= kMidLineMinCols &&
         large_matrix(d);
}

// Batches of 2-byte matrices of 1024 to 2048 columns, up to 8 MiB each, output rows on the sector
// grid, packed (padded rows were not measured): tile rows of 128 bytes rather than 256 (128 tile rows,
// output runs of 256 bytes). (One such matrix alone is under 32 MiB, which takes 8 KiB tiles.) Measured on
// an H200 (us, 256- -> 128-byte rows, 16 KiB tiles, one process, two or three rounds in alternated
// order; the same files): bf16 64 x 2048^2 260.3 -> 259.0, 256 x 1024^2 259.6 -> 257.7; not with
// longer rows (16 x 2048x4096 131.6 -> 131.6, 16 x 4096^2 265.6 -> 267.1, 4 x 8192^2 264.7 -> 269.8,
// 8192^2 69.6 -> 70.9), nor for 1-byte elements (u8 64 x 2048^2 131.0 -> 131.1). From 64 MiB such batches
// take 32 KiB tiles of 256-byte rows instead (two_byte_matrices_take_large_tiles), which ran faster still,
// so this rule is left to batches of 32 to 64 MiB, where it was not measured.
bool short_row_batches_take_narrow_rows(const TransposeDesc& d, int tile_bytes, int vector_bytes) {
  constexpr std::int64_t kMaxMatrixBytes = 8LL << 20;
  return dtype_size(d.dtype) == 2 && vector_bytes == kVecBytes && tile_bytes == kVecTileBytes && d.batch > 1 &&
         d.cols >= 1024 && d.cols <= 2048 && d.rows >= 1024 && d.rows * d.cols * 2 <= kMaxMatrixBytes &&
         input_packed(d) && output_packed(d) && output_rows_sector_aligned(d) && large_matrix(d);
}

// Single packed matrices of 64 MiB or more of 32 rows of 2- and 4-byte elements with 16-byte accesses:
// 8 KiB tiles of 32 rows of 256 bytes rather than 16 KiB of 512-byte rows (the rule for at most 32 rows
// in choose_row_bytes). Measured on an H200 (us, 16 -> 8 KiB tiles, three rounds alternated;
// bench/results/h200_2026-12-01a_thirty_two_rows.txt): f32 32x1048576 67.90-68.02 -> 67.58-67.79,
// 32x2097152 132.10-132.80 -> 131.50-132.14, 32x524288 35.79-35.92 -> 35.70-35.90, 32x4194304
// 260.69-260.88 -> 260.48-260.59; bf16 32x1048576 36.06-36.11 -> 35.65-35.73. Not for 1-byte elements
// (u8 32x2097152 37.23-37.44 -> 40.22-40.30) nor 8-byte ones (f64 32x1048576 131.52-132.35 ->
// 131.66-132.29). Smaller matrices (8 KiB tiles of 16 rows under 32 MiB: tiled_vec_halves_mid_size_tiles),
// padded rows, fewer rows and batches were not measured and keep their tiles.
constexpr std::int64_t kThirtyTwoRowsMinBytes = 2 * kVecMidMatrixBytes;
bool thirty_two_rows_take_small_tiles(const TransposeDesc& d, int vector_bytes) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.rows == 32 && d.batch == 1 && (e == 2 || e == 4) && vector_bytes == kVecBytes &&
         matrix_bytes(d) >= kThirtyTwoRowsMinBytes && input_packed(d) && output_packed(d);
}

// Single packed matrices of 32 MiB or more of 1- and 2-byte elements whose rows are 256 bytes long (u8 x256,
// bf16 x128), in 16 KiB tiles: tile rows of 128 bytes, two tile columns, rather than one tile column of
// whole rows, whose tiles write 64 (u8) or 128 bytes (bf16) of each output row. Measured on an H200 (us,
// whole rows -> half rows, one process per setting, two rounds in alternated order;
// bench/results/h200_2026-12-01c_half_width_ab.txt): bf16 262144x128 38.53 / 38.58 -> 38.10 / 38.29,
// 1048576x128 146.05 / 146.21 -> 143.52 / 143.57, 2097152x128 296.40 / 296.50 -> 289.15 / 289.22,
// 1000000x128 140.00 / 139.87 -> 139.38 / 139.26, 131072x128 20.76 / 20.70 -> 20.52 / 20.41; u8 262144x256
// 38.66 / 38.85 -> 37.78 / 37.95, 1048576x256 150.34 / 150.19 -> 146.30 / 145.81, 1000000x256 143.06 /
// 143.15 -> 139.86 / 139.74, 131072x256 20.69 / 20.61 -> 20.48 / 20.63. Under 32 MiB half rows were slower
// (the same runs, before the threshold): bf16 65536x128 (8 KiB tiles) 11.12 / 11.12 -> 11.17 / 11.15,
// 40960x128 8.11 / 8.08 -> 8.26 / 8.24; u8 65536x256 11.34 / 11.39 -> 11.48 / 11.54, 40960x256 8.22 / 8.25
// -> 8.28 / 8.28. Other row lengths, batches, padded rows and pointers off 256-byte blocks (plain and led
// plans alike take the rule there) were not measured. XPOSE_TALL_ROWS_HALF_WIDTH=0 keeps whole rows, to
// measure.
constexpr std::int64_t kHalfWidthMinBytes = kVecMidMatrixBytes;
bool whole_row_tiles_take_half_width(const TransposeDesc& d, int tile_bytes, int vector_bytes) {
  static const bool enabled = !core::env_starts_with("XPOSE_TALL_ROWS_HALF_WIDTH", '0');
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return enabled && e <= 2 && d.cols * e == 256 && d.batch == 1 && vector_bytes == kVecBytes &&
         tile_bytes == kVecTileBytes && matrix_bytes(d) >= kHalfWidthMinBytes && input_packed(d) &&
         output_packed(d) && output_rows_sector_aligned(d);
}

// A few tile columns, the last of them mostly empty (33 c128 columns in tiles of 32 leave 31 of the
// second tile column's 32 empty): tile rows halved while the tiles then hold fewer empty bytes, rows and
// columns together, and the columns fill under three quarters of theirs. 4- to 16-byte elements with
// 16-byte accesses, 8 and 16 KiB tiles. Measured on an H200 (us, the plan before -> halved rows, three
// rounds alternated; bench/results/h200_2026-12-02a_fill_tile_columns_ab.txt): c128 62939x33 23.46 ->
// 21.56, 104857x40 39.41 -> 37.87, 55923x37 with padded rows 22.48 -> 21.43, 647 x 175x37 37.01 ->
// 36.18; f64 62583x134 42.57 -> 39.80; level on c128 29673x35, 15553x67 and 81 x 98x66. Taken for
// the plan's tile only (choose_row_bytes' plan_tile), so that the gather rules keep the tile they
// were measured against.
int fill_tile_columns(const TransposeDesc& d, int tile_bytes, int vector_bytes, int rb) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  if (esize < 4 || vector_bytes != kVecBytes || tile_bytes < kVecTileBytesSmall) return rb;
  const auto covered = [&](int row_bytes) {
    return tiles_cover(d.rows, tile_bytes / row_bytes) * tiles_cover(d.cols, row_bytes / esize);
  };
  while (rb / 2 >= tiled_vec_min_row_bytes(esize, tile_bytes) && 4 * d.cols < 3 * tiles_cover(d.cols, rb / esize) &&
         covered(rb / 2) < covered(rb))
    rb /= 2;
  return rb;
}

// Output rows of 8-byte elements that start mid-sector (16 bytes into a 32-byte sector), 16-byte accesses:
// tiled_vec's 512-byte tile rows write 16 or 32 elements of each output row per tile, a run that cuts a
// sector at both ends. Narrower tile rows (more of them) write longer runs: 256 bytes, and 128 under
// kMidSectorNarrowRowsMaxRows rows. Measured on an H200 (us, 512-byte rows -> these, three rounds alternated;
// bench/results/h200_2026-12-02b_planner_rules_ab.txt): f64 363x11554 with ld_out 726 25.48 -> 22.96 (0.858 ->
// 0.948 of memcpy), 100x40000 ld_out 102 25.83 -> 22.13, 283x14820 ld_out 286 24.95 -> 21.92, 99x84733 ld_in
// 169466 ld_out 102 50.34 -> 45.08, 65x129055 ld_in 258110 ld_out 66 52.38 -> 47.69, 1710x2452 ld_in 2516
// ld_out 1810 22.46 -> 20.83, 6782x618 ld_out 6790 22.08 -> 20.87, 37638x222 39.83 -> 38.34, 206x20360 21.61
// -> 20.91, ten more 0.2-2.8% faster (2046x4096 36.84 -> 36.35); 1030x1024 (8 MiB) 6.77 -> 6.87. The widths
// from a sweep of 64- to 512-byte rows (h200_2026-12-02b_explore.txt): 256 ahead of 512 or level on all
// nine f64 shapes, 128 ahead of 256 from 65 to 363 rows (100x40000 0.927 / 0.880 of memcpy), level near 1000. Not
// 4-byte elements (f32 4100x4096 128 / 256: 0.924 / 0.935), nor batches and 64 rows or fewer (not measured).
constexpr std::int64_t kMidSectorNarrowRowsMinRows = 64, kMidSectorNarrowRowsMaxRows = 1024;
// Single matrices of 8-byte elements, 16-byte accesses, output rows mid-sector: where both rules below apply.
bool eight_byte_output_rows_mid_sector(const TransposeDesc& d, int vector_bytes) {
  return dtype_size(d.dtype) == 8 && vector_bytes == kVecBytes && !output_rows_sector_aligned(d) && d.batch == 1;
}
bool mid_sector_wide_rows_narrow(const TransposeDesc& d, int vector_bytes) {
  return eight_byte_output_rows_mid_sector(d, vector_bytes) && d.rows > kMidSectorNarrowRowsMinRows;
}

// Matrices of 17 to 64 rows of 8-byte elements whose output rows start mid-sector, 16-byte accesses, in 8 KiB tiles:
// 512-byte tile rows (16 rows a tile) write each output row in two or more runs, each cutting a sector at both ends;
// 256-byte ones (32 rows) write at most two. Measured on an H200 (of memcpy, 512 -> 256-byte rows, one process per
// width; bench/results/h200_2026-12-02c_explore.txt): f64 29x144631 with ld_in 144634 ld_out 34 0.552 -> 0.636,
// 24x174762 ld_out 26 0.616 -> 0.750, 50x83886 0.914 -> 0.997, 30x139810 0.976 -> 1.038, 42x99864 0.951 -> 0.999,
// 38x110376 0.938 -> 0.985, 22x190650 0.969 -> 1.013, 62x67650 0.979 -> 1.013, 18x233016 0.956 -> 0.974, 18x116508
// 1.065 -> 1.088; slower: 46x45590 11.68 -> 11.88 us (level in the A/B, h200_2026-12-02c_planner_rules_ab.txt, where
// 29x144631 ran 38.23 -> 33.02 us and 24x174762 34.36 -> 28.29). Not 16 rows or fewer (10x419430, all in one 16-row
// tile: 1.037 -> 0.712), tiles already 32 rows tall (16 KiB ones; 26x322638 with 64-row tiles: 1.015 -> 0.750), 4 KiB
// tiles, 8-byte accesses (34x61681: 1.000 -> 0.869) or batches (not measured).
constexpr std::int64_t kMidSectorTallTilesMinRows = 17, kMidSectorTallTilesMaxRows = 64;
bool mid_sector_few_rows_take_tall_tiles(const TransposeDesc& d, int tile_bytes, int vector_bytes) {
  return eight_byte_output_rows_mid_sector(d, vector_bytes) && tile_bytes == kVecTileBytesSmall &&
         d.rows >= kMidSectorTallTilesMinRows && d.rows <= kMidSectorTallTilesMaxRows;
}

// plan_tile: the plan's own tile, not the one that the gather rules and the tile size ask about, which
// also takes the rules measured against those (mid_sector_wide_rows_narrow,
// mid_sector_few_rows_take_tall_tiles, fill_tile_columns). A width forced by the knob is taken as it is.
int choose_row_bytes(const TransposeDesc& d, int tile_bytes, int vector_bytes, bool plan_tile = false) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  int rb = esize <= 2 ? (output_rows_sector_aligned(d) ? 256 : mid_sector_row_bytes(d, vector_bytes))
                      : esize == 4 ? 256 : 512;
  if (mid_line_rows_take_wide_tiles(d, tile_bytes, vector_bytes)) rb = 512;
  if (plan_tile && mid_sector_wide_rows_narrow(d, vector_bytes))
    rb = d.rows < kMidSectorNarrowRowsMaxRows ? 128 : 256;
  if (short_row_batches_take_narrow_rows(d, tile_bytes, vector_bytes)) rb = 128;
  std::int64_t row_bytes_pow2 = kVecMinRowBytes;
  while (row_bytes_pow2 < d.cols * esize && row_bytes_pow2 < 512) row_bytes_pow2 *= 2;
  rb = static_cast<int>(std::min<std::int64_t>(rb, row_bytes_pow2));
  if (rb == 256 && whole_row_tiles_take_half_width(d, tile_bytes, vector_bytes)) rb = 128;
  if (d.rows <= 32) rb = std::max(rb, 512);
  else if (d.rows <= 64) rb = std::max(rb, 256);
  else if (rb == 256 && tile_bytes == kVecTileBytesSmall && one_byte_matrices_take_ldmatrix_tiles(d, vector_bytes))
    rb = 128;
  if (plan_tile && mid_sector_few_rows_take_tall_tiles(d, tile_bytes, vector_bytes)) rb = tile_bytes / 32;
  // Quarter-size tiles of 1-byte elements keep 32 rows: a whole sector of each output row; the small
  // tiles of wider elements keep 16 (tiled_vec_shape.hpp).
  if (tile_bytes == kVecTileBytesTiny && esize == 1) rb = std::min(rb, kVecTileBytesTiny / 32);
  if (tile_bytes <= kVecTileBytesTiny && esize >= 2)
    rb = static_cast<int>(std::min<std::int64_t>(tile_bytes / 16, row_bytes_pow2));
  if (tile_bytes == kVecTileBytesSmall && halves_wide_element_tiles(d)) rb = std::min(rb, kVecWideElementRowBytes);
  if (narrow_byte_rows(d, tile_bytes)) rb = kVecNarrowRowBytes;
  if (tile_bytes == kVecTileBytesSmall && tiled_vec_sixteen_row_tiles(d, vector_bytes)) rb = 512;
  if (tile_bytes == kVecTileBytesSmall && thirty_two_rows_take_small_tiles(d, vector_bytes)) rb = 256;
  const int min_rb = tiled_vec_min_row_bytes(esize, tile_bytes), max_rb = tiled_vec_max_row_bytes(esize, tile_bytes);
  const int forced = env_int("XPOSE_TILED_VEC_ROW_BYTES", 0);
  if (forced == 32 || forced == 64 || forced == 128 || forced == 256 || forced == 512) rb = forced;
  else if (plan_tile) rb = fill_tile_columns(d, tile_bytes, vector_bytes, std::clamp(rb, min_rb, max_rb));
  return std::clamp(rb, min_rb, max_rb);
}

// Rows and columns of a tiled_vec tile of `tile_bytes`, and how many such tiles the matrices take.
struct TileShape {
  int rows, cols;
};
TileShape tile_shape(const TransposeDesc& d, int tile_bytes, int vector_bytes) {
  const int rb = choose_row_bytes(d, tile_bytes, vector_bytes);
  return TileShape{tile_bytes / rb, rb / static_cast<int>(dtype_size(d.dtype))};
}
std::int64_t tile_count(const TransposeDesc& d, TileShape t) {
  return d.batch * ceil_div(d.rows, t.rows) * ceil_div(d.cols, t.cols);
}

}  // namespace

// The mid-size halving was measured with 16-byte accesses. With 8-byte ones, on an H200 (us, 8 -> 16 KiB
// tiles, three rounds alternated; bench/results/h200_2026-12-02b_planner_rules_ab.txt): bf16 4000x4004
// 21.48 -> 20.64 (0.952 -> 0.988 of memcpy), 186 x 300^2 25.78 -> 23.85, 16 x 1000x1004 21.96 -> 20.72, 170 x
// 328x300 25.07 -> 24.32, 9728x1724 22.56 -> 21.85, 460x18236 13.30 -> 12.96, 1398 x 20x300 20.14 -> 18.66,
// 796x21076 with ld_out 896 22.44 -> 22.18, 64704x259 with padded rows level; 872x19239 with padded rows
// 25.07 -> 25.84. Where the 16 KiB tiles cover more (132x127100: 128-row tiles over 132 rows, 8 KiB ones
// of 64 rows) they lost, 26.77 -> 29.64, which the 9/8 bound leaves on 8 KiB.
bool two_byte_eight_byte_grid_keeps_tiles(const TransposeDesc& d, int vector_bytes) {
  if (dtype_size(d.dtype) != 2 || vector_bytes != kVecMinBytes) return false;
  const std::int64_t large_bytes = kVecTileBytes * tile_count(d, tile_shape(d, kVecTileBytes, vector_bytes));
  const std::int64_t small_bytes =
      kVecTileBytesSmall * tile_count(d, tile_shape(d, kVecTileBytesSmall, vector_bytes));
  return 8 * large_bytes <= 9 * small_bytes;
}

namespace {

// Tile size: 4 KiB for batches of small matrices those tiles fill (small_tiles_fill_batch), whatever
// their total; 16 KiB, or 32 KiB for large 2-byte matrices (two_byte_matrices_take_large_tiles); 8 KiB
// for matrices under kVecSmallMatrixBytes, for the narrowest tile rows
// (tiled_vec_halves_narrow_tiles), for most large matrices of 16-byte elements
// (tiled_vec_halves_wide_element_tiles), for mid-size ones of 2- to 8-byte elements
// (tiled_vec_halves_mid_size_tiles; not some of 2-byte ones on the 8-byte grid:
// two_byte_eight_byte_grid_keeps_tiles), for those of at most 16 rows (tiled_vec_halves_short_tiles), for
// single matrices of a few tens of rows (tiled_vec_sixteen_row_tiles) and of 32 rows of 2- and 4-byte
// elements (thirty_two_rows_take_small_tiles);
// under kVecSmallMatrixBytes, 4 KiB for 1-byte elements where 8 KiB tiles would be fewer than the
// SMs (not for 16 rows: 32 rows of 128 bytes), and for wider ones with 16-byte accesses 2 KiB where
// 4 KiB tiles would be fewer than two per SM, else 4 KiB (8 KiB for 16-byte elements).
int choose_tile_bytes(const TransposeDesc& d, int vector_bytes, int sm_count) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  const int forced = env_int("XPOSE_TILED_VEC_TILE_BYTES", 0);
  if (forced != 0 && tiled_vec_tile_built(esize, forced, vector_bytes)) return forced;
  if (vector_bytes == kVecBytes && small_tiles_fill_batch(d)) return kVecTileBytesTiny;
  if (large_matrix(d)) {
    const bool mid_size = tiled_vec_halves_mid_size_tiles(esize, matrix_bytes(d)) &&
                          !two_byte_eight_byte_grid_keeps_tiles(d, vector_bytes);
    if (tiled_vec_halves_narrow_tiles(esize, choose_row_bytes(d, kVecTileBytes, vector_bytes)) ||
        halves_wide_element_tiles(d) || mid_size ||
        one_byte_matrices_take_ldmatrix_tiles(d, vector_bytes) ||
        tiled_vec_halves_short_tiles(d.rows) || tiled_vec_sixteen_row_tiles(d, vector_bytes) ||
        thirty_two_rows_take_small_tiles(d, vector_bytes))
      return kVecTileBytesSmall;
    return two_byte_matrices_take_large_tiles(d, vector_bytes) ? kVecTileBytesLarge : kVecTileBytes;
  }
  if (esize == 1)
    return tile_count(d, tile_shape(d, kVecTileBytesSmall, vector_bytes)) < sm_count &&
                   !tiled_vec_halves_short_tiles(d.rows)
               ? kVecTileBytesTiny
               : kVecTileBytesSmall;
  if (vector_bytes != kVecBytes) return kVecTileBytesSmall;
  if (tile_count(d, tile_shape(d, kVecTileBytesTiny, vector_bytes)) < 2 * static_cast<std::int64_t>(sm_count))
    return kVecTileBytesMicro;
  return esize < 16 ? kVecTileBytesTiny : kVecTileBytesSmall;
}

// tiled_vec's tile for a large matrix with 16-byte accesses (its size does not depend on the SM count),
// 16 KiB where the plan takes 32 KiB: the gather rules that ask it were measured against those.
TileShape large_matrix_tile(const TransposeDesc& d) {
  const int tile_bytes = choose_tile_bytes(d, kVecBytes, 0);
  return tile_shape(d, tile_bytes == kVecTileBytesLarge ? kVecTileBytes : tile_bytes, kVecBytes);
}

// Tile-column bands (BandedTileGrid) where the input rows lie a multiple of 128 KiB apart. Walked
// down first, the blocks in flight read a narrow column of such rows, whose addresses agree in
// their low 17 bits, and the DRAM serves that slower (H200: c128 8192^2 0.92 of memcpy, 0.98 with
// ld_in 8448). Bands 64 KiB wide, or an odd multiple of that, put the reads in flight that far
// apart. Measured on an H200 (of memcpy, one band -> bands; one process, 7-11 rotated rounds,
// bench/results/tuning_h200_2026-11-23.txt): 128 KiB rows, 2 bands: c128 8192^2 0.920 -> 0.964,
// 16384x8192 0.942 -> 0.963, 1024x8192 0.950 -> 0.967, 4 x 4096x8192 0.944 -> 0.978, f64 16384^2
// 0.920 -> 0.959, 8192x16384 0.916 -> 0.960, f32 8192x32768 0.916 -> 0.962, bf16 8192x65536 0.903
// -> 0.947, u8 8192x131072 0.904 -> 0.942; 384 KiB rows, 2 bands: c128 2048x24576 0.960 -> 0.978,
// f32 4096x98304 0.945 -> 0.975; 256 KiB, 4 bands: f64 8192x32768 0.940 -> 0.953, f32 8192x65536
// 0.937 -> 0.959, bf16 4096x131072 0.914 -> 0.941, c128 8192x16384 0.946 -> 0.960, but c128 16384^2
// 0.958 -> 0.952; 512 KiB, 8 bands: c128 2048x32768 0.950 -> 0.957, f32 4096x131072 0.919 -> 0.953.
// Not taken: bands 128 or 256 KiB wide (slower than one), 1 MiB rows (f32 2048x262144 0.963 with
// one band, 0.942 with 16), strides off the 128 KiB grid (c128 ld 8200, f64 ld 16896: 1-2% slower
// in bands), other strides (64 KiB: f64 8192^2 0.976 -> 0.970), matrices under 1024 rows (c128 8 x
// 512x8192 0.991 -> 0.984: their blocks in flight already span many tile columns). The tiles must
// span the stride exactly, so that every band is that wide.
// XPOSE_TILED_VEC_BANDS forces a count (1: none) where the kernel is built and it divides the tile
// columns, to measure on another GPU.
constexpr std::int64_t kBandBytes = 64 * 1024;
int choose_bands(const TransposeDesc& d, int tile_bytes, int row_bytes, int vector_bytes, std::int64_t tiles_c) {
  if (!tiled_vec_bands_built(tile_bytes, row_bytes, vector_bytes)) return 1;
  const int forced = env_int("XPOSE_TILED_VEC_BANDS", 0);
  if (forced >= 1 && forced <= kVecMaxBands && (forced & (forced - 1)) == 0 && tiles_c % forced == 0) return forced;
  const std::int64_t stride = d.ld_in * static_cast<std::int64_t>(dtype_size(d.dtype));
  if (!large_matrix(d) || d.rows < 1024 || tiles_c * row_bytes != stride || stride % (2 * kBandBytes) != 0) return 1;
  // The power of two in stride / kBandBytes. The tiles span the stride, so the bands divide them.
  std::int64_t bands = 1;
  while ((stride / kBandBytes) % (2 * bands) == 0) bands *= 2;
  return bands <= kVecMaxBands ? static_cast<int>(bands) : 1;
}

}  // namespace

// 1-byte matrices of 2 MiB or more, at least 1024 on each side, with 16-byte accesses and output rows on
// the sector grid take 8 KiB tiles of 64 rows of 128 bytes, under kVecMidMatrixBytes in all: the tiles
// that store through ldmatrix (tiled_vec_ldmatrix.cuh; 32 rows of 256 bytes are too few for it).
// Measured on an H200 (of memcpy, the CLI's plan of the commit before -> these, one process each, four
// rounds in alternated order; bench/results/h200_2026-12-01h_ldmatrix_ab.txt): u8 1536^2 (8 KiB tiles of
// 32 rows) 0.871 -> 0.920, 2048^2 0.935 -> 0.955, 1024x4096 0.928 -> 0.957; 3072^2 (16 KiB tiles) 0.940 ->
// 0.952, 4096^2 0.952 -> 0.959, 2048x8192 0.937 -> 0.955, 8192x2048 0.950 -> 0.967, 2 x 2048^2 0.957 ->
// 0.958. A side of 512 lost (512x16384 0.957 -> 0.945, 16384x512 0.966 -> 0.950) where 256 columns
// gained (65536x256 0.949 -> 0.955, 131040x256 0.915 -> 0.934): shorter sides keep their tiles, as do
// batches of smaller matrices, whose batch rules were measured against those, and output rows that start
// mid-sector (not measured). At 64 MiB and more the 8 KiB ldmatrix tiles were mixed against the 16 KiB
// plan in the probe (u8 8192^2 0.937-0.939 -> 0.941-0.942, 4096x16384 0.944-0.945 -> 0.950-0.952, but
// 16384x4096 0.947 -> 0.938-0.941 and 16384^2 0.955-0.956 -> 0.927-0.930;
// h200_2026-12-01h_tiled_vec_probe.txt). Led plans and padded strides take the rule unmeasured, and it is
// taken on every GPU alike: where ldmatrix is not built (HIP) these tiles run the generic store phase,
// which on the H200 ran them slower than the 16 KiB plan (4096^2 0.852 against 0.929-0.931).
constexpr std::int64_t kLdmatrixTilesMinMatrixBytes = std::int64_t{2} << 20, kLdmatrixTilesMinSide = 1024;
bool one_byte_matrices_take_ldmatrix_tiles(const TransposeDesc& d, int vector_bytes) {
  return dtype_size(d.dtype) == 1 && vector_bytes == kVecBytes && d.rows * d.cols >= kLdmatrixTilesMinMatrixBytes &&
         std::min(d.rows, d.cols) >= kLdmatrixTilesMinSide && matrix_bytes(d) < kVecMidMatrixBytes &&
         output_rows_sector_aligned(d);
}

// Batches of matrices of at most 8 KiB of 2- to 16-byte elements (small_batch's otherwise) on the
// 16-byte grid, output rows on the sector grid, that tiled_vec's 4 KiB tiles (rows of up to 256
// bytes, the matrix's rounded up to a power of two) fill to three quarters or more: those tiles,
// one block of 128 threads each, beat small_batch's whole matrices per block there. Measured on an
// H200 (of memcpy, small_batch / tiled_vec at 4 KiB, two rounds; bench/results/h200_2026-11-25x_small_batch_tiles.txt):
// bf16 64x64 0.94 / 0.99, 32x64 0.94 / 0.99, f32 32x32 0.95 / 0.99, 32x64 0.94 / 0.99, 32x48 0.95 /
// 0.99, f64 32x32 0.95 / 0.96, 16x32 0.95 / 0.99, 28x28 1.02 / 1.07, c128 16x16 0.93 / 0.99, 16x32
// 0.93 / 0.99. Emptier tiles lose (bf16 48x48, 56% full, 0.92 / 0.90; f64 20x20 1.02 / 0.87), as do
// output rows mid-sector (f64 30x30 1.03 / 0.88, f32 36x36 1.03 / 0.86) and 1-byte elements (u8
// 64x64 0.91 / 0.43).
bool small_tiles_fill_batch(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (e < 2 || d.batch == 1 || d.rows * d.cols * e > 8192 || !output_rows_sector_aligned(d)) return false;
  const TileShape t = tile_shape(d, kVecTileBytesTiny, kVecBytes);
  return tiles_three_quarters_full(d, t.rows, t.cols);
}

// Small matrices on the 16-byte grid go to the gather kernel (no shared memory). They are bound by
// latency, and it skips tiled_vec's shared-memory round trip and barrier. Measured on an H200 (time as
// a multiple of memcpy's, one process, median of 21 rotated runs of up to 256 calls on buffers
// rotated past the L2; bench/results/h200_2026-11-24j_gather_vs_tiled_vec.txt), tiled_vec -> gather:
// u8 256^2 1.157 -> 1.101, 1024^2 (1 MiB) 1.153 -> 1.131; bf16 256^2 1.116 -> 1.089 (its tile for
// tiny matrices came after: see gather.cu), 2048^2 (8 MiB) 1.039 -> 1.014; f32 256^2 1.133 -> 1.060,
// 512^2 (1 MiB) 1.110 -> 1.066; f64 256^2 1.124 -> 1.056, 1024^2 (8 MiB) 1.013 -> 1.006 (0.975 with
// its later shape, h200_2026-11-24k_gather_vs_tiled_vec.txt); c128 256^2 1.119 -> 1.049, 512^2 (4
// MiB) 1.048 -> 1.025. One size up, tiled_vec's whole-sector loads win: u8 2048^2 1.086 against
// 1.226, f32 1024^2 1.027 / 1.055, f64 2048^2 1.022 / 1.082, c128 1024^2 1.010 / 1.021; bf16 4096^2
// 1.113 / 1.122 with the best gather shape (h200_2026-11-24j_gather_shapes.txt). 16-byte elements
// up to 16 MiB where both sides have 512 or more, since gather's later shapes (of memcpy, CLI,
// tiled_vec -> gather, three rounds in alternated order; h200_2026-11-25ze_c128_gather_sizes.txt):
// c128 640^2 0.981 -> 1.019, 768^2 0.968 -> 0.988, 1024^2 0.975 -> 0.982, 768x1024 0.968 -> 0.986,
// 1024x512 0.958 -> 1.023, 1200^2 (22 MiB, not taken) 0.967 -> 0.972; 2048^2 0.972 -> 0.961
// (shorter sides were not measured: 65-128 rows keep tiled_vec's 16-row tiles). Matrices at least
// kGatherMinExtent on both sides: narrower ones leave most of a gather tile empty (and skinny ones
// have their kernel).
bool gather_suits(const TransposeDesc& d) {
  const std::int64_t bytes = matrix_bytes(d);
  if (d.rows < kGatherMinExtent || d.cols < kGatherMinExtent) return false;
  if (bytes <= gather_max_bytes(static_cast<int>(dtype_size(d.dtype)))) return true;
  return dtype_size(d.dtype) == 16 && bytes <= kGatherWideElementMaxBytes && d.rows >= kGatherWideElementMinExtent &&
         d.cols >= kGatherWideElementMinExtent;
}

// Batches of matrices of 33 to 128 rows and columns of 8-byte elements (33 to 48 of 16-byte ones),
// large enough for tiled_vec's 32-row tiles (f64 from 32 MiB, c128 from 8 MiB), whose last tile
// would be at most half full: gather's 16-row tiles (the same 64 / 32 columns as tiled_vec's) leave
// far fewer rows empty. Measured on an H200 (of memcpy, gather / the previous choice, one process,
// two rounds; bench/results/h200_2026-11-25x_batch_kernels.txt): f64 36^2 0.99 / 0.69, 40^2 1.00 /
// 0.79, 44^2 0.99 / 0.89, 48^2 0.94 / 0.86, 72^2 1.00 / 0.83, 80^2 0.94 / 0.83, 100^2 0.98 / 0.96,
// 112^2 0.95 / 0.95; c128 36^2 1.05 / 0.89, 40^2 1.05 / 0.95, 48^2 0.97 / 0.98.
// Where the last tile is more than half full tiled_vec leads (f64 56^2 1.00 / 1.03, 60^2 0.97 /
// 1.05, 128^2 0.92 / 0.97; c128 100^2 1.05 / 1.06), and at most 32 rows small_batch mostly does.
bool gather_fills_short_rows(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t max_rows = e == 8 ? 128 : e == 16 ? 48 : 0;
  if (d.batch == 1 || std::min(d.rows, d.cols) <= 32 || std::max(d.rows, d.cols) > max_rows || !large_matrix(d))
    return false;
  const int t = large_matrix_tile(d).rows;
  return t == 32 && last_tile_at_most(d.rows, t, 2);
}

// Batches of matrices of 2- and 4-byte elements on the 16-byte grid whose tiled_vec tiles would be
// less than three quarters full (over both cut edges): each tiled_vec block runs its whole load,
// barrier and store phases for a part-empty tile, while gather's threads past a matrix's edge return
// at once. Measured on an H200 (of memcpy, 64 MiB batches, tiled_vec -> gather, automatic plans of
// both builds alternated, two rounds alike; bench/results/h200_2026-11-25z_gather_batches_skinny_f64_ab.txt):
// f32 48^2 (tiles 56% full) 0.95 -> 1.00, 72^2 (32%) 0.66 -> 0.96, 80^2 (39%) 0.77 -> 1.00, 96^2
// (56%) 0.86 -> 0.96, 144^2 (56%) 0.93 -> 1.01, 200^2 (61%) 0.96 -> 0.99; bf16 80^2 0.79 -> 0.96,
// 96^2 0.86 -> 0.94, 160^2 (52%) 0.82 -> 0.93, 272^2 (60%) 0.95 -> 0.97. Where the tiles are fuller
// tiled_vec leads (h200_2026-11-25z_f64_few_rows_and_batches.txt: f32 56^2, 77%: 1.04 / 0.98;
// f32 128^2, bf16 64^2 and 128^2, full: by 1-5%), and where output rows start mid-sector gather's
// 64-byte output runs cut sectors (f32 100^2: 0.94 / 0.89). 1-byte elements read a byte per load
// (u8 128^2 0.97 / 0.73).
bool gather_fills_batch_tiles(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.batch == 1 || (e != 2 && e != 4) || !large_matrix(d) || !output_rows_sector_aligned(d)) return false;
  const TileShape t = large_matrix_tile(d);
  return !tiles_three_quarters_full(d, t.rows, t.cols);
}

bool gather_runs(const TransposeDesc& d, int alignment) {
  return alignment >= kVecBytes && output_rows_on(d, kVecBytes);
}

bool gather_reads_words(const TransposeDesc& d) { return dtype_size(d.dtype) == 2 && input_rows_on(d, 4); }

// A store request that covers part of a sector costs nearly what a whole one does, and the sector is
// completed by another block (unaligned_small_elements.md, tiled_sectors). With the output pointer
// 16 bytes into a sector, every one of gather's 32- and 64-byte output runs cuts one at each end (where
// the rows lie 16 bytes off the grid, half of them are cut whatever the pointer: not measured, no rule).
// Measured on an H200 (output 16 bytes into a sector, of memcpy, gather / tiled_vec, two rounds alike
// but where one is said; bench/results/h200_2026-11-30e_gather_off_sector.txt): c128 127100x33 0.53 /
// 0.83, 2621 x 40^2 0.60 / 0.94, 1024^2 0.745 / 0.96, 640^2 0.88 / 0.97, f64 1024^2 0.69 / 0.91-0.94;
// one round, f64 5242 x 40^2 0.51 / 0.78, bf16 2048^2 0.79 / 0.82-0.84. Up to 4 MiB gather keeps its
// lead or runs level (c128 256^2 0.96 / 0.86-0.90, 384^2 0.945 / 0.87-0.91, 512^2 0.93 / 0.91-0.94; u8
// 1024^2 0.86 / 0.77, f32 512^2 0.92 / 0.83), and so it does on batches whose tiled_vec tiles would be
// mostly empty (gather_fills_batch_tiles: f32 3236 x 72^2 0.79 / 0.64; small_batch, which the measured
// plan found, 1.02).
bool gather_gives_way_off_sector(const TransposeDesc& d, int out_offset) {
  return output_pointer_in_sector(out_offset) && output_rows_sector_aligned(d) &&
         matrix_bytes(d) > kGatherOffSectorMaxBytes &&
         (gather_suits(d) || gather_fills_short_rows(d) || gather_fills_short_columns(d));
}

// Matrices of a few tens of rows of 4- and 8-byte elements past skinny's caps for rows off the grid
// (skinny_few_rows_max): skinny's slabs, whose output is one contiguous run written in aligned 16-byte chunks
// wherever it starts (packed output rows), or stored element by element around the gaps of padded ones
// (skinny_rows_padded). Taken where the output rows or the output pointer lie off the 16-byte grid
// (few_rows_output_off_grid_take_slabs): there tiled_vec's 8-byte accesses and tiled_unaligned cut output sectors.
// Up to output rows of 384 bytes (96 rows of 4-byte elements, 48 of 8-byte ones), whose 12 KiB slabs hold 32
// columns; wider rows leave them 16, and they lose. Measured on an H200 (of memcpy, the plan -> skinny, two rounds
// alike; bench/results/h200_2026-12-01a_few_rows_output_off_grid.txt), single packed matrices past 8 MiB, output
// pointer one element off: f64 34x246723 0.85 -> 0.91, 40x209715 0.84 -> 0.96, 48x174762 0.70 -> 0.98; f32 41x409200
// 0.81 -> 0.91, 48x349525 0.79 -> 0.97 (8 bytes off: 0.79 -> 0.96), 56x299593 0.78 -> 0.93, 64x262144 0.81 -> 0.89,
// 80x209715 0.83 -> 0.90, 88x190650 0.84 -> 0.92, 96x174762 0.85 -> 0.94; output rows off the grid by their stride:
// f64 41x204600 0.91 -> 0.96, 47x178481 0.78 -> 0.98, f32 45x372827 0.81 -> 0.96. Also
// (bench/results/h200_2026-12-01b_few_rows_off_grid_more.txt) padded output rows off the grid by their stride: f64
// 48x174762 with ld_out 49 0.62 -> 0.78, 34x246723 with ld_out 35 0.55 -> 0.73, f32 48x349525 with ld_out 49 0.45 ->
// 0.64, 64x262144 with ld_out 65 0.49 -> 0.62, 96x174762 with ld_out 97 0.61 -> 0.72; batches: f64 4 x 48x43690 with
// the output one element off 0.91 -> 1.00, 8 x 47x22310 0.92 -> 1.00, f32 8 x 48x43690 0.80 -> 0.98, 256 x 48x1365
// 0.74 -> 0.89, f64 20 x 41x3197 0.90 -> 1.04; smaller matrices (which run partly from the L2), output pointer one
// element off: f64 48x21845 (8 MiB less 128 bytes) 1.08 -> 1.21, 40x6553 (about 2 MiB) 1.10 -> 1.27, 48x2730 (about
// 1 MiB) 0.68 -> 0.78, 48x1365 (just under the 512 KiB bound) 0.63 -> 0.73; f32 48x43690 0.96 -> 1.17, 96x10922 1.03
// -> 1.15, 48x5461 0.72 -> 0.75, 64x2048 (512 KiB) 0.65 -> 0.70 (bench/results/h200_2026-12-01b_slabs_widened.txt).
// Output rows off the grid by their stride are level at 2 MiB (f32 45x11651 1.14 / 1.13) and 1.5% slower at 1 MiB
// (45x5825 0.73 / 0.72), and taken alike.
// Not taken: 16-column slabs (pointer one element off: f64 52, 56 and 64 rows 0.91 -> 0.82, 0.91 -> 0.85, 0.87 ->
// 0.82; f32 100, 112 and 128 rows 0.85 -> 0.74, 0.88 -> 0.77, 0.86 -> 0.76); output rows and pointer on the grid
// with input rows off it (f64 48x174763 0.98 / 0.97; f32 100x167773 0.92 / 0.74). An explicit tiled_vec plan for
// pointers off the grid takes no lead where the rule moves the aligned choice to the slabs (configure_led_tiled_vec
// asks that choice).
// 2-byte elements take the slabs past skinny's 84 rows (to 128, its slabs' most) with packed output rows off the
// grid from 8 MiB. Measured on an H200 (of memcpy, tiled_unaligned -> skinny, two rounds alike;
// bench/results/h200_2026-12-01b_bf16_rows.txt), 64 MiB, the output pointer one element off: bf16 88x381300 0.68 ->
// 0.81, 96x349525 0.66 -> 0.84, 100x335544 0.73 -> 0.78, 112x299593 0.71 -> 0.82, 120x279620 0.70 -> 0.82, a batch
// of 40 x 100x8388 0.70 -> 0.75, four elements off 96x349525 0.72 -> 0.84; output rows off the grid by their stride:
// 89x377016 0.73 -> 0.77, 99x338952 0.76 -> 0.77, 115x291805 0.72 -> 0.81. Level just under 8 MiB (100x41943, the
// pointer off: 0.91 / 0.91). Output rows and pointer on the 16-byte grid keep the tiles, which write whole output
// chunks there (unaligned_output_on_grid; an earlier probe, bench/results/h200_2026-11-25zc_few_rows_probe.txt: 88
// rows 0.79 on skinny, 0.81). So do strides and pointers that tiled_vec's 8-byte accesses run (not measured against
// the slabs), and 128 rows with only the output pointer off keep tiled_vec's shifted-output tiles
// (configure_shifted_output_tiled_vec, which the planner tries first).
// XPOSE_FEW_ROWS_OFF_GRID_SLABS=0 leaves them to the tiles, to measure.
constexpr std::int64_t kSlabsOffGridMaxRowBytes = 384;
constexpr std::int64_t kSlabsOffGridMinBytes = std::int64_t{512} << 10;
bool few_rows_output_slabs_run(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if ((e != 2 && e != 4 && e != 8) || d.rows <= skinny_few_rows_max(e) || d.rows >= d.cols) return false;
  if (e == 2) return d.rows <= kSkinnyRowsVecMaxRows && output_packed(d) && large_matrix(d);
  return d.rows * e <= kSlabsOffGridMaxRowBytes && matrix_bytes(d) >= kSlabsOffGridMinBytes;
}

bool few_rows_output_off_grid_take_slabs(const TransposeDesc& d, int alignment, int out_offset) {
  static const bool enabled = !core::env_starts_with("XPOSE_FEW_ROWS_OFF_GRID_SLABS", '0');
  if (!enabled || !few_rows_output_slabs_run(d)) return false;
  // 2-byte elements only where tiled_vec cannot run (its 8-byte accesses were not measured against the
  // slabs: aligned bf16 100x335544 ran 0.85-0.86 on them in earlier scans).
  if (dtype_size(d.dtype) == 2 && tiled_vec_vector_bytes(d, alignment) != 0) return false;
  // Padded rows only off the grid by their stride (a padded output on the grid with the pointer alone off
  // was not measured).
  const bool pointer_off = out_offset >= 0 && out_offset % kVecBytes != 0;
  return (pointer_off && output_packed(d)) || !output_rows_on(d, kVecBytes);
}

// 2-byte elements whose input rows are off tiled_vec's 8-byte grid (odd columns, odd leading
// dimensions) go to tiled_unaligned, which realigns every input row in shared memory; where the
// output rows lie on the 16-byte grid it writes whole output chunks without a halo
// (unaligned_output_on_grid). Under 8 MiB (large_matrix), where the output rows lie on the sector
// grid, gather (16 / E rows of 2-byte loads, or 4-byte ones where the input rows allow, merged in
// the L1, whole 16-byte output vectors) is faster.
// Measured on an H200 (of memcpy, gather / tiled_unaligned's whole-chunk tiles;
// bench/results/h200_2026-11-25zj_gather_vs_grid_out.txt): 512x511 0.89 / 0.79, 5 x 208x333 0.89 /
// 0.79, 1024x1023 1.43 / 1.32, 1536x1535 1.25 / 1.23; level at 8 MiB (2048x2047 0.87 / 0.87, 4 x
// 1024x1023 0.89 / 0.89). Larger, the whole-chunk tiles lead: 8192x8191 0.77 / 0.88, 16384x16383
// 0.74 / 0.85, 5792x5793 0.83 / 0.98, 4128x4097 0.90 / 1.00, 16 x 2048x2047 0.82 / 0.92, 131072x255
// 0.77 / 0.80, and with 4-byte loads 92672x362 0.89 / 0.94, 8192^2 with ld_in 8194 0.87 / 0.90.
// (Against the tiles with a halo that came before, gather led on most of these: 8192x8191 0.73 ->
// 0.77, 4128x4097 0.81 -> 0.89; bench/results/h200_2026-11-25z_gather_off_grid_probe.txt.)
bool gather_takes_off_grid_input(const TransposeDesc& d, int alignment) {
  return dtype_size(d.dtype) == 2 && tiled_vec_vector_bytes(d, alignment) == 0 && gather_runs(d, alignment) &&
         output_rows_sector_aligned(d) && !large_matrix(d);
}

int pointer_alignment(int alignment, int offset) {
  if (offset < 0) return alignment;
  const int own = (offset | kVecBytes) & -(offset | kVecBytes);
  return std::max(alignment, own);
}

bool unaligned_output_on_grid(const TransposeDesc& d, int out_alignment) {
  return dtype_size(d.dtype) <= 2 && gather_runs(d, out_alignment);
}

bool unaligned_input_on_grid(const TransposeDesc& d, int in_alignment, int out_alignment) {
  return dtype_size(d.dtype) <= 2 && in_alignment >= kVecBytes && input_rows_on(d, kVecBytes) &&
         !(out_alignment >= kVecBytes && output_rows_on(d, kVecBytes));
}

namespace {
// Off the grid where skinny takes few rows or columns: tiled_vec's 8-byte one for 1- and 2-byte
// elements (on it, tiled_vec runs at 8 bytes), its 16-byte one for wider elements.
bool off_skinny_grid(std::int64_t element_bytes, int vector_bytes) {
  return element_bytes <= 2 ? vector_bytes == 0 : vector_bytes != kVecBytes;
}
}  // namespace

// Few rows (16 to kGatherFewRowsMax, or skinny's caps past 2 bytes) of packed output, strides off
// tiled_vec's grid (off_skinny_grid: 8 bytes for 2-byte elements, 16 for wider ones): skinny's
// slabs realign every input row and gather each output chunk from shared memory; gather reads the
// rows through the L1 and writes whole 16-byte vectors. Under 8 MiB (large_matrix) skinny's 12 KiB
// slabs make too few blocks, and gather leads where its output rows lie on the sector grid (the
// 64-byte grid for 4-byte elements), or for 2-byte elements where one of its 64-row tiles holds
// every row; its 2-byte loads lose under 32 rows. On an H200 (of memcpy, skinny -> gather;
// bench/results/h200_2026-11-25zb_few_rows_gather.txt, h200_2026-11-25zc_few_rows_probe.txt): bf16
// 32x8194 0.70 -> 0.90, 32x8193 0.69 -> 0.84, 48x43691 1.04 -> 1.17, f32 16x65537 1.18 -> 1.21, f64
// 16x16385 1.26 -> 1.46. Larger matrices, since skinny_rows_vec's lean load phase
// (h200_2026-11-25zc_few_rows_probe.txt, one round, skinny / gather): gather leads only for 2-byte
// elements on the sector grid read as words (bf16 16 rows 0.915 / 0.929, 32 0.900 / 0.970, 48 0.863
// / 0.906, 64 0.856 / 0.925, 80 0.800 / 0.871, 96 0.828 / 0.903) or from 64 rows (2-byte loads: 64
// 0.861 / 0.872, 80 0.795 / 0.804, 96 0.835 / 0.853); skinny leads off the sector grid (words: 40
// rows 0.843 / 0.801, 56 0.831 / 0.826; 2-byte loads: 40 0.847 / 0.752, 56 0.823 / 0.807), with
// 2-byte loads under 64 rows (32 0.901 / 0.862, 48 0.853 / 0.808) and for 4- and 8-byte elements
// (f32 16 0.989 / 0.947, 32 0.986 / 0.962; f64 16 1.003 / 0.970, 20 0.997 / 0.988). 1-byte elements
// load a byte at a time (u8 48 rows 0.78 / 0.65).
bool gather_takes_few_rows(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  // skinny's rows (for 2-byte elements up to kGatherFewRowsMax, where past skinny's 84 tiled_unaligned
  // would take them), off the grid where skinny takes them.
  const std::int64_t max_rows = e == 2 ? kGatherFewRowsMax : skinny_few_rows_max(e);
  if (e == 1 || d.batch != 1 || d.rows < kSkinnyMaxShort || d.rows > max_rows || d.rows >= d.cols ||
      !output_packed(d) || !gather_runs(d, alignment) || !off_skinny_grid(e, tiled_vec_vector_bytes(d, alignment)))
    return false;
  const bool words = e == 2 && gather_reads_words(d);
  if (large_matrix(d)) {
    const bool halves_from_64_rows = d.rows >= 64 && !few_rows_take_whole_chunks(d, alignment);
    return e == 2 && output_rows_sector_aligned(d) && (words || halves_from_64_rows);
  }
  if (e == 4) return output_rows_on(d, 64);
  if (e == 8) return output_rows_sector_aligned(d);
  return (words || d.rows >= 32) && (output_rows_sector_aligned(d) || d.rows <= 64);
}

// Tall matrices of 16-byte elements take tiled_vec's 32-column tiles; where the last tile column holds
// a quarter of its columns or less, its blocks move little but run the whole load-barrier-store
// sequence. gather's threads past the last column return at once. Measured on an H200 (of memcpy,
// tiled_vec -> gather, two rounds alike; h200_2026-11-25z_gather_off_grid_probe.txt): c128 127100x33
// 0.87 -> 0.94, x34 0.86 -> 0.93, x36 0.90 -> 0.96, x40 0.94 -> 0.97, 127100x65 0.84 -> 0.86, x72
// 0.91 -> 0.92, 100000x97 0.88 -> 0.90; level at x44 (12 of 32 columns: 0.944 / 0.944) and 65536x129
// (0.86 / 0.86), behind at x140 (0.91 / 0.90). Only with output rows on the sector grid, where it was
// measured: elsewhere gather's 64-byte output runs cut sectors that another block completes.
bool gather_fills_short_columns(const TransposeDesc& d) {
  if (dtype_size(d.dtype) != 16 || d.cols <= 32 || d.cols >= 128 || d.rows <= d.cols || !large_matrix(d) ||
      !output_rows_sector_aligned(d))
    return false;
  const int t = large_matrix_tile(d).cols;
  return t == 32 && last_tile_at_most(d.cols, t, 4);
}

int tiled_sectors_load_bytes(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const auto input_on = [&](std::int64_t grid) {
    return alignment >= grid && d.ld_in * e % grid == 0 && (d.batch == 1 || d.batch_stride_in * e % grid == 0);
  };
  if (e > 2 || d.ld_out * e % 8 != 0 || !input_on(8)) return 0;
  return input_on(16) ? 16 : 8;
}

// Output rows that start mid-sector cost tiled_vec a partial sector at every tile edge, which two
// blocks write in parts; tiled_sectors writes each sector whole. Measured on an H200 (time over
// memcpy's, one process, median of 15; bench/results/h200_2026-11-24m_tiled_sectors.txt), tiled_vec
// -> tiled_sectors: u8 8192^2 with ld 8200 1.350 -> 1.270, ld_out 8200 only 1.282 -> 1.178, bf16 ld
// 8200 1.154 -> 1.120. On 64 x 1000^2, whose output rows are short and whose first tile row (a
// quarter of the tiles) writes each row's first partial sector in pieces, no faster: u8 1.312 /
// 1.322, bf16 1.089 / 1.096. Hence matrices of at least kSectorsMinRows rows, of at least
// kVecSmallMatrixBytes.
bool tiled_sectors_suits(const TransposeDesc& d, int alignment) {
  return tiled_sectors_load_bytes(d, alignment) != 0 && !output_rows_sector_aligned(d) && d.rows >= kSectorsMinRows &&
         d.cols > kSkinnyMaxShort && large_matrix(d);
}

// u8 tiles of 256 rows of 128 bytes rather than 64: tiled_vec runs the packed squares about 10%
// slower on tile rows of 64 bytes than of 256, but the wider tile halves the tile count. Measured on
// an H200 (us, 64 -> 128 bytes, all with 8-byte loads;
// bench/results/h200_2026-12-01i_sector_wide_rows_experiment.txt), faster from 128 MiB: 32768x4096
// (ld 4104 / 32776) 87.95 -> 78.24, 16384^2 ld 16392 159.30 -> 148.73, 16384x8192 (ld 8200 / 16392)
// 81.52 -> 77.82, 12288^2 ld 12296 89.49 -> 86.28, 8192x16384 (ld 16392 / 8200) 78.09 -> 77.33; at
// 64 MiB and under 1.8-8.8% slower on eight shapes (8192^2 with ld 8200, 8216 and 8232, 16 x 2048^2,
// 6144^2, 4096x8192, 8192x4096, 2100x4104), level on two and 7% faster on 4096^2 ld 4104 (its 512
// tiles one wave at 4 blocks per SM). Hence the measured envelope: single matrices, 128 MiB or more,
// 4096 or more on each side, 8-byte loads.
// Below that, the wide tiles gain where they fit in one wave of blocks and the 64-byte rows' twice as
// many tiles do not, all tiles whole (H200, 132 SMs: 265-528 wide tiles; us, 64 -> 128 bytes, three
// rounds; bench/results/h200_2026-12-01j_sector_store_experiments.txt, parts 6 and 7): 4096^2 ld 4104
// 13.36 -> 12.48, ld 4112 (16-byte loads) 13.14 -> 12.60, 8192x2048 13.36 -> 12.28, 2048x8192 13.53 ->
// 12.63, 2 x 4096x2048 13.39 -> 12.50, then, predicted before they ran: 2048x8192 ld 8208 13.49 ->
// 12.94, 3072x4096 10.95 -> 10.68, 4096x3072 11.07 -> 10.80, 2560x6144 13.41 -> 12.73, 4 x 2048^2 13.59
// -> 12.89, 16384x1024 13.62 -> 12.44, 4352x3840 13.54 -> 12.56. Outside it: level with 256 wide tiles
// (4096x2048, 2048x4096), 1.5% slower with 768 (6144x4096), level and 4.6% slower on partial tiles
// (3000x5000, 5000x3000, 480 wide tiles).
bool tiled_sectors_wide_rows(const TransposeDesc& d, int load_bytes, int sm_count) {
  if (dtype_size(d.dtype) != 1) return false;
  const bool large = d.batch == 1 && load_bytes == 8 && matrix_bytes(d) >= kSectorsWideRowsMinBytes &&
                     std::min(d.rows, d.cols) >= kSectorsWideRowsMinSide;
  const bool whole = d.rows % kSectorsWideTileRows == 0 && d.cols % kSectorsWideTileCols == 0;
  const std::int64_t wide_tiles = d.batch * (d.rows / kSectorsWideTileRows) * (d.cols / kSectorsWideTileCols);
  const std::int64_t wave = std::int64_t{kSectorsBlocksPerSm} * sm_count;
  return large || (whole && wide_tiles <= wave && 2 * wide_tiles > wave);
}

// Output rows on the 8-byte grid only, input rows on the 16-byte one, 1- and 2-byte elements, where
// tiled_sectors does not take them (under 8 MiB or under kSectorsMinRows rows): tiled_vec's 8-byte
// accesses cut the sector at each tile edge in two, tiled_unaligned's line tiles (224 rows of u8,
// 112 of bf16, by 64 columns: kLineTileOutBytes, kLineTileCols) read whole chunks and write whole
// sectors, but pay a 31-byte halo and want enough tiles to fill the GPU. Measured on an H200 (of
// memcpy, tiled_vec / line tiles, two rounds alike; bench/results/h200_2026-11-25zk_lines_vs_tiled_vec.txt): bf16
// 2044x2048 (608 tiles) 0.82 / 0.89, 1004x4096 (576) 0.81 / 0.87, 4092x1024 0.82 / 0.90, 300x32768
// 0.81 / 0.85, 4 x 2044x2048 0.83 / 0.92; u8 1000x8192 (640) 0.77 / 0.81, 4088x2048 0.78 / 0.82,
// 600x8192 (384) 0.74 / 0.76. With about 300 tiles the lines lose: bf16 1020x2048 0.85 / 0.79, u8
// 2040x2048 0.83 / 0.73, 1000x4096 0.83 / 0.72; with fewer rows than a tile they tie (u8 200x335552
// 0.81 / 0.81, bf16 100x335544 0.85 / 0.85). Batches (_lines_auto_ab.txt): bf16 32 x 1004x1024 0.71 /
// 0.94, 16 x 300x4096 0.89 / 0.90; u8 batches, on tiled_vec's 128 x 128-byte tiles, lose 1.5-2% (64 x
// 1000x1024 0.88 / 0.87, 32 x 1000x2048 0.88 / 0.86, 8 x 2040x2048 0.87 / 0.86) and stay there.
constexpr std::int64_t kLinesMinTiles = 512;
bool lines_take_mid_sector_output(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), tile_rows = kLineTileOutBytes / e;
  return (e == 2 || (e == 1 && d.batch == 1)) && tiled_vec_vector_bytes(d, alignment) == 8 &&
         unaligned_input_on_grid(d, alignment, alignment) && !tiled_sectors_suits(d, alignment) &&
         d.rows >= tile_rows &&
         d.batch * ceil_div(d.rows, tile_rows) * ceil_div(d.cols, kLineTileCols) >= kLinesMinTiles;
}

// Output rows that start mid-sector on the 16-byte grid, 4- to 16-byte elements: tiled_vec writes
// the sector at each tile edge in two parts, tiled_unaligned writes every sector whole but pays for
// its windows at every tile, and more of its tiles are cut where a side is short. Measured on an
// H200 (of memcpy, tiled_vec / tiled_unaligned, one process, two rounds;
// bench/results/h200_2026-11-25x_mid_sector_kernels.txt), tiled_unaligned leads only on large
// matrices whose input rows start mid-sector too - f32 8192^2 ld 8196 0.90 / 0.91, f64 ld 8194 0.91
// / 0.93, c128 ld 8193 0.91 / 0.93, c128 4096^2 ld 4097 0.92 / 0.93 - and on large f64 matrices -
// 8190x8192 0.94 / 0.95, 16382x4096 0.93 / 0.94, 2 x 4094x4096 0.95 / 0.96. Elsewhere tiled_vec
// leads or ties: c128 104857x40 0.96 / 0.87, 17x246723 0.98 / 0.89, f32 1677 x 100^2 0.94 / 0.84,
// 186 x 300^2 1.02 / 0.98, 16 x 1004^2 1.03 / 1.00, 4 x 2044^2 1.01 / 0.99, 4092x16384 0.95 /
// 0.94, and c128 8191x8192 0.94 / 0.90, whose input rows 128 KiB apart take tiled_vec's bands.
bool mid_sector_takes_unaligned(const TransposeDesc& d) {
  constexpr std::int64_t kMinExtent = 2048;
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (e < 4 || output_rows_sector_aligned(d) || std::min(d.rows, d.cols) < kMinExtent) return false;
  return !input_rows_on(d, 32) || (e == 8 && d.ld_in * e % (2 * kBandBytes) != 0);  // off choose_bands' grid
}

// Single large matrices of a few tens of rows whose last 32-row tile would be at most half full:
// tiled_vec's 8 KiB tiles of 16 rows of 512 bytes fill it. Where the output rows lie on the sector grid
// (16-row tiles write 64- to 256-byte runs of each output row, which cut the sectors of rows that start
// mid-sector): 33 to 80 rows of 4- and 8-byte elements, and 65 to 128 of 16-byte ones (whose tiles are
// 32 rows of 256 bytes there). For 8-byte elements on the 8-byte grid only, 33 to 64 rows, in place of
// tiled_unaligned (but 34 to 48 with output rows or pointer off the 16-byte grid take skinny's slabs:
// few_rows_output_off_grid_take_slabs). Measured on an H200 (of memcpy, previous choice -> 16-row
// tiles, two rounds; bench/results/h200_2026-11-25x_short_rows_tiles.txt): f64 40x209714 0.94 -> 1.02,
// 48x174762 0.99 -> 1.02, 72x116508 0.98 -> 1.01, 80x104856 1.00 -> 1.01; f32 40x419428 0.92 -> 0.99,
// 48x349524 0.98 -> 1.01, 72x233016 0.88 -> 0.98; c128 72x58254 0.97 -> 1.01, 100x41943 0.99 -> 1.02;
// off the 16-byte grid f64 33x254200 0.78 -> 0.85, 40x209715 0.92 -> 0.94, 48x174763 0.96 -> 0.98. Not
// taken: f32 104 rows 1.01 -> 1.00, c128 40 rows 1.02 -> 1.00, f64 off the grid 72 / 100 rows 0.96 /
// 0.98 -> 0.95 / 0.97; output rows mid-sector, f32 36x466032 0.88 -> 0.66, f64 34x246722 0.87 -> 0.76.
bool tiled_vec_sixteen_row_tiles(const TransposeDesc& d, int vector_bytes) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.batch != 1 || e < 4 || !last_tile_at_most(d.rows, 32, 2) || !large_matrix(d)) return false;
  if (vector_bytes != kVecBytes) return e == 8 && vector_bytes == kVecMinBytes && d.rows > 32 && d.rows <= 64;
  const bool rows_fit = e == 16 ? d.rows > 64 && d.rows <= 128 : d.rows > 32 && d.rows <= 80;
  return rows_fit && output_rows_sector_aligned(d);
}

// 2-byte elements with 16-byte accesses in matrices (or batches) of 64 MiB or more, at least 128 rows
// and columns, that would take 16 KiB tiles: 32 KiB tiles (kVecTileBytesLarge), 128 rows of 256 bytes,
// or 256 of 128 where the output rows start mid-sector (mid_sector_row_bytes). Measured on an H200 (us,
// 16 -> 32 KiB, one process per run, two rounds in alternated order;
// bench/results/h200_2026-12-01e_large_tiles_ab.txt): bf16 16384^2 267.43 -> 262.71, 8192^2 69.49 ->
// 68.81, 8192x16384 134.52 -> 132.49, 16384x8192 135.39 -> 133.31, 4096x32768 134.15 -> 132.22,
// 32768x4096 135.81 -> 133.17, 8192x65536 (in bands) 534.02 -> 521.92, 32768x1024 37.11 -> 36.70,
// 1024x32768 36.57 -> 36.46, 128x262144 36.77 -> 36.63, 131072x256 37.41 -> 36.60, 262144x128 with
// ld_in 136 39.25 -> 38.12; batches 64 x 2048^2 259.19 -> 256.83, 16 x 4096^2 265.58 -> 261.75, 64 x
// 1024^2 67.35 -> 67.25, 64 x 1000^2 (256x64 tiles) 67.80 -> 67.28; f16 8192^2 69.53 -> 68.77. Slower
// there: 8000^2 66.96 -> 67.17, 6000x10000 64.56 -> 64.88, 8192^2 with ld 8208 71.91 -> 72.22 (0.3-0.5%,
// taken alike), and at 32 MiB, not taken: 4096^2 20.42 -> 20.73, 64 x 2048x128 19.99 -> 20.21. Not where
// 16 KiB tiles of half rows are taken (whole_row_tiles_take_half_width, whose gains were measured against
// 16 KiB tiles of whole rows; the 32 KiB tiles were not measured there). Measured on an H200 only, plain
// plans only (led ones take the same tiles, unmeasured), and taken on every GPU alike: on AMD's 64 KiB of
// shared memory per CU two such blocks fit. XPOSE_TILED_VEC_LARGE_TILES=0 keeps the 16 KiB tiles.
constexpr std::int64_t kLargeTilesMinBytes = 2 * kVecMidMatrixBytes, kLargeTilesMinExtent = 128;
bool two_byte_matrices_take_large_tiles(const TransposeDesc& d, int vector_bytes) {
  static const bool enabled = !core::env_starts_with("XPOSE_TILED_VEC_LARGE_TILES", '0');
  return enabled && dtype_size(d.dtype) == 2 && vector_bytes == kVecBytes && matrix_bytes(d) >= kLargeTilesMinBytes &&
         d.rows >= kLargeTilesMinExtent && d.cols >= kLargeTilesMinExtent &&
         !whole_row_tiles_take_half_width(d, kVecTileBytes, vector_bytes);
}

bool output_rows_sector_aligned(const TransposeDesc& d) { return output_rows_on(d, 32); }

std::int64_t matrix_bytes(const TransposeDesc& d) {
  return d.batch * d.rows * d.cols * static_cast<std::int64_t>(dtype_size(d.dtype));
}

bool transpose_is_copy(const TransposeDesc& d) {
  // Element (r, c) lies at r * ld_in + c and goes to c * ld_out + r, and a vector has r or c always 0.
  const bool row_vector = d.rows == 1 && (d.cols == 1 || d.ld_out == 1);
  const bool column_vector = d.cols == 1 && (d.rows == 1 || d.ld_in == 1);
  const std::int64_t n = d.rows * d.cols;
  return (row_vector || column_vector) &&
         (d.batch == 1 || (d.batch_stride_in == n && d.batch_stride_out == n));
}

bool input_packed(const TransposeDesc& d) {
  return d.ld_in == d.cols && (d.batch == 1 || d.batch_stride_in == d.rows * d.cols);
}
bool output_packed(const TransposeDesc& d) {
  return d.ld_out == d.rows && (d.batch == 1 || d.batch_stride_out == d.rows * d.cols);
}

// Batches of small matrices: a tile per matrix (tiled_vec, tiled_unaligned, skinny) is mostly empty
// there and each block moves a few hundred bytes. small_batch moves several whole matrices per
// block. Measured on an H200 (of memcpy, 64 MiB batches, bench/results/h200_2026-11-24o_scan_small_batch.json;
// before -> small_batch): 4x4 u8 0.015 -> 0.66, bf16 0.044 -> 0.94, f32 0.12 -> 0.96, c128 0.38 ->
// 0.95; 16x16 f32 0.61 -> 0.95; 17x17 u8 0.028 -> 0.49, f64 0.31 -> 0.84; 32x32 f32 0.53 -> 0.94;
// 64x64 u8 0.54 -> 0.66; 100x100 u8 0.25 -> 0.53; f64 31x31 0.69 -> 0.88. Where a tiled_vec tile is
// at least half full it stayed ahead (f64 32x32 0.85 against 0.73, bf16 64x64 0.83 / 0.74, f32
// 64x64 0.97 / 0.72, c128 31x31 1.03 / 0.85) until rows a power of two of 64 bytes or more were read
// from a swizzled tile (small_batch.cuh; h200_2026-11-24o_small_batch_swizzle_experiment.json): f64
// 32x32 0.969 against tiled_vec's 0.843, bf16 64x64 0.947 / 0.833, u8 64x64 0.747 -> 0.927. Once a
// thread's chunks were all in flight at once (h200_2026-11-24t_small_batch_loads_first.txt,
// _t_small_batch_8k.txt) small_batch also led on matrices of 4 to 8 KiB on the grid: f32 36x36 1.03
// against tiled_vec's 0.58, 44x44 1.03 / 0.74, f64 26x26 1.03 / 0.59, bf16 48x48 0.95 / 0.65, f16
// 48x80 0.94 / 0.87, u8 80x80 0.68 / 0.49; from 8 to 16 KiB the tiles stay ahead (f32 48x48 0.95 /
// 0.88, 64x64 0.97 / 0.96, f64 40x40 0.79 / 0.69, c128 24x24 1.06 / 0.63, u8 96x96 0.89 / 0.59). So
// small_batch takes matrices of at most 8 KiB, and up to its 16 KiB tile those of 1- to 8-byte
// elements whose rows are off the 16-byte grid. With its rotated and swizzled reads it also leads on
// the grid for 1- and 2-byte matrices that tiled_vec's tiles would fill to less than three quarters
// (H200, of memcpy, 64 MiB batches, the planner's choice / small_batch, two rounds alike;
// bench/results/h200_2026-11-25za_mid_size_batches.txt): u8 96^2 (tiles 56% full) 0.88 / 0.94, 112^2
// (38%) 0.73 / 0.99; bf16 72^2 (32%) 0.68 / 1.03, 80^2 (gather) 0.96 / 1.03, 88^2 0.82 / 1.02. Full
// tiles stay ahead (u8 128^2 0.97 / 0.91; bf16 64x96, 75%, level), and for 4- and 8-byte elements the
// gains were small and not everywhere (f32 48^2 1.00 / 1.04; f64 44^2 0.99 / 0.94).
//
// Past 16 KiB a block takes one whole matrix, up to kSmallBatchMaxWholeMatrixBytes. There the tiles
// cut each matrix into a few part-filled ones, and off the 16-byte grid tiled_unaligned loads a halo
// for each; one matrix per block reads and writes one contiguous run each. Measured on an H200 (of
// memcpy, 64 MiB packed batches, previous plan -> small_batch, two rounds alike;
// bench/results/h200_2026-11-25zi_whole_matrices_ab.txt): off the 16-byte grid u8 255^2 0.57 ->
// 0.91, 150^2 0.50 -> 0.96, 129^2 0.45 -> 0.89, 181^2 0.58 -> 0.97, 230^2 0.56 -> 0.82, 127x509 0.61
// -> 0.90 (skinny), bf16 127^2 0.73 -> 0.98, 130^2 0.51 -> 0.90, 255x127 0.76 -> 0.91, f32 65^2 0.48 ->
// 1.00, 90x91 0.69 -> 0.86, 127^2 0.94 -> 0.97, f64 63x65 0.69 -> 0.85, 45x70 0.66 -> 0.94; 1- and
// 2-byte matrices on the 8- or 16-byte grid that tiled_vec's tiles would fill to less than three
// quarters, u8 200^2 0.76 -> 0.94, 160^2 0.89 -> 0.95, bf16 100^2 0.80 -> 1.02, 180^2 0.85 -> 0.94.
// Fuller tiles stay ahead (u8 256x200 0.83 / 0.81 forced, bf16 128^2 0.94 / 0.93, u8 192^2 0.92 /
// 0.87), and so do gather where it fills a batch's tiles (bf16 160^2 0.93 / 0.89) and tiled_vec for 4-
// to 16-byte elements on the 16-byte grid (f32 100^2 0.95 / 0.87, f64 60^2 1.05 / 0.88, c128 60^2
// 1.04 / 0.77; bench/results/h200_2026-11-25zi_whole_matrices_grid.txt).
// Past 64 KiB, up to what two blocks of an SM hold (H200: 112 KiB), 1-byte matrices off the 8-byte
// grid, and up to 96 KiB 2- to 8-byte ones off the grid (the 8-byte grid too for 2-byte elements)
// whose store phase reads at most 8 bank wavefronts a step (small_batch_read_wavefronts). Measured
// on an H200 (of memcpy, previous plan -> small_batch, two rounds alike;
// bench/results/h200_2026-11-25zi_whole_matrices_big_ab.txt): u8 257^2 0.52 -> 0.80, 300^2 0.62 ->
// 0.82, 301x280 0.54 -> 0.83, 333^2 0.57 -> 0.75, 339^2 0.57 -> 0.67, bf16 181^2 0.74 -> 0.97, 201x203
// 0.72 -> 0.92, f32 129^2 0.71 -> 0.89, 150^2 0.83 -> 0.94, f64 99x101 0.88 -> 0.95, 91^2 level; lost
// past 96 KiB (bf16 239x241 0.80 -> 0.78, f32 169x170 0.91 -> 0.80, f64 119x120 0.99 -> 0.86; bf16
// 230^2 gained 0.78 -> 0.83) and at 15 wavefronts a step (f32 131x140 0.75 -> 0.70). On the grid the
// tiles stay ahead (u8 400^2 0.89 / 0.57, bf16 200^2 0.91 / 0.90; _whole_matrices_big.txt).
// Batches of 2- to 8-byte matrices with a short side of at most 64 elements that skinny serves stay
// with skinny (H200, of memcpy, skinny / small_batch, random draws of seed 8,
// h200_2026-11-25zi_random_scan_seed8.json against _zh_: f32 302x46 1.03 / 0.86, 937x19 1.22 / 1.07,
// bf16 641x16 1.04 / 0.83, 502x49 1.14 / 0.85, f64 9x572 1.09 / 0.95); 1-byte ones and longer short
// sides go whole (u8 785x22 0.68 / 0.91, 127x509 0.61 / 0.90, bf16 255x127 0.76 / 0.91); the
// batches of these draws against the session's start, two rounds: h200_2026-11-25zi_skinny_kept_ab.txt.
namespace {
constexpr std::int64_t kSkinnyKeepsShortSide = 64;
constexpr std::int64_t kWideWholeMatrixBytes = 96 * 1024;
constexpr double kWholeMatrixMaxReadWavefronts = 8;

// Bank wavefronts per read step of small_batch's store phase over its first 8 warps, on the tile
// and in the order the plan reads it.
double small_batch_wavefronts_per_step(const TransposeDesc& d) {
  const int e = static_cast<int>(dtype_size(d.dtype)), slope = small_batch_rotation(d);
  const int bits = slope == 0 && small_batch_swizzled(d) ? small_batch_swizzle_bits(16 * d.cols) : 0;
  constexpr int kWarps = 8;
  return static_cast<double>(small_batch_read_wavefronts(d.rows, d.cols, e, bits, slope, kWarps)) / (kWarps * 16 / e);
}

bool whole_matrices_suit(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (!input_packed(d) || !output_packed(d)) return false;
  const std::int64_t short_side = std::min(d.rows, d.cols);
  if (e >= 2 && short_side <= kSkinnyKeepsShortSide &&
      (short_side <= kSkinnyMaxShort || short_side_takes_skinny(d, alignment)))
    return false;
  const int vector_bytes = tiled_vec_vector_bytes(d, alignment);
  const std::int64_t bytes = d.rows * d.cols * e;
  if (bytes > kSmallBatchMaxWholeMatrixBytes) {
    if (e == 1) return vector_bytes == 0;
    return e <= 8 && bytes <= kWideWholeMatrixBytes && (e == 2 ? vector_bytes == 0 : vector_bytes != kVecBytes) &&
           small_batch_wavefronts_per_step(d) <= kWholeMatrixMaxReadWavefronts;
  }
  if (e > 2 || vector_bytes == 0) return e <= 8 && vector_bytes != kVecBytes;
  if (vector_bytes == kVecBytes && gather_fills_batch_tiles(d)) return false;
  const TileShape t = large_matrix_tile(d);
  return !tiles_three_quarters_full(d, t.rows, t.cols);
}
}  // namespace

std::int64_t small_batch_whole_matrix_bytes_for(std::int64_t shared_per_block_optin, std::int64_t shared_per_sm,
                                                std::int64_t reserved_per_block) {
  const std::int64_t two_per_sm = std::min(shared_per_block_optin, shared_per_sm / 2 - reserved_per_block);
  return std::max(kSmallBatchMaxWholeMatrixBytes, two_per_sm / 128 * 128 - 128);
}

namespace {
// Packed batches of 16-byte matrices of 8 to 16 KiB (small_batch_suits) and at most
// kWideElementSpillMaxRows rows whose rows spill past one of tiled_vec's tile columns into a second,
// which they leave part empty: small_batch moves each whole matrix. Measured on an H200 (us, tiled_vec ->
// small_batch, three rounds alternated; bench/results/h200_2026-12-02b_wide_element_batches_ab.txt): c128
// 6355 x 20x33 41.73 -> 36.14 (0.901 -> 1.041 of memcpy), 7108 x 10x59 40.47 -> 35.94, 7332 x 13x44 39.87 ->
// 36.40, 5000 x 24x33 37.45 -> 34.46, 5000 x 20x40 37.72 -> 34.71, 4000 x 17x50 32.85 -> 30.63, 661 x 24x33
// (8 MiB) 8.15 -> 7.14, six more 2.6-10.5% faster (300 x 20x33, 3 MiB, 5.15 -> 4.92); past 24 rows not:
// 4000 x 28x36 35.73 -> 40.87, 4000 x 31x33 level. Rows within one tile column keep tiled_vec (25x25 and
// 33x20 ran 3% slower on small_batch; h200_2026-12-02b_explore.txt), as do padded rows (not measured).
constexpr std::int64_t kWideElementSpillMaxRows = 24;
bool wide_element_rows_spill_a_tile_column(const TransposeDesc& d, TileShape t) {
  return dtype_size(d.dtype) == 16 && d.rows <= kWideElementSpillMaxRows && d.cols > t.cols &&
         d.cols <= 2 * t.cols && input_packed(d) && output_packed(d);
}
}  // namespace

bool small_batch_suits(const TransposeDesc& d, int alignment, std::int64_t whole_matrix_bytes) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), bytes = d.rows * d.cols * e;
  if (d.batch < 2 || bytes > whole_matrix_bytes) return false;
  if (bytes > kSmallBatchMaxMatrixBytes) return whole_matrices_suit(d, alignment);
  if (bytes <= 8192) return true;
  if (tiled_vec_vector_bytes(d, alignment) != kVecBytes) return e <= 8;
  const TileShape t = large_matrix_tile(d);
  return (e <= 2 && !tiles_three_quarters_full(d, t.rows, t.cols)) || wide_element_rows_spill_a_tile_column(d, t);
}

// Packed batches of 8 to 64 KiB 1- and 2-byte matrices off the 16-byte grid, where tiled_vec runs at
// 8 bytes, whose output vectors wrap into the next column (rows not a multiple of 16 / E) and which
// small_batch would read in order (no rotation pays: small_batch_rotation). Past 16 KiB, one whole
// matrix per block, the same (H200, of memcpy, tiled_vec / small_batch, two rounds alike;
// h200_2026-11-25zi_whole_matrices_ab.txt): u8 120x256 0.89 / 0.66, 88x256 0.76 / 0.69, 72x512 0.65 /
// 0.65. Up to 16 KiB, measured on an H200 (of
// memcpy, 64 MiB batches, small_batch / tiled_vec, two rounds alike;
// bench/results/h200_2026-11-25zb_mid_size_8byte_grid.txt): u8 120x128 0.59 / 0.98, 88x128 0.57 /
// 0.82, 72x128 0.55 / 0.71, 120x96 0.56 / 0.84, bf16 60x128 0.87 / 1.01 (small_batch's walk for every
// lane since: 0.73 / 0.70 / 0.68 / 0.70 / 0.99, h200_2026-11-25zb_small_batch_walk.txt). Rotated or not
// wrapping, small_batch stays (u8 112x120 0.99 / 0.91, 96x120 0.99 / 0.83, 128x72 0.80 / 0.72, bf16
// 76^2 1.02 / 0.55), also where tiled_vec was a little ahead (u8 120^2 0.88 / 0.94, 128x120 0.93 / 0.98).
bool tiled_vec_takes_wrapping_batch(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), bytes = d.rows * d.cols * e;
  return e <= 2 && d.batch > 1 && bytes > 8192 && bytes <= kSmallBatchMaxWholeMatrixBytes && input_packed(d) &&
         output_packed(d) && tiled_vec_vector_bytes(d, alignment) == kVecMinBytes && d.rows % (16 / e) != 0 &&
         small_batch_rotation(d) == 0;
}

// Short sides past kSkinnyMaxShort where the tiles are mostly empty or cut every output sector.
// Measured on an H200 (of memcpy, about 64 MiB; bench/results/h200_2026-11-24o_scan_few_rows.json,
// _scan_few_columns.json; before -> skinny):
// - rows of packed output, off tiled_vec's grid: u8 17 / 24 / 33 / 48 / 100 rows 0.052 / 0.122 /
//   0.081 / 0.566 / 0.250 -> 0.625 / 0.633 / 0.617 / 0.625 / 0.445, bf16 17 / 24 / 33 / 48 0.211 /
//   0.571 / 0.312 / 0.569 -> 0.768 / 0.790 / 0.753 / 0.762, f32 17 / 24 / 33 0.479 / 0.678 / 0.716 ->
//   0.857 / 0.867 / 0.811;
//   since skinny_rows_vec's lean load phase the caps are (H200, of memcpy, one round, skinny / the
//   kernel otherwise taken; bench/results/h200_2026-11-25zc_few_rows_probe.txt): u8 up to 128 rows
//   (104 0.718 / 0.539, 112 0.734 / 0.586, 120 0.725 / 0.576, 128 0.707 / 0.628, tiled_unaligned), bf16
//   up to 84 (72 0.832 / 0.765, 76 0.836 / 0.757, 84 0.793 / 0.791; 88 0.793 / 0.810, 100 0.763 /
//   0.816), f32 up to 40 (40 0.927 / 0.900; 48 0.956 / 0.956, 56 0.925 / 0.946), f64 up to 33 (24 0.994
//   / 0.962, 32 1.014 / 0.984 tiled_unaligned, 33 0.907 / 0.840 tiled_vec at 8 bytes; 64 0.915 /
//   0.982); not 8- and 16-byte elements on the 16-byte grid (f64 24 rows: tiled_vec 0.970, skinny
//   0.878 before), nor bf16 40 rows on tiled_vec's 8-byte grid (0.805, skinny 0.749 before); where
//   gather runs it may lead both (gather_takes_few_rows);
// - tall, rows of at most 32 bytes (tiled_vec's narrowest tile row is 64): f32 x4 0.541 -> 0.944, x8
//   0.878 -> 0.944; f64 x2 0.507 -> 0.914, x4 0.897 -> 0.959; bf16 x8 0.519 -> 0.874, x16 0.838 ->
//   0.931 (c128 keeps tiled_vec: x2 0.91, x4 0.95);
// - tall, 1-byte rows of at most 16 bytes on the 16-byte grid, where tiled_vec's 32-byte tile rows
//   are half empty or more (bench/results/h200_2026-11-25x_u8_few_columns.txt, tiled_vec -> skinny):
//   u8 4194304x16 0.87 -> 0.91, 8388608x16 0.87 -> 0.91, 262144x16 (4 MiB) 0.57 -> 0.82, x8 with ld_in
//   16 0.20 -> 0.56, x12 with ld_in 16 0.25 -> 0.61; not packed 16 columns under 4 MiB (65536x16 0.80
//   / 0.77) - at 16 MiB they are level (1048576x16 0.87 / 0.86);
// - tall, 17 to tall_skinny_max_cols columns off tiled_vec's grid (off its 8-byte grid too for 1- and
//   2-byte elements, where its 8-byte path runs well: bf16 x40 0.778 against skinny's 0.651): u8 x17
//   0.287 -> 0.584, x24 0.393 -> 0.522; bf16 x24 0.474 -> 0.626, x33 0.572 -> 0.836; f32 x24 0.513 ->
//   0.747, x33 0.628 -> 0.775; f64 x17 0.479 -> 0.756, x24 0.649 -> 0.740. One step past those the
//   tiles are ahead: u8 x33 0.533 / 0.487, f32 x40 0.732 / 0.643, f64 x33 0.799 / 0.631.
constexpr std::int64_t tall_skinny_max_cols(std::int64_t esize) {
  return esize == 1 || esize == 8 ? 24 : esize <= 4 ? 33 : 0;
}

namespace {
// Input rows whose gaps the sectors bring in anyway (up to 32 bytes apart) or no wider than the rows.
bool input_gaps_small(const TransposeDesc& d) {
  return d.ld_in * static_cast<std::int64_t>(dtype_size(d.dtype)) <= 64 || d.ld_in <= 2 * d.cols;
}
}  // namespace

// Padded input rows: the slabs read the gaps, which the sectors bring in anyway up to 32 bytes apart
// (and the ld_in / cols bound caps past that). Measured on an H200 (of memcpy, the direct kernel ->
// slabs; bench/results/h200_2026-11-25zh_padded_few_sides.txt): u8 16777216x3 with ld_in 4 0.30 ->
// 0.82 (records of four bytes into planes of three), 13413535x1 ld_in 2 0.19 -> 0.80, 16777216x1
// ld_in 4 0.09 -> 0.33, 8388608x4 ld_in 6 0.40 -> 0.75, 2097152x16 ld_in 21 0.74 -> 0.82; bf16
// 8388608x3 ld_in 4 0.54 -> 0.85, 8388608x2 ld_in 3 0.40 -> 0.81; f32 4194304x3 ld_in 4 0.78 -> 0.85;
// level at wider gaps (f32 4194304x1 ld_in 16, 4194304x2 ld_in 16, bf16 961298x4 ld_in 20, u8
// 2097152x16 ld_in 48), f32 4194304x4 ld_in 8 0.70 -> 0.69. Past 16 columns
// (h200_2026-11-25zh_padded_tall.txt, the tiles -> slabs): u8 2456199x27 ld_in 35 0.44 -> 0.85, bf16
// 884966x37 ld_in 42 0.64 -> 0.92, f32 1048576x33 ld_in 40 0.69 -> 0.79, f64 524288x17 ld_in 20
// 0.69 -> 0.86.
bool skinny_cols_vec_runs(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.cols >= d.rows) return false;
  if (d.ld_in != d.cols && (!input_gaps_small(d) || d.ld_in > kSkinnyColsVecMaxCols)) return false;
  return d.cols <= kSkinnyMaxShort ? e <= 4 || (e == 8 && d.cols >= 8) : e <= 8 && d.cols <= kSkinnyColsVecMaxCols;
}

namespace {

// Tall matrices of 17 to 127 columns of packed input rows where tiled_vec would not run (off its
// 16-byte grid; on it with output rows mid-sector, for 4- to 16-byte elements) or runs only at 8 bytes
// (1- and 2-byte elements on its 8-byte grid): read as one run per slab, the input costs no mostly
// empty tile row, and every output sector is written whole. Measured on an H200 (of memcpy, about 64
// MiB; bench/results/h200_2026-11-24r_cols_vec_past_16_columns.txt, _cols_vec_wide_and_8byte.txt;
// before -> skinny_cols_vec): u8 x17 0.575 -> 0.924, x24 0.508 -> 0.909, x33 0.538 -> 0.677, x40 0.599
// -> 0.786, x48 0.682 -> 0.956, x100 0.629 -> 0.899; bf16 x17 0.675 -> 0.986, x24
// 0.613 -> 0.980, x33 0.821 -> 0.978, x48 0.775 -> 0.973, x100 0.637 -> 0.950; f32 x17 0.778 -> 0.989,
// x24 0.740 -> 0.996, x33 0.770 -> 0.982, x40 0.824 -> 0.994, x48 0.920 -> 0.978, x100 0.879 -> 0.956
// (16-byte grid, output rows mid-sector), 1048576x32 with ld_out 1048577 0.444 -> 0.866; f64 x17 0.751
// -> 0.984, x24 0.738 -> 0.988, x33 0.796 -> 0.980. Not where tiled_vec runs (f32 1048576x32 0.934
// against 0.883, u8 x64 0.935 / 0.845, f64 x64 0.946 / 0.881), nor where the columns fill
// tiled_unaligned's tile rows exactly (u8 1048576x64 with ld_out 1048579: 0.772 against 0.750), nor
// past 127 columns, where a slab holds less than three times the rows of its halo and reads the
// input up to twice (f64 46336x181: 0.971 -> 0.841; u8 x200 gained, 0.58 -> 0.70, and is left to
// tiled_sectors by this bound). Those ratios read high: in a later session's runs a memcpy of about
// 64 MiB moved 5-13% fewer bytes per second than one of 128 MiB, while the kernel kept its rate (f32
// 508400x33 0.98 of memcpy, 1048576x33 0.86, both at 3.5 TB/s; h200_2026-11-25w_tall_sizes_probe.txt).
constexpr std::int64_t kSkinnyColsVecTakesMaxCols = 127;  // slabs of three halos (32 / E rows each)

bool skinny_cols_vec_takes(const TransposeDesc& d, int vector_bytes, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  // Where the tiles measured ahead: tiled_vec on its 16-byte grid (for 4- to 16-byte elements only
  // with whole output sectors: without them they go to tiled_unaligned, which loses). On its 8-byte
  // grid, 1- and 2-byte elements run faster as slabs, whether output sectors are whole or not, unless
  // the columns fill nine tenths of the tiles' (H200, of memcpy, tiled_vec -> skinny_cols_vec, whole
  // sectors; h200_2026-11-25w_cols_vec_store_runs.txt): u8 4194304x24 0.72 -> 0.84, x40 0.69 -> 0.82,
  // 2097152x72 0.64 -> 0.82, x56 (7/8 full) 0.83 -> 0.82; bf16 2097152x20 0.69 -> 0.89, x28 (7/8)
  // 0.81 -> 0.88, x36 0.66 -> 0.86, 1048576x100 0.81 -> 0.86; but u8 1048576x120 (15/16) 0.87 -> 0.81,
  // bf16 x116 (29/32) 0.86 -> 0.83, x60 (15/16) 0.88 / 0.88. Where the output rows start mid-sector,
  // though, large matrices go to tiled_sectors rather than tiled_vec, and the slabs pass it on those
  // full tiles too (H200, of memcpy, tiled_sectors -> skinny_cols_vec, two rounds alike;
  // bench/results/h200_2026-11-25z_tall_mid_sector_slabs.txt): u8 559240x120 0.59 -> 0.81, 262152x120
  // 0.65 -> 0.82, 599184x112 0.75 -> 0.82; bf16 289260x116 0.66 -> 0.93, 279620x120 0.86 -> 0.93,
  // 270604x124 0.69 -> 0.93, 559244x60 0.86 -> 0.94, 65540x116 0.92 -> 1.11. Input rows padded past
  // the columns (reading the gaps: skinny_cols_vec_runs) put 1- and 2-byte elements in slabs on the
  // 16-byte grid too (H200, of memcpy, tiled_vec -> skinny_cols_vec;
  // bench/results/h200_2026-11-25zh_padded_tall.txt): u8 2097152x24 with ld_in 32 0.41 -> 0.82,
  // 1048576x40 ld_in 48 0.43 -> 0.80, 524288x120 ld_in 128 0.49 -> 0.76, 2097152x17 ld_in 32 0.38 ->
  // 0.71; bf16 2097152x20 ld_in 24 0.62 -> 0.84, 1048576x36 ld_in 40 0.56 -> 0.87; 4- and 8-byte ones
  // keep the rule above (f32 1048576x20 ld_in 24 0.83 / 0.84, f64 524288x24 ld_in 32 0.92 / 0.77).
  // Past 64 columns of 4- and 8-byte elements the slabs, written in runs of 128 bytes per output row,
  // pass the tiles there too, up to 100 columns of 8-byte ones (H200, of memcpy, tiled_vec ->
  // skinny_cols_vec; bench/results/h200_2026-11-25w_cols_vec_store_runs.txt): f32 1048576x68 0.690 ->
  // 0.872, x80 0.80 -> 0.84, x100 0.816 -> 0.865, x124 0.818 -> 0.834; f64 1048576x72 0.745 -> 0.854,
  // x100 0.851 -> 0.861, but x120 0.905 -> 0.866. Up to 64 the tiles stay ahead where the columns
  // fill at least six tenths of them (tiled_vec / skinny_cols_vec: f32 x40 0.876 / 0.862, x48 0.927 /
  // 0.882, x60 0.941 / 0.890; f64 x24 0.940 / 0.908), not below (f32 x36 0.844 / 0.882, f64 x36 0.836
  // / 0.902).
  // Tenths of tiled_vec's tile columns the matrix fills (its last tile column may be part empty).
  const TileShape tile = tile_shape(d, kVecTileBytes, vector_bytes);
  const std::int64_t fill_tenths = 10 * d.cols / tiles_cover(d.cols, tile.cols);
  const bool slabs_ahead_on_grid = (d.cols > 64 && (e == 4 || d.cols <= 100)) || fill_tenths < 6;
  // 1- and 2-byte elements: tiled_vec's 16-byte tiles, or its 8-byte ones nine tenths full.
  const bool tiles_fill = vector_bytes == kVecBytes || (vector_bytes != 0 && fill_tenths >= 9);
  const bool tiles_ahead = e <= 2 ? tiles_fill && !tiled_sectors_suits(d, alignment) && input_packed(d)
                                  : vector_bytes == kVecBytes && output_rows_sector_aligned(d) && !slabs_ahead_on_grid;
  return d.cols > kSkinnyMaxShort && d.cols <= kSkinnyColsVecTakesMaxCols && d.cols % 64 != 0 &&
         !tiles_ahead && skinny_cols_vec_runs(d);
}

}  // namespace

// The kernel reads 8 (up to 16 rows) or 4 bytes of every row per thread, realigning rows off that
// grid in registers, and stores through a per-warp stage. From 8 MiB (large_matrix): a thread moves
// only 72-192 bytes, and smaller matrices make too few of them (H200, of memcpy, the plan before ->
// the kernel, h200_2026-11-26a_rows_regs_wide_ab.txt: bf16 32x8193 0.89 -> 0.33 (gather), 16x65538
// 1.41 -> 1.08 (gather), u8 16x16016 0.80 -> 0.75 (tiled_vec), 32x1001 0.62 -> 0.42 (slabs); though u8
// 12x262144 gained, 0.72 -> 0.96). XPOSE_SKINNY_ROWS_REGS_WIDE=0 turns it off (in the planner's rule
// too), to measure against it.
bool skinny_rows_regs_wide_runs(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_ROWS_REGS_WIDE", '0');
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return enabled && e <= 2 && d.rows >= kSkinnyRegsWideMinRows && d.rows <= kSkinnyRegsWideMaxRows &&
         d.rows < d.cols && d.ld_out == d.rows && (d.batch == 1 || d.batch_stride_out * e % kVecBytes == 0) &&
         large_matrix(d);
}

// Where the wide-rows register kernel runs, ahead of skinny's slabs and of tiled_vec's 16-row tiles
// of 1-byte elements and tiles on its 8-byte grid. Measured on an H200 (of memcpy, about 64 MiB, the
// plan before -> the kernel, two rounds alike; bench/results/h200_2026-11-26a_rows_regs_wide_ab.txt),
// input rows on the kernel's grid: u8 16x4194304 (tiled_vec) 0.85 -> 0.96, 17x3947580 0.74 -> 0.99,
// 24x2796200 (tiled_vec at 8 bytes) 0.83 -> 0.98, 12x262144 0.72 -> 0.96, a batch of 16 x 16x65536
// 0.82 -> 0.98; bf16 17x1973790 0.88 -> 0.97, 12x262144 0.82 -> 0.98. Off it, realigned: u8 9x7456540
// 0.76 -> 0.99, 12x5592405 0.87 -> 1.00, 13x5162220 0.66 -> 0.96, 16x4194303 0.84 -> 0.94, 24x2796202
// 0.89 -> 0.95, 31x2164802 0.69 -> 0.92, 32x2097151 0.87 -> 0.88; bf16 9x3728270 0.91 -> 1.00,
// 12x2796202 0.91 -> 1.01, 16x2097151 0.92 -> 0.96, 24x1398101 0.91 -> 0.97, 32x1048575 0.91 -> 0.92;
// bf16 input rows on the 4-byte grid, which gather read as words: 16x2097154 0.94 -> 0.98, 32x1048578
// 0.97 -> 0.98; batches: u8 8 x 20x1000000 0.87 -> 0.98, 100 x 24x5000 (tiled_vec) 0.98 -> 1.23. 33 to
// 48 rows (part 4): on the kernel's grid u8 40x1677720 (tiled_vec at 8 bytes) 0.77 -> 0.99, 48x1398104
// 0.85 -> 0.98, 16 x 40x100000 0.72 -> 0.95, bf16 33x1016800 0.85 -> 0.98, 40x838860 0.80 -> 0.98,
// 48x699050 (gather) 0.90 -> 0.97; off it u8 33x2033601 0.71 -> 0.88, 40x1677721 0.81 -> 0.90,
// 48x1398101 0.78 -> 0.89, bf16 40x838861 0.84 -> 0.90. Past 48 rows the realigning instance (150-170
// registers, three blocks of 128 per SM) lost (u8 64x1048575 0.84 -> 0.74, bf16 56x599187 0.92 -> 0.84,
// 64x524287 0.97 -> 0.80), so it is built up to 48; it ran level where tiled_unaligned's whole-chunk
// tiles run (bf16 48x699051 0.90 / 0.89), which keep those shapes. tiled_vec keeps its 16-byte grid where
// the output rows are a sector or more (u8 32x2097152 0.93 / 0.94, bf16 16x2097152 0.97 / 0.96, a batch of
// 16 x 16x32768 0.98 / 0.98, bf16 32x1048576 0.96 / 0.93, tiled_vec / the kernel).
//
// Pointers on the 8-byte grid but off the 16-byte one (the kernel stores shifted, or realigns its input)
// take it too, where tiled_vec's 8-byte accesses ran (of memcpy, tiled_vec -> skinny, two rounds alike;
// bench/results/h200_2026-12-01b_wide_regs_8.txt): output 8 bytes off, u8 24x2796200 0.83 -> 0.98,
// 40x1677720 0.77 -> 1.00, 48x1398104 0.84 -> 1.00, bf16 40x838860 0.80 -> 0.98, 44x762600 0.84 -> 0.98,
// 32x1048576 level (0.93); input 8 bytes off, u8 40x1677720 0.76 -> 1.00, bf16 40x838860 0.79 -> 0.99.
bool few_rows_take_wide_registers(const TransposeDesc& d, int alignment) {
  constexpr std::int64_t kSectorBytes = 32;
  const std::int64_t out_row_bytes = d.rows * static_cast<std::int64_t>(dtype_size(d.dtype));
  return alignment >= kVecMinBytes && skinny_rows_regs_wide_runs(d) &&
         !(tiled_vec_vector_bytes(d, alignment) == kVecBytes && out_row_bytes >= kSectorBytes) &&
         !few_rows_take_whole_chunks(d, alignment);
}

// The kernel reads each group's input through a stage, 512 contiguous bytes per load, and writes 8
// (up to 16 columns) or 4 bytes of every output row per thread. Measured on an H200 (of memcpy, about
// 64 MiB, the slabs or tiled_vec -> the kernel, two rounds alike; part 5 of
// bench/results/h200_2026-11-26a_rows_regs_wide_ab.txt): u8 4194304x16 0.90 -> 0.95, 1048576x16 0.86 ->
// 0.99, 5592400x12 0.87 -> 0.98, 2097152x24 0.86 -> 0.92, 16 x 262144x16 0.92 -> 0.97; bf16 2097152x16
// 0.92 -> 0.95, 1048576x16 0.92 -> 0.95. Level at 9 and 10 columns (u8 7456544x9 1.01 / 1.00, 6710880x10
// 1.02 / 1.02) and behind tiled_vec at 32 (u8 1048576x32 0.93 / 0.93, bf16 0.96 / 0.91), so it is built
// for 12 to 24; level in between too, at 17 and 20 (u8 3947584x17 0.98 / 0.99, bf16 1973792x17 0.99 /
// 0.99, 2097152x20 0.90 / 0.90), which it takes. Output rows off the 32-byte sector grid lost where a thread
// writes 4 bytes to each or the elements are 2 bytes (u8 2796200x24 0.87 -> 0.77, bf16 2796200x12 1.01 ->
// 0.98), not for 8 bytes of 1-byte elements (u8 5592400x12, above). XPOSE_SKINNY_COLS_REGS_WIDE=0 turns it
// off (in the planner's rule too), to measure against it.
bool skinny_cols_regs_wide_runs(const TransposeDesc& d) {
  static const bool enabled = !core::env_starts_with("XPOSE_SKINNY_COLS_REGS_WIDE", '0');
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t piece = skinny_cols_regs_wide_piece_bytes(d.cols);
  const bool sector_rows = output_rows_sector_aligned(d) || (e == 1 && piece == 8);
  return enabled && e <= 2 && d.cols >= kSkinnyColsRegsWideMinCols && d.cols <= kSkinnyColsRegsWideMaxCols &&
         d.cols < d.rows && d.ld_in == d.cols && d.ld_out * e % piece == 0 && sector_rows &&
         (d.batch == 1 || (d.batch_stride_in * e % kVecBytes == 0 && d.batch_stride_out * e % piece == 0)) &&
         large_matrix(d);
}

bool few_cols_take_wide_registers(const TransposeDesc& d, int alignment) {
  return alignment >= kVecBytes && skinny_cols_regs_wide_runs(d);
}

// 10 to 16 rows on the 16-byte grid, in whole output vectors (a multiple of 16 / E rows): tiled_vec's
// 16-row tiles (8 KiB of 512-byte rows for large matrices) beat skinny's slabs, whose store phase
// gathers each 16-byte chunk element by element. Measured on an H200 (of memcpy, skinny -> tiled_vec, one process,
// bench/results/h200_2026-11-24s_few_rows_tiles.txt): bf16 16x2097152 0.76 -> 0.96, f32 16x1048576
// 0.86 -> 0.97, 12x1398100 0.94 -> 1.03, f64 16x524288 0.85 -> 0.97, 12x699048 0.92 -> 1.03, 10x838860
// 0.91 -> 1.02, c128 16x262144 0.86 -> 0.97, 11x381300 0.92 -> 0.99, u8 16x4194304 0.63 -> 0.72; small
// ones too (u8 16x16000 0.60 -> 0.79, bf16 16x65536 0.75 -> 0.94, f64 12x8192 0.74 -> 0.90). Not
// c128 9x466033 (0.91 -> 0.90, 7 of 16 tile rows empty). 32-row tiles ran 0.71-0.81 (half empty);
// up to 8 rows skinny's register kernel stays (0.96-0.98 there).
bool few_rows_take_tiles(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.rows >= 10 && d.rows <= kSkinnyMaxShort && d.cols > kSkinnyMaxShort && d.rows * e % kVecBytes == 0 &&
         tiled_vec_vector_bytes(d, alignment) == kVecBytes;
}

// 10 to 12 rows of 16-byte elements leave 4 to 6 of tiled_vec's 16 tile rows empty, in blocks that run the whole
// load-barrier-store sequence; gather's threads past the last row return at once. Measured on an H200 (of memcpy, one
// process, two rounds; bench/results/h200_2026-12-02c_explore.txt, tiled_vec -> gather): c128 10x209715 0.970 ->
// 1.069, 10x419430 0.951 -> 1.058, 10x209715 with ld_in 209720 0.983 -> 1.076, 10x104857 1.083 -> 1.181, 12x87381
// 1.135 -> 1.179, 12x174762 1.022 -> 1.043, 11x47662 1.248 -> 1.271, 11x190650 1.008 -> 1.016; in the A/B
// (h200_2026-12-02c_planner_rules_ab.txt) 10x209715 21.82 -> 19.98 us, 12x87381 11.42 -> 11.07, 11 rows level
// (11x381300 38.14 -> 38.20). Not 13 rows or more (13x161319 1.044 -> 0.955, 15x139810 1.056 -> 0.966, 16x131072
// 0.969 -> 0.959, 14x149796 level), nor 9 (skinny, level with gather); under 8 MiB, batches and padded output rows
// were not measured.
constexpr std::int64_t kWideElementGatherMinRows = 10, kWideElementGatherMaxRows = 12;
bool wide_element_few_rows_take_gather(const TransposeDesc& d) {
  return dtype_size(d.dtype) == 16 && d.batch == 1 && d.rows >= kWideElementGatherMinRows &&
         d.rows <= kWideElementGatherMaxRows && d.cols > kSkinnyMaxShort && output_packed(d) && large_matrix(d);
}

// Few rows of 1- and 2-byte elements off tiled_vec's grid whose output rows lie on the 16-byte grid:
// where they fill three quarters of the tile rows of tiled_unaligned's whole-chunk tiles (128 bytes
// of output row), those beat skinny's slabs and gather's few-row tiles. Measured on an H200 (of
// memcpy, one process, two rounds alike; bench/results/h200_2026-11-25zj_few_rows_threshold.txt,
// _skinny_vs_grid_out.txt; skinny or gather -> tiled_unaligned): u8 128x524287 0.71 -> 0.95, 112x1198373
// 0.69 -> 0.87, 96x699051 0.78 -> 0.89, 100 x 112x4001 0.74 -> 0.88; bf16 48x699051 0.85 -> 0.90,
// 56x599187 0.82 -> 0.91, 64x524287 (gather) 0.88 -> 0.97, 96x349525 (gather) 0.86 -> 0.90. Less
// full they lose or run level, and skinny or gather stays: bf16 40 rows 0.84 / 0.82, 72 rows 0.83 /
// 0.77, 80 rows (gather) 0.81 / 0.82; u8 80 rows 0.75 / 0.77, 64 rows 0.84 / 0.73, 48 rows 0.79 /
// 0.63. 2-byte input rows on the 4-byte grid, which gather and skinny read as words, were not
// measured and stay. So do padded output rows that end mid-chunk, each row's last chunk written in
// pieces (bench/results/h200_2026-11-25zk_few_rows_padded.txt, two rounds, skinny / tiled_unaligned:
// bf16 99x84733 with ld_out 104 0.68 / 0.63).
bool few_rows_take_whole_chunks(const TransposeDesc& d, int alignment) {
  const std::int64_t out_bytes = d.rows * static_cast<std::int64_t>(dtype_size(d.dtype));
  return d.rows < d.cols && unaligned_output_on_grid(d, alignment) && tiled_vec_vector_bytes(d, alignment) == 0 &&
         !gather_reads_words(d) && out_bytes % kVecBytes == 0 &&
         4 * out_bytes >= 3 * tiles_cover(out_bytes, kWholeChunkTileOutBytes);
}

bool short_side_takes_skinny(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const int vector_bytes = tiled_vec_vector_bytes(d, alignment);
  const bool off_grid = off_skinny_grid(e, vector_bytes);
  if (d.rows < d.cols) {
    if (few_rows_take_whole_chunks(d, alignment)) return false;
    // Padded output rows: skinny_rows_padded's slabs, up to kSkinnyRowsVecMaxRows rows of 1- and 2-byte
    // elements. Measured on an H200 (of memcpy, the tiles -> the slabs, two rounds alike;
    // bench/results/h200_2026-11-25zh_rows_padded_mid.txt): u8 24x2796202 with ld_out 25 0.12 -> 0.42,
    // 48x1398101 ld_out 50 0.20 -> 0.38; bf16 72x466033 ld_out 76 0.43 -> 0.53, 99x84733 ld_out 104 0.60
    // -> 0.69, 128x262144 ld_out 130 0.48 -> 0.50; f32 24x699050 ld_out 25 0.40 -> 0.61; f64 24x349525
    // ld_out 26 0.63 -> 0.68. On tiled_vec's grid the tiles stay (u8 64x1048576 ld_out 72 0.54 against
    // 0.36, 120x559240 ld_out 128 0.56 / 0.40; bf16 40x838860 ld_out 48 0.61 / 0.52).
    const bool padded_rows = d.ld_out != d.rows && e <= 2;
    const std::int64_t max_rows = padded_rows ? kSkinnyRowsVecMaxRows : skinny_few_rows_max(e);
    return d.rows > kSkinnyMaxShort && d.rows <= max_rows && off_grid;
  }
  if (e >= 2 && e <= 8 && d.cols * e <= 32) return true;
  constexpr std::int64_t kByteColumnsMinBytes = std::int64_t{4} << 20;
  if (e == 1 && d.cols <= kSkinnyMaxShort && (d.cols < kSkinnyMaxShort || matrix_bytes(d) >= kByteColumnsMinBytes))
    return true;
  if (skinny_cols_vec_takes(d, vector_bytes, alignment)) return true;
  return d.cols > kSkinnyMaxShort && d.cols <= tall_skinny_max_cols(e) && off_grid;
}

bool batch_takes_skinny(const TransposeDesc& d) {
  // Batches of matrices with a short side of a few elements: the batch rules below (small_batch, gather,
  // tiled_vec's 4-16 KiB tiles) were tuned on squares and lose to skinny's slabs, which walk the batch too,
  // once the long side reaches a thousand elements (on the 16-byte grid for 1- and 2-byte elements, two
  // thousand for tall 1-byte ones) and the short side holds at most 32 bytes, and for tall matrices whose input
  // rows are 16 or 32 bytes of 4- or 8-byte elements from 200 rows (the single-matrix rule takes skinny there
  // too). Measured on an H200 (of memcpy, packed batches of 32 MiB, the planner's previous choice -> skinny,
  // two rounds alike; bench/results/h200_2026-11-25zg_batched_short_sides.txt): f32 1000x4 0.48 -> 1.07
  // (gather), 8x1000 0.76 -> 0.96, 8x2000 0.77 -> 1.01, 1000x8 0.87 -> 1.08, 2x1000 1.04 -> 1.08 (small_batch),
  // 242x8 0.53 -> 1.02, 577x4 0.77 -> 1.04, 400x4 0.82 -> 1.07, 200x4 0.83 -> 0.88; bf16 4x2000 0.38 -> 1.05
  // (tiled_vec), 3x2000 0.86 -> 1.07, 4x1000 0.99 -> 1.04; u8 3x2000 0.58 -> 1.06, 4x2000 0.75 -> 1.05, 8x1024
  // 0.71 -> 0.95, 2000x3 0.86 -> 0.92; f64 250x2 0.97 -> 0.99. Not where they lost: u8 rows of 1000 bytes
  // (3x1000 0.58 -> 0.43, 1000x3 0.86 -> 0.69), tall u8 under 2000 rows (1008x3 0.86 -> 0.80, though 3x1008
  // gained 0.59 -> 1.05), f64 1000x8 (64-byte rows: tiled_vec 1.08 -> 1.03), long sides under 1000 (f32 2x577:
  // small_batch 1.05, skinny 0.70; u8 4x577 0.86 / 0.35), 16-byte elements (c128 2000x4: tiled_vec 1.06 /
  // 0.86).
  // Matrices of 2 rows of 16 or 32 bytes of 1- to 4-byte elements too, at any batch (of memcpy, one process, two
  // rounds; bench/results/h200_2026-12-02c_explore.txt, small_batch -> skinny): bf16 2x8 x 1048576 0.883 -> 0.966, x
  // 131072 0.799 -> 0.928, x 32768 0.798 -> 0.894, 2x16 x 524288 0.877 -> 0.958; u8 2x16 x 1048576 0.876 -> 0.943, x
  // 4194304 0.943 -> 0.970, x 65536 0.909 -> 0.925, 2x32 x 524288 0.875 -> 0.952; f32 2x8 x 1048576 0.953 -> 0.976,
  // 2x4 level; in the A/B (h200_2026-12-02c_planner_rules_ab.txt) f32 2x4 x 2097152 0.949 -> 0.973 and the others
  // alike. Not other row lengths (u8 2x8 0.998 -> 0.122, bf16 2x4 0.990 -> 0.233, 2x12 0.872 -> 0.263, u8 2x24 0.731
  // -> 0.152), more rows (u8 3x16 0.858 -> 0.794, 4x16 0.905 -> 0.689, bf16 4x8 0.887 -> 0.685; bf16 3x8 gained,
  // 0.839 -> 0.881, and 3x16 ran level) nor 8-byte elements (f64 2x4 x 524288 0.951 -> 0.963, but x 131072 7.03 ->
  // 7.17 us in the A/B).
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  if (d.batch == 1 || e > 8 || !input_packed(d) || !output_packed(d)) return false;
  const std::int64_t short_side = std::min(d.rows, d.cols), long_side = std::max(d.rows, d.cols);
  const std::int64_t min_long_side = e == 1 && d.rows > d.cols ? 2000 : 1000;
  if (short_side <= 8 && short_side * e <= 32 && long_side >= min_long_side && (e > 2 || long_side * e % 16 == 0))
    return true;
  if (d.rows == 2 && e <= 4 && (d.cols * e == 16 || d.cols * e == 32)) return true;
  return e >= 4 && d.rows >= 200 && (d.cols * e == 16 || d.cols * e == 32);
}

bool small_batch_fits(const TransposeDesc& d, std::int64_t whole_matrix_bytes) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const std::int64_t bytes = d.rows * d.cols * e;
  return bytes <= kSmallBatchMaxMatrixBytes || (d.batch > 1 && bytes <= whole_matrix_bytes) ||
         (d.batch == 1 && std::min(d.rows, d.cols) * e * kSmallBatchMinSlab <= kSmallBatchMaxMatrixBytes);
}

bool small_batch_swizzled(const TransposeDesc& d) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype)), row_bytes = d.cols * e;
  // A 16-byte element reads one whole chunk per lane: rows of 64 bytes put only 2 lanes of a
  // quarter-warp's 8 in one bank group, and the chunk XOR needs rows of 128 bytes (bits >= 7).
  // The lanes of one read step 16 / E rows, 16 * cols bytes; where that is a multiple of 128 bytes
  // (cols a multiple of 8) they all read the same 16-byte slot of every 128 bytes, powers of two or
  // not, and the swizzle pays (small_batch_swizzle_bits). Measured on an H200 (of memcpy, 64 MiB
  // batches, plain -> swizzled, two rounds alike; bench/results/h200_2026-11-25z_small_batch_swizzle.txt):
  // f64 24^2 0.89 -> 1.04-1.06, 40x24 0.67 -> 1.04; bf16 40^2 0.95 -> 1.03, 48^2 0.91 -> 1.03, 56^2 0.79 ->
  // 1.03; f32 40^2 0.97 -> 1.04; u8 80^2 0.67 -> 1.00, 80x72 0.67 -> 0.99, 72x80 0.42 -> 0.56, 104^2 0.51
  // -> 0.56, 120^2 0.46 -> 0.57; but u8 72^2 0.65 -> 0.58 and 88^2 0.59 -> 0.58. With cols 4 past a
  // multiple of 8 (two slots) it lost (u8 68^2 0.72 -> 0.42, 100^2 0.69 -> 0.53, bf16 36^2 / 44^2 / 60^2
  // 0.99 -> 0.83 / 0.83 / 0.81; f32 and f64 level), so those stay plain.
  return row_bytes >= (e == 16 ? 128 : 64) && ((row_bytes & (row_bytes - 1)) == 0 || d.cols % 8 == 0);
}

int tiled_vec_vector_bytes(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  for (int v = kVecBytes; v >= kVecMinBytes && v >= e; v /= 2) {
    const auto aligned = [v](std::int64_t bytes) { return bytes % v == 0; };
    if (alignment >= v && aligned(d.ld_in * e) && aligned(d.ld_out * e) &&
        (d.batch == 1 || (aligned(d.batch_stride_in * e) && aligned(d.batch_stride_out * e))))
      return v;
  }
  return 0;
}

namespace {

// Tall matrices of 2 to 24 8-byte columns (16 to 32 of 4-byte ones, in whole vectors) whose input
// rows lie far apart: skinny_cols_vec's slabs do not run there (skinny_cols_vec_runs: they would read the
// gaps), and skinny's direct kernel reads each short row on its own, where tiled_vec's tiles keep many
// rows' loads in flight. Measured on an H200 (us, skinny -> tiled_vec, three rounds alternated;
// bench/results/h200_2026-12-02b_planner_rules_ab.txt): f64 250001x16 with ld_in 40 31.22 -> 20.83 (0.674
// -> 1.009 of memcpy), 290135x14 ld_in 78 32.68 -> 23.59, 607742x13 ld_in 77 59.72 -> 44.31, 300001x12 ld_in
// 40 26.97 -> 21.84, 350001x8 ld_in 24 19.54 -> 16.14, 360385x5 ld_in 69 20.04 -> 16.59, 497801x4 ld_in 68
// 18.65 -> 17.18, three more 13-16% faster; f32 500002x16 ld_in 40 30.18 -> 24.71, 400002x16 ld_in 100 29.37
// -> 22.15; slower: f64 181508x11 ld_in 35 12.98 -> 14.31. Not 4-byte elements of 4 to 13 columns, slower
// on tiled_vec (h200_2026-12-02b_explore.txt: f32 1000002x8 ld_in 24 0.727 -> 0.645 of memcpy, 600002x13
// ld_in 40 0.673 -> 0.605). 2 and 3 columns were measured after (_wide_element_batches_ab.txt): f64
// 3940378x2 ld_in 66 111.11 -> 94.82, 2557414x3 ld_in 27 80.76 -> 70.27, 1557695x2 ld_in 10 32.51 -> 31.86,
// 660418x3 ld_in 11 level; one column not (5784055x1 ld_in 9 97.06 -> 132.17, 7510558x1 ld_in 25 152.15 ->
// 172.39, though 1173144x1 ld_in 65 33.62 -> 30.40). Batches and matrices under 8 MiB were not measured.
// Past 16 columns, where skinny takes rows off tiled_vec's 16-byte grid (tall_skinny_max_cols), tiled_vec's
// 8-byte path leads too where each row holds whole vectors (of memcpy, one process, two rounds;
// bench/results/h200_2026-12-02c_explore.txt, skinny -> tiled_vec): f64 235271x17 with ld_in 81 0.573 ->
// 0.770, ld_in 45 0.584 -> 0.772, 180000x23 ld_in 77 0.707 -> 0.890, 200000x19 ld_in 61 0.723 -> 0.812,
// 200000x21 ld_in 99 0.714 -> 0.800, 100000x20 ld_in 45 0.861 -> 0.895; f32 300000x24 ld_in 70 0.670 ->
// 0.781, 350000x28 ld_in 90 0.630 -> 0.737, 262144x32 ld_in 70 0.575 -> 0.690, 400000x20 ld_in 46 0.677 ->
// 0.726, 200000x20 ld_in 46 0.730 -> 0.778; the A/B (h200_2026-12-02c_planner_rules_ab.txt) alike, and f64
// 387417x21 ld_in 121 (16 KiB tiles) 61.79 -> 49.27 us. Not where a row ends in part of a vector (f32
// 500000x17 ld_in 42: 0.653 -> 0.337; tall_far_rows_on_eight_byte_grid).
constexpr std::int64_t kPaddedFewColumnsMinCols = 2, kPaddedFewFourByteColumnsMaxCols = 32;
bool padded_few_columns_take_tiles(const TransposeDesc& d, int vector_bytes) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const bool whole_vectors = vector_bytes != 0 && d.cols * e % vector_bytes == 0;
  const bool columns = e == 8 ? d.cols >= kPaddedFewColumnsMinCols && d.cols <= tall_skinny_max_cols(e)
                              : e == 4 && d.cols >= kSkinnyMaxShort && d.cols <= kPaddedFewFourByteColumnsMaxCols &&
                                    whole_vectors;
  return columns && d.cols < d.rows && d.batch == 1 && !input_gaps_small(d) && vector_bytes >= kVecMinBytes &&
         large_matrix(d);
}

// Tall matrices of 17 to 64 1- and 2-byte columns (29 to 33 4-byte ones) whose input rows lie far apart,
// on tiled_vec's 8-byte grid. Where each row ends in part of an 8-byte vector, tiled_vec moves that part
// element by element in every row, and tiled_unaligned's word windows lead; for 1- and 2-byte elements
// whose output rows start mid-sector tiled_sectors (whose wide tiles suit squares) trails both, and rows
// of whole vectors take tiled_vec. Measured on an H200 (of memcpy, one process per shape, 32 MiB, two
// rounds alike where two ran; bench/results/h200_2026-12-02c_explore.txt), the previous choice ->
// tiled_unaligned: bf16 600000x33 with ld_in 100 0.323 -> 0.712 (tiled_vec), 300000x33 ld_in 100 0.294 ->
// 0.641, 671088x25 ld_in 68 0.438 -> 0.640, 900000x17 ld_in 44 0.444 -> 0.506 (skinny 0.542),
// 762600x22 ld_in 52 0.315 -> 0.592 (tiled_sectors), 578524x29 ld_in 76 0.391 -> 0.609, 559240x30 ld_in
// 68 0.392 -> 0.704; u8 800000x33 ld_in 104 0.263 -> 0.614 (tiled_vec), 762600x44 ld_in 104 0.411 ->
// 0.647 (tiled_sectors); f32 250000x33 ld_in 102 0.633 -> 0.736 (skinny), 270600x31 ld_in 74 0.635 ->
// 0.710, 289262x29 ld_in 70 0.624 -> 0.670; -> tiled_vec: bf16 381300x44 ld_in 100 0.526 -> 0.808
// (tiled_sectors; tiled_unaligned 0.751), 279620x60 ld_in 140 0.602 -> 0.847 (0.846). Fewer 4-byte
// columns keep skinny (f32 335544x25 ld_in 62 0.648 against 0.593), as do rows that hold whole vectors
// elsewhere (bf16 x20 and x24, u8 x24: tiled_vec ahead of tiled_unaligned, 0.685 / 0.563, 0.738 / 0.627,
// 0.594 / 0.557); past 64 columns tiled_sectors ran level (bf16 233016x72: 0.694 against 0.705). The A/B
// (h200_2026-12-02c_planner_rules_ab.txt, 15 shapes) ran every one faster, by 8% (f32 289262x29 34.70 ->
// 32.02 us) to 2.3 times (bf16 140000x33 ld_in 100, 9 MiB, 24.34 -> 10.37).
constexpr std::int64_t kTallFarRowsMaxCols = 64;
constexpr std::int64_t kTallFarWordRowsMinCols = 29, kTallFarWordRowsMaxCols = 33;
bool tall_far_rows_on_eight_byte_grid(const TransposeDesc& d, int alignment) {
  const std::int64_t e = static_cast<std::int64_t>(dtype_size(d.dtype));
  const bool columns = e <= 2 ? d.cols > kSkinnyMaxShort && d.cols <= kTallFarRowsMaxCols
                              : e == 4 && d.cols >= kTallFarWordRowsMinCols && d.cols <= kTallFarWordRowsMaxCols;
  return columns && d.cols < d.rows && d.batch == 1 && !input_gaps_small(d) && large_matrix(d) &&
         tiled_vec_vector_bytes(d, alignment) == kVecMinBytes;
}

bool rows_end_in_part_vector(const TransposeDesc& d) {
  return d.cols * static_cast<std::int64_t>(dtype_size(d.dtype)) % kVecMinBytes != 0;
}

// The automatic algorithm as the strides and the pointers' alignment decide it.
Algorithm choose_for_strides(const TransposeDesc& d, int alignment, std::int64_t whole_matrix_bytes) {
  // A tile of a matrix a few elements tall or wide is mostly empty: stage slabs of the whole short
  // side instead (and for some short sides past kSkinnyMaxShort: short_side_takes_skinny). A few
  // columns still suit tiled_vec when their rows are whole 16-byte chunks of more than 32 bytes, or
  // of 16-byte elements (measured on an H200: c128 1048576x3 at 0.91 of memcpy); a few rows only
  // where they fill tiled_vec's 16-row tiles in whole output vectors (few_rows_take_tiles).
  // Strides off the 16-byte grid (odd extents, leading dimensions) or base pointers aligned only to
  // their element still move aligned 16-byte chunks through tiled_unaligned; only a 16-byte element
  // on an 8-byte aligned pointer is left to the element-wise tile.
  // Output rows that start mid-sector cost tiled_vec a partial sector at each tile edge; for 4- to
  // 16-byte elements tiled_unaligned, which writes every sector whole, is faster on some large
  // matrices there (mid_sector_takes_unaligned).
  // Strides on the 8-byte grid only (u8 with ld 8200, 64 x 1000^2) still let 1- and 2-byte elements
  // move packed words through tiled_vec with 8-byte accesses, which beats tiled_unaligned's word
  // windows there (H200, of memcpy: u8 ld 8200 0.78 against 0.70, 64 x 1000^2 0.82 / 0.64, bf16
  // ld 8196 0.85 / 0.76). For 4- and 8-byte elements tiled_unaligned stays faster (f64 8191x8193
  // 0.90 against 0.80 with 8-byte accesses). Large matrices of 1- and 2-byte elements whose output
  // rows start mid-sector on the 8-byte grid go to tiled_sectors (tiled_sectors_suits).
  // A packed vector is moved by the runtime's copy: the tiled kernels ran such shapes at 0.66-0.91 of
  // memcpy on an H200 (c128 2920153x1 0.66, f64 7538831x1 0.77, bf16 1x8388608 0.82; random scan
  // bench/results/h200_2026-11-25zg_random_scan.json).
  if (transpose_is_copy(d)) return Algorithm::vector_copy;
  if (batch_takes_skinny(d)) return Algorithm::skinny;
  const int vector_bytes = tiled_vec_vector_bytes(d, alignment);
  if (vector_bytes == kVecBytes && gather_suits(d)) return Algorithm::gather;
  if (vector_bytes == kVecBytes && small_tiles_fill_batch(d)) return Algorithm::tiled_vec;
  if (tiled_vec_takes_wrapping_batch(d, alignment)) return Algorithm::tiled_vec;
  if (small_batch_suits(d, alignment, whole_matrix_bytes)) return Algorithm::small_batch;
  if (vector_bytes == kVecBytes &&
      (gather_fills_short_rows(d) || gather_fills_short_columns(d) || gather_fills_batch_tiles(d)))
    return Algorithm::gather;
  if (few_rows_take_wide_registers(d, alignment) || few_cols_take_wide_registers(d, alignment))
    return Algorithm::skinny;
  if (vector_bytes == kVecBytes && wide_element_few_rows_take_gather(d)) return Algorithm::gather;
  if (few_rows_take_tiles(d, alignment)) return Algorithm::tiled_vec;
  if (gather_takes_few_rows(d, alignment)) return Algorithm::gather;
  if (padded_few_columns_take_tiles(d, vector_bytes)) return Algorithm::tiled_vec;
  // 4-byte elements of whole vectors took the rule above.
  if (tall_far_rows_on_eight_byte_grid(d, alignment))
    return rows_end_in_part_vector(d) ? Algorithm::tiled_unaligned : Algorithm::tiled_vec;
  if (d.rows <= kSkinnyMaxShort || short_side_takes_skinny(d, alignment)) return Algorithm::skinny;
  if (tiled_sectors_suits(d, alignment)) return Algorithm::tiled_sectors;
  if (vector_bytes == kVecBytes)
    return mid_sector_takes_unaligned(d) ? Algorithm::tiled_unaligned : Algorithm::tiled_vec;
  if (d.cols <= kSkinnyMaxShort) return Algorithm::skinny;
  if (lines_take_mid_sector_output(d, alignment)) return Algorithm::tiled_unaligned;
  if (vector_bytes != 0 && (dtype_size(d.dtype) <= 2 || tiled_vec_sixteen_row_tiles(d, vector_bytes)))
    return Algorithm::tiled_vec;
  if (gather_takes_off_grid_input(d, alignment)) return Algorithm::gather;
  if (alignment >= static_cast<int>(dtype_size(d.dtype))) return Algorithm::tiled_unaligned;
  return Algorithm::tiled_padded;
}

}  // namespace

Algorithm choose_gpu_algorithm(const TransposeDesc& d, int alignment, std::int64_t whole_matrix_bytes,
                               int out_offset) {
  const Algorithm a = choose_for_strides(d, alignment, whole_matrix_bytes);
  const bool tiles = a == Algorithm::tiled_vec || a == Algorithm::tiled_unaligned;
  if (tiles && few_rows_output_off_grid_take_slabs(d, alignment, out_offset)) return Algorithm::skinny;
  // Not where gather was taken for input rows that tiled_vec cannot read (gather_takes_off_grid_input).
  const bool give_way = a == Algorithm::gather && tiled_vec_vector_bytes(d, alignment) != 0 &&
                        gather_gives_way_off_sector(d, out_offset);
  return give_way ? Algorithm::tiled_vec : a;
}

Status configure_tiled_vec_tile(const TransposeDesc& d, int alignment, int tile_bytes, int row_bytes,
                                LaunchConfig& c) {
  const int vector_bytes = tiled_vec_vector_bytes(d, alignment);
  if (vector_bytes == 0)
    return Status(StatusCode::unsupported,
                  "tiled_vec needs pointers aligned to 8 bytes or more and leading dimensions / batch strides "
                  "that are multiples of that many bytes and of the element size");
  const int esize = static_cast<int>(dtype_size(d.dtype));
  const bool size_built = tiled_vec_tile_built(esize, tile_bytes, vector_bytes);
  const bool width_built = row_bytes >= tiled_vec_min_row_bytes(esize, tile_bytes) &&
                           row_bytes <= tiled_vec_max_row_bytes(esize, tile_bytes) &&
                           (row_bytes & (row_bytes - 1)) == 0;
  if (!size_built || !width_built)
    return Status(StatusCode::unsupported, "tiled_vec has no kernel for " + std::to_string(tile_bytes) +
                                               "-byte tiles with " + std::to_string(row_bytes) + "-byte rows of " +
                                               std::to_string(esize) + "-byte elements in " +
                                               std::to_string(vector_bytes) + "-byte accesses");
  const TileShape t{tile_bytes / row_bytes, row_bytes / esize};
  c = LaunchConfig{};
  c.tile_rows = t.rows;
  c.tile_cols = t.cols;
  c.swizzled = true;
  c.vector_bytes = vector_bytes;
  c.block_x = tiled_vec_threads(esize, tile_bytes);
  c.block_y = 1;
  c.grid_x = tile_count(d, t);  // one block per tile
  c.grid_y = 1;
  c.grid_z = 1;
  c.bands = choose_bands(d, tile_bytes, row_bytes, vector_bytes, ceil_div(d.cols, t.cols));
  return Status::ok_status();
}

Status configure_tiled_vec(const TransposeDesc& d, int alignment, int sm_count, LaunchConfig& c) {
  const int vector_bytes = tiled_vec_vector_bytes(d, alignment);
  const int tile_bytes = choose_tile_bytes(d, vector_bytes, sm_count);
  return configure_tiled_vec_tile(d, alignment, tile_bytes, choose_row_bytes(d, tile_bytes, vector_bytes, true), c);
}

namespace {

// The largest power of two up to `cap` that divides a side's row stride (and batch stride) in bytes.
std::int64_t stride_grid(std::int64_t ld_bytes, std::int64_t batch, std::int64_t batch_stride_bytes, int cap) {
  std::int64_t g = cap;
  while (g > 1 && (ld_bytes % g != 0 || (batch > 1 && batch_stride_bytes % g != 0))) g /= 2;
  return g;
}

// Tile columns (rows) a matrix needs before its tile grid takes a lead of columns (rows); see
// configure_led_tiled_vec. Between 4 and 32 tile rows nothing was measured.
constexpr std::int64_t kLedMinTileCols = 4;
constexpr std::int64_t kLedMinTileRows = 16;

}  // namespace

// Measured on an H200 (bench/results/h200_2026-11-30b_led_tiles.txt, 8192^2, pointers one element
// off the grid, of memcpy): planned for their alignment alone, u8 0.63-0.68, bf16 0.70-0.77, f32
// 0.87-0.93, f64 0.85-0.96 (0.85 where 16 bytes into a line); led, 0.86-0.89, 0.93-0.95, 0.94-0.96 and
// 0.98.
Status configure_led_tiled_vec(const TransposeDesc& d, int in_offset, int out_offset, int sm_count,
                               std::int64_t whole_matrix_bytes, LaunchConfig& c) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  const auto not_led = [](const char* why) { return Status(StatusCode::unsupported, why); };
  if (in_offset < 0 || out_offset < 0 || in_offset % e != 0 || out_offset % e != 0)
    return not_led("pointer offsets unknown or inside an element");
  // On 256-byte blocks both: no grid below moves them (the usual case, planned no further here).
  if (in_offset % kPointerOffsetGrid == 0 && out_offset % kPointerOffsetGrid == 0)
    return not_led("the pointers need no move");
  const int vector_bytes = tiled_vec_vector_bytes(d, kVecBytes);
  if (vector_bytes == 0) return not_led("strides off the 8-byte grid");
  if (choose_gpu_algorithm(d, kVecBytes, whole_matrix_bytes) != Algorithm::tiled_vec)
    return not_led("aligned pointers would not take tiled_vec");
  XPOSE_RETURN_IF_ERROR(configure_tiled_vec(d, kVecBytes, sm_count, c));
  // Each side's tile pieces start on the coarsest grid its strides keep, up to a 256-byte block
  // (kPointerOffsetGrid) and the piece's own width (input: a tile row; output: the tile's rows of one
  // column). Blocks rather than 128-byte lines: input rows 128 bytes into their blocks cost the
  // aligned 8192^2 tiles 1.4% (u8) to 4% (f32) on an H200.
  const std::int64_t in_grid =
      stride_grid(d.ld_in * e, d.batch, d.batch_stride_in * e, std::min(kPointerOffsetGrid, c.tile_cols * e));
  const std::int64_t out_grid =
      stride_grid(d.ld_out * e, d.batch, d.batch_stride_out * e, std::min(kPointerOffsetGrid, c.tile_rows * e));
  if (in_grid < vector_bytes || out_grid < vector_bytes) return not_led("strides off the access grid");
  int lead_cols = static_cast<int>(in_offset % in_grid) / e;
  int lead_rows = static_cast<int>(out_offset % out_grid) / e;
  // A lead adds a nearly empty tile column (row) and sends the first one through the led edge paths:
  // on few tile columns (rows) that costs more than the lead gives. H200, one element off the grid, led
  // against the plan for the pointers' alignment (bench/results/h200_2026-11-30c_led_interior.txt):
  // columns, u8 1024^2 x64 (4 tile columns) 0.77 / 0.66, f32 262144x256 (4) 0.82 / 0.81, u8 131072x512
  // (2) 0.56 / 0.63, f32 1048576x32 (1) 0.56 / 0.87; rows, u8 2048^2 x64 (32 tile rows) 0.86 / 0.68, u8
  // 256x262144 (4) 0.41 / 0.53, u8 64x1048576 (1) 0.14 / 0.66. Where a side's pointer is on the access
  // grid its lead only serves 256-byte blocks and is dropped; elsewhere the plan is not led.
  const bool few_cols = ceil_div(d.cols, c.tile_cols) < kLedMinTileCols;
  const bool few_rows = ceil_div(d.rows, c.tile_rows) < kLedMinTileRows;
  if ((lead_cols > 0 && few_cols && in_offset % vector_bytes != 0) ||
      (lead_rows > 0 && few_rows && out_offset % vector_bytes != 0))
    return not_led("too few tiles for a lead");
  if (few_cols) lead_cols = 0;
  if (few_rows) lead_rows = 0;
  if (lead_cols == 0 && lead_rows == 0) return not_led("the pointers need no move");
  c.lead_rows = lead_rows;
  c.lead_cols = lead_cols;
  const std::int64_t tiles_c = ceil_div(d.cols + lead_cols, c.tile_cols);
  c.grid_x = d.batch * ceil_div(d.rows + lead_rows, c.tile_rows) * tiles_c;
  // The aligned plan's bands stay: a tile column the lead adds is walked apart (LedBandedTileGrid),
  // and the bands share the others, which are the aligned plan's (a lead is narrower than a tile), so
  // the bands divide them. H200, of memcpy, led without bands -> with them
  // (bench/results/h200_2026-11-30d_led_bands.txt): c128 8192^2 input 16 bytes off 0.918 -> 0.966, f64
  // 16384^2 input 8 bytes off 0.940 -> 0.962, f32 8192x32768 input 4 bytes off 0.922 -> 0.965 (aligned
  // 0.966, 0.966, 0.966). A lead of rows alone beats the aligned plan's bands on an
  // output that is off its block but on the access grid: c128 8192^2 output 16 bytes off 0.937-0.939
  // -> 0.966, c128 16384^2 0.916 -> 0.955, f64 16384^2 output 16 bytes off 0.753 -> 0.965.
  return Status::ok_status();
}

// Measured on an H200 (bench/results/h200_2026-11-30j_shifted_output.txt, 64 MiB, of memcpy, the plan
// before -> these tiles): output one element off, u8 64x1048576 0.74 -> 0.88 (skinny's slabs),
// 128x524288 0.62 -> 0.87 (slabs), a batch of 16 x 64x65536 0.72 -> 0.87; bf16 64x524288 0.80 -> 0.90
// (slabs), 128x262144 0.69 -> 0.88 (tiled_unaligned), 16 x 128x16384 three elements off 0.69 -> 0.88.
// Not on 32 rows, where skinny's register kernel stays ahead (u8 32x2097152 0.93 against 0.85, bf16
// 32x1048576 0.93 / 0.84), nor with the output on the 8-byte grid, where tiled_vec's 8-byte accesses
// do (u8 64x1048576 eight bytes off 0.90 / 0.88). Matrices of fewer than 4 tile columns (batches of
// small ones: u8 4096 x 128x128, bf16 8192 x 64x64, on small_batch at 0.83-0.87 with the output one
// element off) were not measured with these tiles and keep their plans.
Status configure_shifted_output_tiled_vec(const TransposeDesc& d, int in_offset, int out_offset, bool automatic,
                                          std::int64_t whole_matrix_bytes, LaunchConfig& c) {
  const int e = static_cast<int>(dtype_size(d.dtype));
  const auto unfit = [](const char* why) { return Status(StatusCode::unsupported, why); };
  if (in_offset < 0 || out_offset < 0 || out_offset % e != 0)
    return unfit("pointer offsets unknown or inside an element");
  if (in_offset % kVecBytes != 0 || out_offset % kVecMinBytes == 0)
    return unfit("not an output alone off the 8-byte grid");
  if (d.ld_out != d.rows || !tiled_vec_shifted_output_built(e, kVecBytes, kVecTileBytes, d.rows))
    return unfit("not packed output rows of 64 or 128 elements of 1 or 2 bytes");
  if (tiled_vec_vector_bytes(d, kVecBytes) != kVecBytes) return unfit("strides off the 16-byte grid");
  if (automatic && choose_gpu_algorithm(d, kVecBytes, whole_matrix_bytes) != Algorithm::tiled_vec)
    return unfit("aligned pointers would not take tiled_vec");
  const int row_bytes = kVecTileBytes / static_cast<int>(d.rows);  // one tile row: rows x row_bytes
  if (automatic && ceil_div(d.cols, row_bytes / e) < kLedMinTileCols) return unfit("too few tile columns");
  XPOSE_RETURN_IF_ERROR(configure_tiled_vec_tile(d, kVecBytes, kVecTileBytes, row_bytes, c));
  c.bands = 1;
  c.shifted_output = true;
  return Status::ok_status();
}

}  // namespace xpose::plan
