// Host-side GPU planning: which algorithm and tile fit a descriptor and a pointer alignment.
#pragma once

#include <cstdint>

#include "xpose/descriptor.hpp"
#include "xpose/plan.hpp"
#include "xpose/status.hpp"

namespace xpose::plan {

// The widest global access tiled_vec may use (16 or 8 bytes, never less than an element) such that
// the pointers' alignment and every row and batch stride are multiples of it; 0 where none fits.
int tiled_vec_vector_bytes(const TransposeDesc& resolved_desc, int alignment);

// Elements spanned by the tiles of `tile` elements that cover `extent`: the extent rounded up to
// whole tiles (how full a kernel's tiles are is extent / tiles_cover).
constexpr std::int64_t tiles_cover(std::int64_t extent, std::int64_t tile) { return (extent + tile - 1) / tile * tile; }

// True when every output row (and matrix) starts on a 32-byte sector boundary, given an aligned base.
bool output_rows_sector_aligned(const TransposeDesc& resolved_desc);

// Whether the input (output) rows, and the matrices of a batch, lie back to back.
bool input_packed(const TransposeDesc& resolved_desc);
bool output_packed(const TransposeDesc& resolved_desc);

// Where 4- to 16-byte elements on the 16-byte grid with output rows mid-sector take tiled_unaligned
// rather than tiled_vec: large matrices whose input rows start mid-sector too, and large 8-byte ones
// whose input rows are off tiled_vec's band grid (see gpu_planner.cpp).
bool mid_sector_takes_unaligned(const TransposeDesc& resolved_desc);

// Bytes of the matrices' elements (a batch together), without the gaps of their strides.
std::int64_t matrix_bytes(const TransposeDesc& resolved_desc);

// A row or column vector whose elements lie side by side in the input and in the output (and, in a
// batch, matrices back to back on both sides): its transpose is a copy of the same bytes in the same
// order, which vector_copy hands to the runtime's device-to-device copy.
bool transpose_is_copy(const TransposeDesc& resolved_desc);

// Packed batches of matrices with a short side of at most 8 elements and 32 bytes and a long side of
// 1000 or more (1- to 8-byte elements; on the 16-byte grid for 1- and 2-byte ones, 2000 for tall
// 1-byte ones), or tall ones whose input rows are 16 or 32 bytes of 4- or 8-byte elements from 200
// rows: skinny, ahead of the batch rules (see gpu_planner.cpp).
bool batch_takes_skinny(const TransposeDesc& resolved_desc);

// Widest short side for which the planner picks the skinny kernel (slabs of the whole short side).
constexpr std::int64_t kSkinnyMaxShort = 16;

// Small matrices (all of a batch together) that the gather kernel takes where the 16-byte grid allows:
// at most gather_max_bytes(element size), at least kGatherMinExtent rows and columns; 16-byte
// elements up to kGatherWideElementMaxBytes where both sides have kGatherWideElementMinExtent.
constexpr std::int64_t gather_max_bytes(int esize) {
  return std::int64_t{esize == 2 || esize == 8 ? 8 : esize == 16 ? 4 : 1} << 20;
}
constexpr std::int64_t kGatherMinExtent = 64;
constexpr std::int64_t kGatherWideElementMaxBytes = std::int64_t{16} << 20;
constexpr std::int64_t kGatherWideElementMinExtent = 512;
bool gather_suits(const TransposeDesc& resolved_desc);
// 1-byte matrices of 2 MiB or more, 1024 or more on each side, under 32 MiB in all, with 16-byte
// accesses and output rows on the sector grid: tiled_vec's 8 KiB tiles of 64 rows, which store through
// ldmatrix (tiled_vec_ldmatrix.cuh).
bool one_byte_matrices_take_ldmatrix_tiles(const TransposeDesc& resolved_desc, int vector_bytes);
// 2-byte elements on tiled_vec's 8-byte grid only, under kVecMidMatrixBytes: 16 KiB tiles rather than the
// mid-size 8 KiB (tiled_vec_halves_mid_size_tiles) where those cover at most 9/8 of the 8 KiB tiles' bytes.
bool two_byte_eight_byte_grid_keeps_tiles(const TransposeDesc& resolved_desc, int vector_bytes);
// Batches of matrices of 33 to 128 rows and columns of 8-byte elements (to 48 of 16-byte ones)
// whose last 32-row tiled_vec tile would be at most half full, which gather's 16-row tiles fill
// better.
bool gather_fills_short_rows(const TransposeDesc& resolved_desc);
// Large batches of matrices of 2- and 4-byte elements, output rows on the sector grid, that
// tiled_vec's tiles would fill to less than three quarters: gather.
bool gather_fills_batch_tiles(const TransposeDesc& resolved_desc);
// Where the gather kernel runs at all: 16-byte aligned pointers and output row and batch strides on
// the 16-byte grid (it writes 16-byte vectors and reads whole elements, or words where it can).
bool gather_runs(const TransposeDesc& resolved_desc, int alignment);
// Whether an output pointer `out_offset` bytes past a 256-byte boundary (-1: unknown) lies inside a
// 32-byte sector.
constexpr bool output_pointer_in_sector(int out_offset) { return out_offset >= 0 && out_offset % 32 != 0; }
// Where an automatic gather plan gives way to tiled_vec: the output rows lie on the sector grid but the
// pointer inside a sector, and the matrices (a batch together) hold more than kGatherOffSectorMaxBytes,
// taken by gather for their size (gather_suits) or for tiled_vec's part-empty tiles of short rows or
// columns. gather's 32- and 64-byte output runs then cut a sector at each end (see gpu_planner.cpp).
constexpr std::int64_t kGatherOffSectorMaxBytes = std::int64_t{4} << 20;
bool gather_gives_way_off_sector(const TransposeDesc& resolved_desc, int out_offset);
// Where gather reads 2-byte elements as 4-byte words (two columns a load): input rows and matrices on
// the 4-byte grid.
bool gather_reads_words(const TransposeDesc& resolved_desc);
// Matrices of 2-byte elements under 8 MiB whose input rows are off tiled_vec's 8-byte grid and whose
// output rows lie on the sector grid: gather reads their input through the L1 faster than
// tiled_unaligned realigns it (see gpu_planner.cpp).
bool gather_takes_off_grid_input(const TransposeDesc& resolved_desc, int alignment);
// One pointer's alignment: the plan's `alignment` (both pointers') where the pointer's offset from a
// 256-byte boundary is unknown (-1), else the larger of that and the offset's own, up to 16 bytes.
int pointer_alignment(int alignment, int offset);
// Whether tiled_unaligned moves 1- and 2-byte elements in whole output chunks, without a halo
// (tiled_unaligned_grid_out): a 16-byte aligned output (`out_alignment`, the output pointer's) whose
// rows (and matrices) lie on that grid. The input pointer may lie anywhere.
bool unaligned_output_on_grid(const TransposeDesc& resolved_desc, int out_alignment);
// Whether tiled_unaligned moves 1- and 2-byte elements through output-row lines, its input chunks
// taken whole (tiled_unaligned_grid_in): a 16-byte aligned input whose rows (and matrices) lie on that
// grid, output rows off it (their stride, or the output pointer).
bool unaligned_input_on_grid(const TransposeDesc& resolved_desc, int in_alignment, int out_alignment);
// Few rows (16 to kGatherFewRowsMax for 2-byte elements, to skinny's caps for 4- and 8-byte ones) of
// packed output, strides off tiled_vec's grid (8-byte for 2-byte elements, 16-byte for wider ones),
// that gather serves better than skinny's slabs or tiled_unaligned's tiles (see gpu_planner.cpp).
bool gather_takes_few_rows(const TransposeDesc& resolved_desc, int alignment);
// Large tall matrices of 33 to 127 columns of 16-byte elements, output rows on the sector grid, whose
// last 32-column tiled_vec tile would be at most a quarter full: gather's threads past the last
// column do no work.
bool gather_fills_short_columns(const TransposeDesc& resolved_desc);

// tiled_sectors: the width of its input loads (16 or 8 bytes) for 1- and 2-byte elements whose
// pointers' alignment, input rows and batches allow 8 bytes or more and whose output rows lie on the
// 8-byte grid; 0 where it does not fit. tiled_sectors_suits: where `automatic` picks it (output rows
// off the 32-byte grid, large matrices of at least kSectorsMinRows rows and more than kSkinnyMaxShort
// columns).
int tiled_sectors_load_bytes(const TransposeDesc& resolved_desc, int alignment);
constexpr std::int64_t kSectorsMinRows = 2048;
bool tiled_sectors_suits(const TransposeDesc& resolved_desc, int alignment);
// tiled_sectors' tile rows of 128 bytes instead of 64 for 1-byte elements loaded load_bytes (8 or 16)
// at a time, on a GPU of sm_count SMs (see gpu_planner.cpp): single matrices of at least
// kSectorsWideRowsMinBytes and kSectorsWideRowsMinSide on each side, and matrices of whole wide tiles
// (kSectorsWideTileRows x kSectorsWideTileCols) that fit in one wave of kSectorsBlocksPerSm blocks per SM
// where the 64-byte-row tiles do not. The launcher checks the tile and the kernel's blocks per SM
// against these constants.
constexpr std::int64_t kSectorsWideRowsMinBytes = std::int64_t{128} << 20;
constexpr std::int64_t kSectorsWideRowsMinSide = 4096;
constexpr int kSectorsWideTileRows = 256;
constexpr int kSectorsWideTileCols = 128;
constexpr int kSectorsBlocksPerSm = 4;
bool tiled_sectors_wide_rows(const TransposeDesc& resolved_desc, int load_bytes, int sm_count);
// 1- and 2-byte elements whose output rows lie on the 8-byte grid but not the 16-byte one, input on
// the 16-byte grid, that tiled_sectors leaves to tiled_vec's 8-byte accesses: tiled_unaligned's line
// tiles where the matrices have a tile of rows and make enough tiles to fill the GPU (2-byte
// elements, and single 1-byte matrices; see gpu_planner.cpp).
bool lines_take_mid_sector_output(const TransposeDesc& resolved_desc, int alignment);
// tiled_unaligned's line tiles: bytes of output row (kLineTileOutBytes / E rows) by columns; the
// fastest of seven shapes on an H200 (bench/results/h200_2026-11-25zk_lines_shapes*.txt).
constexpr int kLineTileOutBytes = 224;
constexpr int kLineTileCols = 64;
// tiled_unaligned's whole-chunk tiles: bytes of output row (kWholeChunkTileOutBytes / E rows); the
// fastest of six shapes on an H200 (bench/results/h200_2026-11-25zj_grid_out_shapes.txt).
constexpr int kWholeChunkTileOutBytes = 128;

// Most rows the skinny kernel's slab-of-columns path (skinny_rows_vec) takes (fewer for wide
// elements: its slabs must fit its shared memory), and most the planner sends it.
constexpr std::int64_t kSkinnyRowsVecMaxRows = 128;
constexpr std::int64_t kSkinnyFewRowsMax = kSkinnyRowsVecMaxRows;  // 1-byte elements
constexpr std::int64_t kSkinnyFewRowsMaxHalfwords = 84;             // 2-byte elements
constexpr std::int64_t kSkinnyFewRowsMaxWords = 40;                 // 4-byte elements off the 16-byte grid
constexpr std::int64_t kSkinnyFewRowsMaxWide = 33;                  // 8-byte elements off the 16-byte grid
// Most rows gather_takes_few_rows gives gather.
constexpr std::int64_t kGatherFewRowsMax = 100;
// Most rows of packed output the planner gives skinny, by element size (none of 16-byte elements).
constexpr std::int64_t skinny_few_rows_max(std::int64_t element_bytes) {
  return element_bytes == 1   ? kSkinnyFewRowsMax
         : element_bytes == 2 ? kSkinnyFewRowsMaxHalfwords
         : element_bytes == 4 ? kSkinnyFewRowsMaxWords
         : element_bytes == 8 ? kSkinnyFewRowsMaxWide
                              : 0;
}
// Matrices with a short side of more than kSkinnyMaxShort elements that the skinny kernel still
// takes (see gpu_planner.cpp): 17 to 128 rows of one-byte elements, to 84 two-byte ones (128 where
// the output rows are padded), to 40 four-byte ones or to 33 eight-byte ones off tiled_vec's grid
// (8-byte for 1- and 2-byte elements, 16-byte for wider ones); tall matrices of 2- to 8-byte
// elements with rows of at most 32 bytes, of 1-byte ones with rows of at most 16 (packed 16 columns
// from 4 MiB), or of 17 to 24-33 columns (by element size) off tiled_vec's grid, and tall ones of 17
// to 127 columns (packed, or with small gaps between input rows) that skinny's few-columns kernel
// serves better than the tiles.
bool short_side_takes_skinny(const TransposeDesc& resolved_desc, int alignment);
// Few rows (the short side) of 1- and 2-byte elements, output rows on the 16-byte grid that fill three
// quarters of 128-byte tile rows, input off tiled_vec's grid: tiled_unaligned's whole-chunk tiles
// rather than skinny or gather.
bool few_rows_take_whole_chunks(const TransposeDesc& resolved_desc, int alignment);

// 9 to 48 rows of 1- and 2-byte elements into packed output rows on the 16-byte grid (by the strides;
// the pointers are checked at launch), from 8 MiB: skinny's wide-rows register kernel runs them, and
// the planner gives them skinny (see gpu_planner.cpp).
constexpr std::int64_t kSkinnyRegsWideMinRows = 9;
constexpr std::int64_t kSkinnyRegsWideMaxRows = 48;
bool skinny_rows_regs_wide_runs(const TransposeDesc& resolved_desc);
// Where the planner gives those rows skinny: on pointers aligned to 8 bytes or more, except where tiled_vec runs
// on its 16-byte grid with output rows of a sector or more, or tiled_unaligned's whole-chunk tiles do.
bool few_rows_take_wide_registers(const TransposeDesc& resolved_desc, int alignment);

// The mirror: 12 to 24 columns of 1- and 2-byte elements with packed input rows, output rows on the
// grid of the bytes a thread writes to each (skinny_cols_regs_wide_piece_bytes) and, but for 8 bytes
// of 1-byte elements, on the 32-byte sector grid, from 8 MiB: skinny's wide-columns register kernel
// runs them, and the planner gives them skinny on 16-byte aligned pointers (see gpu_planner.cpp).
constexpr std::int64_t kSkinnyColsRegsWideMinCols = 12;
constexpr std::int64_t kSkinnyColsRegsWideMaxCols = 24;
constexpr int skinny_cols_regs_wide_piece_bytes(std::int64_t cols) { return cols <= 16 ? 8 : 4; }
bool skinny_cols_regs_wide_runs(const TransposeDesc& resolved_desc);
bool few_cols_take_wide_registers(const TransposeDesc& resolved_desc, int alignment);

// Matrices of 10 to 16 rows on the 16-byte grid, in whole 16-byte output vectors, that tiled_vec's
// 16-row tiles serve better than the skinny kernel (see gpu_planner.cpp).
bool few_rows_take_tiles(const TransposeDesc& resolved_desc, int alignment);

// skinny's few-columns kernel (skinny_cols_vec: a slab of input rows read as one run of 16-byte
// chunks, whole output sectors): where it runs - tall matrices, up to kSkinnyMaxShort columns of 1- to
// 4-byte elements (8-byte ones from 8 columns) or up to kSkinnyColsVecMaxCols of 1- to 8-byte ones (a
// slab of twice 32 / E rows, its own and the halo, fits the kernel's 16 KiB), of packed input rows or
// rows padded by little enough that reading the gaps pays (at most 64 bytes apart, or ld_in at most
// twice the columns, and at most kSkinnyColsVecMaxCols). Where the planner sends tall matrices past
// kSkinnyMaxShort columns to it: short_side_takes_skinny.
constexpr std::int64_t kSkinnyColsVecMaxCols = 255;
bool skinny_cols_vec_runs(const TransposeDesc& resolved_desc);

// Batches of small matrices that the small_batch kernel takes (several whole matrices per block): at
// most kSmallBatchMaxMatrixBytes each; see gpu_planner.cpp for the rule. Past that a block takes one
// whole matrix, up to `whole_matrix_bytes`: kSmallBatchMaxWholeMatrixBytes on every device (its
// tile, with the input's shift within 16 bytes and rounded up to whole 128-byte lines, fills at most
// 64 KiB of shared memory, which AMD's work-groups allow too), more where two blocks of a device's SM
// hold more (small_batch_whole_matrix_bytes_for; gpu::small_batch_whole_matrix_bytes asks the device).
constexpr std::int64_t kSmallBatchMaxMatrixBytes = 16384;  // the kernel's tile of several matrices (small_batch.cuh)
constexpr std::int64_t kSmallBatchMaxWholeMatrixBytes = 65536 - 128;
std::int64_t small_batch_whole_matrix_bytes_for(std::int64_t shared_per_block_optin, std::int64_t shared_per_sm,
                                                std::int64_t reserved_per_block);
bool small_batch_suits(const TransposeDesc& resolved_desc, int alignment,
                       std::int64_t whole_matrix_bytes = kSmallBatchMaxWholeMatrixBytes);
// Batches of 8 to 64 KiB 1- and 2-byte matrices that tiled_vec serves at 8 bytes better than
// small_batch's in-order reads of vectors wrapping into the next column (see gpu_planner.cpp).
bool tiled_vec_takes_wrapping_batch(const TransposeDesc& resolved_desc, int alignment);
// Batches of matrices of at most 8 KiB of 2- to 16-byte elements, output rows on the sector grid,
// that tiled_vec's 4 KiB tiles fill to three quarters or more: tiled_vec takes them, in those tiles,
// where the 16-byte grid allows (see gpu_planner.cpp).
bool small_tiles_fill_batch(const TransposeDesc& resolved_desc);
// Where small_batch runs at all: matrices that fit its tile, batches of matrices of at most
// `whole_matrix_bytes` (one per block), or one matrix whose short side fits the tile
// kSmallBatchMinSlab times (slabs of the long side).
constexpr std::int64_t kSmallBatchMinSlab = 32;
bool small_batch_fits(const TransposeDesc& resolved_desc,
                      std::int64_t whole_matrix_bytes = kSmallBatchMaxWholeMatrixBytes);
// Where small_batch reads a swizzled tile: rows of 64 bytes or more (128 for 16-byte elements, which
// the kernel also needs on a 16-byte aligned input) that are a power of two of bytes or a multiple of
// 8 elements.
bool small_batch_swizzled(const TransposeDesc& resolved_desc);

// Matrices (and batches) of 512 KiB or more of 41 to 96 rows of 4-byte elements or 34 to 48 of 8-byte ones,
// and of 8 MiB or more of 85 to 128 rows of 2-byte ones with packed output rows: skinny's slabs run them
// (few_rows_output_slabs_run, a candidate of the measured planner), and
// the automatic plan takes them where the tiles would run and the output rows, or the output pointer
// `out_offset` bytes past a 256-byte boundary (-1: unknown) of packed rows, lie off the 16-byte grid; 2-byte
// elements only where tiled_vec cannot run on `alignment` (see gpu_planner.cpp).
bool few_rows_output_slabs_run(const TransposeDesc& resolved_desc);
bool few_rows_output_off_grid_take_slabs(const TransposeDesc& resolved_desc, int alignment, int out_offset);

// The algorithm `automatic` becomes on the GPU, for whole matrices of up to `whole_matrix_bytes` in
// small_batch (the device's: gpu::small_batch_whole_matrix_bytes) and an output pointer `out_offset`
// bytes past a 256-byte boundary (-1: unknown; see gather_gives_way_off_sector).
Algorithm choose_gpu_algorithm(const TransposeDesc& resolved_desc, int alignment,
                               std::int64_t whole_matrix_bytes = kSmallBatchMaxWholeMatrixBytes, int out_offset = -1);

// Single large matrices of a few tens of rows (33 to 80 of 4- and 8-byte elements, 65 to 128 of
// 16-byte ones) whose last 32-row tile would be at most half full, output rows on the sector grid,
// and 33 to 64 rows of 8-byte elements on the 8-byte grid only: tiled_vec takes 8 KiB tiles of 16
// rows (see gpu_planner.cpp).
bool tiled_vec_sixteen_row_tiles(const TransposeDesc& resolved_desc, int vector_bytes);
// Matrices (and batches) of 64 MiB or more of 2-byte elements with 16-byte accesses, 128 rows and
// columns or more, that would take 16 KiB tiles: tiled_vec takes 32 KiB ones (see gpu_planner.cpp).
bool two_byte_matrices_take_large_tiles(const TransposeDesc& resolved_desc, int vector_bytes);

// Tile, grid and vector width of tiled_vec for this descriptor on a GPU of `sm_count` SMs (0 if
// unknown); unsupported where no width fits. One block per tile.
Status configure_tiled_vec(const TransposeDesc& resolved_desc, int alignment, int sm_count, LaunchConfig& config);

// tiled_vec with a given tile (bytes of shared memory) and tile row width (bytes); unsupported where
// no kernel of that shape is built or no vector width fits. The measured planner's candidates.
Status configure_tiled_vec_tile(const TransposeDesc& resolved_desc, int alignment, int tile_bytes, int row_bytes,
                                LaunchConfig& config);

// tiled_vec for pointers `in_offset` / `out_offset` bytes past a 256-byte boundary, with strides on
// the 16- (or 8-) byte grid: the tile chosen as for aligned pointers, its grid moved to start
// lead_rows x lead_cols before the matrix so that the tiles inside meet aligned accesses (and 256-byte
// blocks, as far as the strides allow). Unsupported where the strides are off the grid, the pointers
// need no move, the matrix has too few tiles for the lead it needs, or aligned pointers would not
// take tiled_vec.
Status configure_led_tiled_vec(const TransposeDesc& resolved_desc, int in_offset, int out_offset, int sm_count,
                               std::int64_t whole_matrix_bytes, LaunchConfig& config);

// tiled_vec for an input on the 16-byte grid and an output pointer `out_offset` bytes off the 8-byte
// grid (element multiples) whose packed rows are one tile tall (64 or 128 elements of 1 or 2 bytes):
// each tile's contiguous output run staged and written shifted (LaunchConfig::shifted_output).
// `automatic`: only where aligned pointers would take tiled_vec (a plan asked for by name skips that).
Status configure_shifted_output_tiled_vec(const TransposeDesc& resolved_desc, int in_offset, int out_offset,
                                          bool automatic, std::int64_t whole_matrix_bytes, LaunchConfig& config);

// Whether a tiled_vec plan was made for its pointers' offsets (led, or shifted output): execute
// checks them, and the measured planner keys its cache on them.
inline bool fitted_to_offsets(const LaunchConfig& c) {
  return c.lead_rows > 0 || c.lead_cols > 0 || c.shifted_output;
}

}  // namespace xpose::plan
