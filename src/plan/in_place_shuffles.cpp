// Planning the GPU's non-square in-place transpose: the view whose columns and rows fit shared memory,
// column blocks as wide as a line where they fit, several short rows a block.
#include "plan/in_place_shuffles.hpp"

#include <algorithm>
#include <numeric>

namespace xpose::plan {
namespace {

std::int64_t bit_ceil(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

// The blocks for one view, or false where its columns (one element wide) or rows do not fit.
bool fit_view(std::int64_t rows, std::int64_t cols, std::int64_t esize, std::int64_t shared_limit, ShuffleConfig& c) {
  if (cols * esize > shared_limit || rows * esize > shared_limit) return false;
  // Column rows of 128, 64 or 32 bytes within the block target; else the widest that fits the device.
  std::int64_t piece = 0;
  for (const std::int64_t p : {128, 64, 32})
    if (p >= esize && rows * p <= kShuffleColumnBlockBytes) {
      piece = p;
      break;
    }
  if (piece == 0)
    for (std::int64_t p = 32; p >= esize; p /= 2)
      if (rows * p <= shared_limit) {
        piece = p;
        break;
      }
  c.view_rows = rows;
  c.view_cols = cols;
  c.column_width = static_cast<int>(std::min(piece / esize, bit_ceil(cols)));
  c.column_blocks = (cols + c.column_width - 1) / c.column_width;
  c.column_smem_bytes = rows * c.column_width * esize;
  c.rows_per_block = std::clamp<std::int64_t>(kShuffleRowBlockBytes / (cols * esize), 1, rows);
  c.row_blocks = (rows + c.rows_per_block - 1) / c.rows_per_block;
  c.row_smem_bytes = c.rows_per_block * cols * esize;
  return true;
}

}  // namespace

Status choose_in_place_shuffles(const TransposeDesc& d, std::int64_t shared_limit, ShuffleConfig& config) {
  const std::int64_t esize = static_cast<std::int64_t>(dtype_size(d.dtype));
  ShuffleConfig direct, transposed;
  const bool direct_fits = fit_view(d.rows, d.cols, esize, shared_limit, direct);
  const bool transposed_fits = fit_view(d.cols, d.rows, esize, shared_limit, transposed);
  if (!direct_fits && !transposed_fits)
    return Status(StatusCode::unsupported,
                  "an in-place transpose of a " + std::to_string(d.rows) + " x " + std::to_string(d.cols) +
                      " matrix on the GPU needs a row and a column of it in one block's shared memory (" +
                      std::to_string(std::max(d.rows, d.cols) * esize) + " bytes; this device has " +
                      std::to_string(shared_limit) + "); transpose it into a second buffer, or in place on the CPU");
  transposed.transposed_view = true;
  // Wider column rows first (whole sectors and lines), then the smaller column blocks.
  const bool take_transposed =
      transposed_fits &&
      (!direct_fits || transposed.column_width > direct.column_width ||
       (transposed.column_width == direct.column_width && transposed.column_smem_bytes < direct.column_smem_bytes));
  config = take_transposed ? transposed : direct;
  config.rotate = std::gcd(d.rows, d.cols) > 1;
  return Status::ok_status();
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
