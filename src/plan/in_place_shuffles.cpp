// Planning the GPU's non-square in-place transpose: the view whose columns and rows fit shared memory
// (else whose columns fit, its rows going through scratch), column blocks as wide as a line where they
// fit, several short rows a block.
#include "plan/in_place_shuffles.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

namespace xpose::plan {
namespace {

std::int64_t bit_ceil(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

// Row blocks of `rows` rows, rounded up to whole swizzle groups.
std::int64_t row_block_bytes(std::int64_t rows, std::int64_t cols, std::int64_t esize) {
  const std::int64_t group = shuffle_row_group_elements(static_cast<int>(esize));
  return (rows * cols + group - 1) / group * group * esize;
}

// Swizzle where the plain scatter conflicts 8 ways or worse and the swizzle at least halves that.
constexpr int kSwizzleFromWays = 8;

// The blocks for one view, or false where its columns (one element wide) do not fit, or its rows do
// not and `long_rows` is false. Rows past shared memory go through scratch (long_rows).
bool fit_view(std::int64_t rows, std::int64_t cols, std::int64_t esize, std::int64_t shared_limit, int column_bytes,
              bool long_rows, ShuffleConfig& c) {
  if (rows * esize > shared_limit) return false;
  const bool rows_fit = row_block_bytes(1, cols, esize) <= shared_limit;
  if (!rows_fit && !long_rows) return false;
  // Column rows of shuffle_column_piece_bytes, or the widest narrower piece that fits the device.
  std::int64_t piece = 0;
  const bool power_of_two = column_bytes > 0 && (column_bytes & (column_bytes - 1)) == 0;
  const bool forced = power_of_two && column_bytes >= esize && column_bytes <= 128 && rows * column_bytes <= shared_limit;
  if (forced) piece = column_bytes;
  for (std::int64_t p = shuffle_column_piece_bytes(static_cast<int>(esize)); piece == 0 && p >= esize; p /= 2)
    if (rows * p <= shared_limit) piece = p;
  // Short columns: as many a block as give each thread kShuffleColumnElementsPerThread elements, up to
  // one column a thread.
  std::int64_t width = piece / esize;
  while (!forced && width < kShuffleColumnThreads &&
         rows * width < kShuffleColumnThreads * kShuffleColumnElementsPerThread && rows * width * 2 * esize <= shared_limit)
    width *= 2;
  c.view_rows = rows;
  c.view_cols = cols;
  c.column_width = static_cast<int>(std::min(width, bit_ceil(cols)));
  c.column_blocks = (cols + c.column_width - 1) / c.column_width;
  c.column_smem_bytes = rows * c.column_width * esize;
  if (!rows_fit) {
    // A share of the matrix as scratch, at least one row.
    const std::int64_t row_bytes = cols * esize;
    const std::int64_t budget = std::min(kShuffleScratchMaxBytes, rows * row_bytes / kShuffleScratchShare);
    c.long_rows = true;
    c.staged_rows = std::clamp<std::int64_t>(budget / row_bytes, 1, rows);
    c.scratch_bytes = c.staged_rows * row_bytes;
    // Tiles (rows x long_tile, one padding element a row) within kShuffleLongTileBytes and the device.
    if (cols % rows == 0 && rows * 2 * esize <= shared_limit) {
      c.long_tile = std::clamp<std::int64_t>(kShuffleLongTileBytes / (rows * esize) - 1, 1, cols / rows);
      while (c.long_tile > 1 && rows * (c.long_tile + 1) * esize > shared_limit) --c.long_tile;
    }
    return true;
  }
  c.rows_per_block = std::clamp<std::int64_t>(kShuffleRowBlockBytes / (cols * esize), 1, rows);
  while (c.rows_per_block > 1 && row_block_bytes(c.rows_per_block, cols, esize) > shared_limit) --c.rows_per_block;
  c.row_blocks = (rows + c.rows_per_block - 1) / c.rows_per_block;
  const ShuffleShape shape = make_shuffle_shape(rows, cols);
  const int plain = row_scatter_ways(shape, c.rows_per_block, static_cast<int>(esize), false);
  c.swizzle_rows = plain >= kSwizzleFromWays &&
                   2 * row_scatter_ways(shape, c.rows_per_block, static_cast<int>(esize), true) <= plain;
  c.row_smem_bytes = c.swizzle_rows ? row_block_bytes(c.rows_per_block, cols, esize) : c.rows_per_block * cols * esize;
  return true;
}

}  // namespace

Status choose_in_place_shuffles(const TransposeDesc& d, std::int64_t shared_limit, ShuffleConfig& config,
                                int column_bytes, int alignment) {
  const std::int64_t esize = static_cast<std::int64_t>(dtype_size(d.dtype));
  // One row or one column: the transpose has the same bytes, and nothing runs.
  if (d.rows == 1 || d.cols == 1) {
    config = ShuffleConfig{};
    config.view_rows = d.rows;
    config.view_cols = d.cols;
    return Status::ok_status();
  }
  // The kernels' maps run in 32-bit arithmetic.
  if (std::max(d.rows, d.cols) >= kShuffleMaxSide)
    return Status(StatusCode::unsupported, "an in-place transpose of a " + std::to_string(d.rows) + " x " +
                                               std::to_string(d.cols) + " matrix on the GPU takes sides under 2^31 "
                                               "elements; transpose it into a second buffer, or in place on the CPU");
  ShuffleConfig direct, transposed;
  // Rows through scratch only where no view's rows fit; at most one view's columns fit then.
  bool direct_fits = fit_view(d.rows, d.cols, esize, shared_limit, column_bytes, false, direct);
  bool transposed_fits = fit_view(d.cols, d.rows, esize, shared_limit, column_bytes, false, transposed);
  if (!direct_fits && !transposed_fits) {
    direct_fits = fit_view(d.rows, d.cols, esize, shared_limit, column_bytes, true, direct);
    transposed_fits = fit_view(d.cols, d.rows, esize, shared_limit, column_bytes, true, transposed);
  }
  if (!direct_fits && !transposed_fits)
    return Status(StatusCode::unsupported,
                  "an in-place transpose of a " + std::to_string(d.rows) + " x " + std::to_string(d.cols) +
                      " matrix on the GPU needs a column of its shorter side in one block's shared memory (" +
                      std::to_string(std::min(d.rows, d.cols) * esize) + " bytes; this device has " +
                      std::to_string(shared_limit) + "); transpose it into a second buffer, or in place on the CPU");
  transposed.transposed_view = true;
  // Wider column rows first (whole sectors and lines), then the smaller column blocks.
  const bool take_transposed =
      transposed_fits &&
      (!direct_fits || transposed.column_width > direct.column_width ||
       (transposed.column_width == direct.column_width && transposed.column_smem_bytes < direct.column_smem_bytes));
  config = take_transposed ? transposed : direct;
  config.rotate = std::gcd(d.rows, d.cols) > 1;
  const std::int64_t word = shuffle_word_elements(static_cast<int>(esize));
  const bool words = word > 1 && alignment % 4 == 0 && config.view_cols % word == 0 &&
                     (d.batch == 1 || d.batch_stride_in % word == 0);
  config.column_words = words && config.column_width % word == 0;
  config.row_words = words && !config.long_rows;
  if (config.column_words) config.column_word_loads = 2 * config.column_smem_bytes > shared_limit ? 8 : 4;
  return Status::ok_status();
}

int row_scatter_ways(const ShuffleShape& s, std::int64_t rows_per_block, int esize, bool swizzled) {
  const std::int64_t items = std::min(rows_per_block, s.rows) * s.cols;
  const std::int64_t lanes = esize >= 4 ? 128 / esize : 32;  // a warp, or the lanes of one 128-byte wavefront
  int worst = 1;
  for (std::int64_t first = 0; first < std::min<std::int64_t>(items, 64 * lanes); first += lanes) {
    std::vector<std::set<std::int64_t>> words(32);  // distinct words asked of each bank
    for (std::int64_t e = first; e < std::min(items, first + lanes); ++e) {
      const std::int64_t rr = e / s.cols, x = rr * s.cols + scatter_column(s, rr, e % s.cols);
      const std::int64_t slot = swizzled ? shuffle_row_slot(static_cast<std::uint32_t>(x), esize) : x;
      for (std::int64_t w = slot * esize / 4; w <= (slot * esize + esize - 1) / 4; ++w)
        words[static_cast<std::size_t>(w % 32)].insert(w);
    }
    for (const auto& bank : words) worst = std::max(worst, static_cast<int>(bank.size()));
  }
  return worst;
}

int shuffle_passes(const ShuffleConfig& c, ShufflePass passes[3]) {
  int n = 0;
  if (!c.transposed_view) {
    if (c.rotate) passes[n++] = {ShuffleMap::rotation, false};
    passes[n++] = {ShuffleMap::rows, false};
    passes[n++] = {ShuffleMap::final_rows, false};
  } else {
    passes[n++] = {ShuffleMap::final_rows, true};
    passes[n++] = {ShuffleMap::rows, true};
    if (c.rotate) passes[n++] = {ShuffleMap::rotation, true};
  }
  return n;
}

}  // namespace xpose::plan
