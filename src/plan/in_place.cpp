// Planning the in-place transpose: access width from the alignment and strides, then tiles and grid.
#include "plan/in_place.hpp"

#include <algorithm>

namespace xpose::plan {

int in_place_vector_bytes(const TransposeDesc& d, int alignment) {
  const std::int64_t esize = static_cast<std::int64_t>(dtype_size(d.dtype));
  for (const int v : {16, 8}) {
    if (v < esize || alignment % v != 0 || d.ld_in * esize % v != 0) continue;
    if (d.batch > 1 && d.batch_stride_in * esize % v != 0) continue;
    return v;
  }
  return 0;
}

int small_squares_access_bytes(const TransposeDesc& d, int alignment) {
  const std::int64_t esize = static_cast<std::int64_t>(dtype_size(d.dtype));
  int w = 16;
  while (w > esize && (alignment % w != 0 || d.cols * esize % w != 0 || d.ld_in * esize % w != 0 ||
                       (d.batch > 1 && d.batch_stride_in * esize % w != 0)))
    w /= 2;
  return w;
}

InPlaceConfig choose_in_place(const TransposeDesc& d, int alignment) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  InPlaceConfig c;
  if (d.rows < in_place_tile_edge(esize, InPlaceKernel::vectors)) {
    c.kernel = InPlaceKernel::small_squares;
    c.vector_bytes = small_squares_access_bytes(d, alignment);
    c.tile = static_cast<int>(d.rows);
    c.threads = kSmallSquaresBlockThreads;
    c.pairs = 1;
    // Rows a few words longer than their bytes: a warp reads a column's elements from rows
    // `vector_bytes` / esize apart, which the extra words spread over the banks.
    c.row_pitch = static_cast<int>(d.cols) * esize + std::max(c.vector_bytes, 4);
    const std::int64_t matrix_bytes = std::max<std::int64_t>(1, std::int64_t{c.tile} * c.row_pitch);
    c.matrices_per_block = static_cast<int>(std::clamp<std::int64_t>(
        kSmallSquaresSharedBytes / matrix_bytes, 1, std::min<std::int64_t>(d.batch, kSmallSquaresMaxPerBlock)));
    c.blocks = std::min((d.batch + c.matrices_per_block - 1) / c.matrices_per_block, kInPlaceMaxBlocks);
    return c;
  }
  c.vector_bytes = in_place_vector_bytes(d, alignment);
  c.kernel = c.vector_bytes > 0 ? InPlaceKernel::vectors
             : esize <= 4       ? InPlaceKernel::realigned
                                : InPlaceKernel::elements;
  c.tile = in_place_tile_edge(esize, c.kernel);
  c.threads = in_place_threads(esize, c.kernel);
  const std::int64_t n = (d.rows + c.tile - 1) / c.tile;
  c.pairs = n * (n + 1) / 2;
  c.blocks = std::min(c.pairs * d.batch, kInPlaceMaxBlocks);
  return c;
}

}  // namespace xpose::plan
