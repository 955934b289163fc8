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

InPlaceConfig choose_in_place(const TransposeDesc& d, int alignment) {
  const int esize = static_cast<int>(dtype_size(d.dtype));
  InPlaceConfig c;
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
