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

// Threads of both passes' blocks.
constexpr int kShuffleThreads = 256;

// A column block's rows of up to 128 bytes (a line), as long as its columns stay under this many
// bytes of shared memory; beyond it narrower rows (down to one element) up to the device's limit.
constexpr std::int64_t kShuffleColumnBlockBytes = 32 * 1024;
// The row pass takes as many rows a block as fit this (at least one).
constexpr std::int64_t kShuffleRowBlockBytes = 16 * 1024;

// The passes run on the buffer seen as view_rows x view_cols. Directly (transposed_view false: the
// input's m x n), pass 1 gathers each column rotated (where gcd(m, n) > 1), pass 2 scatters each row,
// pass 3 gathers each column to its final rows. Transposed (the buffer seen as n x m), the same three
// passes for the n x m matrix, which compute the inverse permutation, run inverted and in reverse
// order: column scatters and a row gather. Either way a column block holds view_rows x column_width
// elements, a row block rows_per_block x view_cols, so the view is picked where they fit.
struct ShuffleConfig {
  bool transposed_view = false;
  std::int64_t view_rows = 0, view_cols = 0;
  bool rotate = false;                // gcd(m, n) > 1: pass 1 runs
  int column_width = 0;               // elements of a column block, a power of two
  std::int64_t rows_per_block = 0;    // of the row pass
  std::int64_t column_blocks = 0;     // per matrix
  std::int64_t row_blocks = 0;        // per matrix
  std::int64_t column_smem_bytes = 0; // view_rows x column_width elements
  std::int64_t row_smem_bytes = 0;    // rows_per_block x view_cols elements
};

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
// columns (one element wide) and rows fit.
Status choose_in_place_shuffles(const TransposeDesc& resolved_desc, std::int64_t shared_limit, ShuffleConfig& config);

}  // namespace xpose::plan
