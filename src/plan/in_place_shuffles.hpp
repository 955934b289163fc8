// The GPU's in-place transpose of non-square matrices: which view of the buffer its passes run on,
// and how the column and row passes cut it into blocks that each hold whole columns or whole rows
// in shared memory.
#pragma once

#include <cstdint>
#include <string>

#include "plan/shuffle_maps.hpp"
#include "xpose/descriptor.hpp"
#include "xpose/status.hpp"

namespace xpose::plan {

// Threads of the column passes' blocks (which shared memory often holds to one per SM) and of the
// row pass's.
constexpr int kShuffleColumnThreads = 1024;
constexpr int kShuffleRowThreads = 256;

// A column block's piece of each row, in bytes, where its columns fit a block's shared memory (else
// narrower, down to one element). Measured on an H200 (ratios to memcpy, in place, 32 / 64 / 128
// bytes): c128 1000 x 3000 0.19 / 0.25 / 0.34, c128 4096 x 1024 0.17 / 0.22 / 0.29, f32 1000 x 3000
// 0.29 / 0.31 / 0.34 (f32 8192 x 2048, whose 2048-row columns fit 64: 0.22 / 0.24); u8 1000 x 3000
// 0.19 / 0.14 / 0.09, whose byte-wide loads need the warps of two blocks per SM more than whole lines.
constexpr std::int64_t shuffle_column_piece_bytes(int esize) { return esize <= 2 ? 32 : 128; }
// Columns of few rows are taken many to a block (up to one a thread), so that each thread moves this
// many elements: one column block of 4 rows per 1024-thread block ran f32 4194304 x 4's column pass in
// 961 us, 87% of the threads idle.
constexpr std::int64_t kShuffleColumnElementsPerThread = 16;
// The row pass takes as many rows a block as fit this (at least one).
constexpr std::int64_t kShuffleRowBlockBytes = 16 * 1024;
// Rows longer than a block's shared memory are copied into scratch device memory, as many at a time
// as fit a share of the matrix (1 / kShuffleScratchShare of it, at most kShuffleScratchMaxBytes), but
// at least one row (which may be more), and moved back from there.
constexpr std::int64_t kShuffleScratchShare = 8;
constexpr std::int64_t kShuffleScratchMaxBytes = std::int64_t{64} << 20;
// Sides of the matrix stay under this many elements (the kernels' 32-bit maps).
constexpr std::int64_t kShuffleMaxSide = std::int64_t{1} << 31;

// Where element x of a row block lies in shared memory: its cell (one 4-byte bank word of 1- or 2-byte
// elements, or one element) is XOR-ed, within its group of 32 cells, with the 5-bit digits of the
// group's number. The row pass scatters a row's elements rows mod cols apart, often a power of two,
// which plain rows put in one bank (32 lanes, 32-way conflicts); swizzled, such lanes fall in
// different banks. A bijection on each group of 32 cells, so a block holds its elements rounded up to
// whole groups. Taken only where the plain rows' scatter conflicts 8 ways or worse
// (row_scatter_ways): on an H200 the swizzle cost u8 16384 x 4096 in place 16% (416 against 350 us),
// whose scatter conflicts 4 ways, and gained on u8 65536 x 1024 (624 -> 461 us), 32 ways.
constexpr std::uint32_t shuffle_row_slot(std::uint32_t x, int esize) {
  const std::uint32_t unit = esize >= 4 ? 1 : 4 / esize;
  const std::uint32_t cell = x / unit, group = cell >> 5;
  const std::uint32_t fold = (group ^ (group >> 5) ^ (group >> 10) ^ (group >> 15)) & 31;
  return (cell ^ fold) * unit + x % unit;
}
constexpr std::int64_t shuffle_row_group_elements(int esize) { return 32 * (esize >= 4 ? 1 : 4 / esize); }

// The passes run on the buffer seen as view_rows x view_cols. Directly (transposed_view false: the
// input's m x n), pass 1 gathers each column rotated (where gcd(m, n) > 1), pass 2 scatters each row,
// pass 3 gathers each column to its final rows. Transposed (the buffer seen as n x m), the same three
// passes for the n x m matrix, which compute the inverse permutation, run inverted and in reverse
// order: column scatters and a row gather. Either way a column block holds view_rows x column_width
// elements, a row block rows_per_block x view_cols, so the view is picked where they fit. Where no
// view's rows fit (long_rows), the view whose columns fit is taken, and its row pass copies
// staged_rows rows at a time into scratch_bytes of scratch and moves each element back from there.
struct ShuffleConfig {
  bool transposed_view = false;
  std::int64_t view_rows = 0, view_cols = 0;
  bool rotate = false;                // gcd(m, n) > 1: pass 1 runs
  int column_width = 0;               // elements of a column block, a power of two
  std::int64_t rows_per_block = 0;    // of the row pass
  std::int64_t column_blocks = 0;     // per matrix
  std::int64_t row_blocks = 0;        // per matrix
  std::int64_t column_smem_bytes = 0; // view_rows x column_width elements
  bool swizzle_rows = false;          // the row blocks' elements at shuffle_row_slot
  std::int64_t row_smem_bytes = 0;    // rows_per_block x view_cols elements (swizzled: in whole groups)
  bool long_rows = false;             // rows through scratch (rows_per_block, row_blocks, row_smem_bytes 0)
  std::int64_t staged_rows = 0;       // rows a scratch round holds
  std::int64_t scratch_bytes = 0;     // staged_rows rows
  // Long rows where view_rows divides view_cols: each row's scatter is a transpose of the row seen as
  // view_rows x (view_cols / view_rows), its short index rotated, moved in tiles of view_rows x
  // long_tile elements (else element by element).
  std::int64_t long_tile = 0;
  // 1- and 2-byte elements: the column passes (column_words) and the row pass (row_words) move 4-byte
  // words on the side of each pass where a thread's elements are neighbours in memory, and split or
  // gather them in shared memory; see shuffle_word_elements.
  bool column_words = false, row_words = false;
  // Words a thread of the column passes loads before the first lands in shared memory: 8 where one
  // column block takes more than half of a block's shared memory (one block an SM: u8 16384 x 4096's
  // column pass 115 -> 103 us on an H200), else 4, which keeps the kernel at 32 registers and two
  // blocks an SM (u8 65536 x 1024's 116 -> 126 us at 8).
  int column_word_loads = 0;
};

// Elements of one 4-byte word for 1- and 2-byte elements, else 1. A word of a view row is aligned
// where the pointer is aligned to 4 bytes and the view's rows and the batch stride are whole words.
// The column blocks then give each thread one word of a row (column_width at least a word); the row
// blocks, whose rows are packed, one word of their run (not for rows through scratch).
constexpr int shuffle_word_elements(int esize) { return esize <= 2 ? 4 / esize : 1; }

// Tiles of the long rows' transposes hold about this much (at least one column of view_rows).
constexpr std::int64_t kShuffleLongTileBytes = 16 * 1024;

// The worst bank conflict (accesses serialised in one bank) of the row pass's scatter into shared
// memory over the first warps of a row block of `rows_per_block` rows, plain or swizzled: a warp's
// lanes, or for 8- and 16-byte elements the lanes of one 128-byte wavefront, each element's 4-byte
// words counted.
int row_scatter_ways(const ShuffleShape& shape, std::int64_t rows_per_block, int esize, bool swizzled);

// One pass: which map, and whether it runs inverted (column scatters and row gathers).
enum class ShuffleMap { rotation, rows, final_rows };
struct ShufflePass {
  ShuffleMap map;
  bool inverse;
};

// The passes of `config`, in the order they run: 2 or 3 (pass 1 only where gcd(m, n) > 1), written to
// `passes`.
int shuffle_passes(const ShuffleConfig& config, ShufflePass passes[3]);

// The configuration for a resolved non-square descriptor (packed rows) on a device whose blocks can
// hold `shared_limit` bytes of shared memory. unsupported, with a message, where neither view's
// columns fit (one element wide: both sides longer than the shared memory holds) or a side reaches
// kShuffleMaxSide. A matrix of one row or one column gets a config whose view has that extent 1:
// nothing to move. column_bytes > 0 asks for column blocks of that many
// bytes a row (a power of two, at least the element, at most 128) where they fit, for measuring.
// `alignment`: the bytes the data pointer is aligned to (a power of two), which words need.
Status choose_in_place_shuffles(const TransposeDesc& resolved_desc, std::int64_t shared_limit, ShuffleConfig& config,
                                int column_bytes = 0, int alignment = 1);

}  // namespace xpose::plan
