// In-place transposes of non-square matrices: the passes of plan/shuffle_maps.hpp, each moving
// elements only within the columns, or only within the rows, of the buffer seen as rows x cols. A
// block reads its columns (or rows) whole into shared memory before it writes any of them back, so
// no other block's elements are touched and no scratch memory is needed.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "plan/in_place_shuffles.hpp"
#include "plan/shuffle_maps.hpp"

namespace xpose::gpu {

// One pass's launch: the view, the matrices, and the blocks of one matrix (column blocks of
// 2^log2_width columns, or row blocks of rows_per_block rows).
struct ShuffleGeometry {
  plan::ShuffleShape shape;
  std::int64_t batch, batch_stride;  // elements
  std::int64_t blocks_per_matrix;
  plan::Div64 by_blocks_per_matrix;
  int log2_width;               // column pass
  std::int64_t rows_per_block;  // row pass
};

// The column passes' map: pass 1's rotation or pass 3's final rows.
template <plan::ShuffleMap kMap>
__device__ __forceinline__ std::int64_t column_source_row(const plan::ShuffleShape& s, std::int64_t r,
                                                          std::int64_t j) {
  if constexpr (kMap == plan::ShuffleMap::rotation) return plan::rotation_source_row(s, r, j);
  return plan::final_source_row(s, r, j);
}

// Block (plan::kShuffleThreads) over W = 2^log2_width columns of every row of one matrix, (rows, W)
// elements in dynamic shared memory; grid (blocks), block k taking column blocks k, k + gridDim.x, ...
// of blocks_per_matrix x batch. Forward (gather): (r, j) takes the element of row
// column_source_row(r, j) of column j. Inverse (scatter): the element of (r, j) goes to that row.
// Threads take W consecutive columns of plan::kShuffleThreads / W rows at a time (W <= 128), so a
// warp reads and writes whole row pieces.
template <int E, plan::ShuffleMap kMap, bool kInverse>
__global__ void __launch_bounds__(plan::kShuffleThreads) shuffle_columns_kernel(unsigned char* data, ShuffleGeometry g) {
  extern __shared__ __align__(16) unsigned char shuffle_columns[];  // (rows, W) elements
  const int width = 1 << g.log2_width;
  const int row_step = plan::kShuffleThreads >> g.log2_width;
  const int c = static_cast<int>(threadIdx.x) & (width - 1);
  const int first_row = static_cast<int>(threadIdx.x) >> g.log2_width;
  const plan::ShuffleShape& s = g.shape;
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const std::int64_t j = ((k - b * g.blocks_per_matrix) << g.log2_width) + c;
    unsigned char* const column = data + (b * g.batch_stride + j) * E;
    if (j < s.cols) {
      for (std::int64_t r = first_row; r < s.rows; r += row_step) {
        const std::int64_t slot = kInverse ? column_source_row<kMap>(s, r, j) : r;
        copy_element<E>(shuffle_columns + ((slot << g.log2_width) + c) * E, column + r * s.cols * E);
      }
    }
    __syncthreads();
    if (j < s.cols) {
      for (std::int64_t r = first_row; r < s.rows; r += row_step) {
        const std::int64_t slot = kInverse ? r : column_source_row<kMap>(s, r, j);
        copy_element<E>(column + r * s.cols * E, shuffle_columns + ((slot << g.log2_width) + c) * E);
      }
    }
    __syncthreads();  // the next column block reuses the shared columns
  }
}

// Block (plan::kShuffleThreads) over rows_per_block rows of one matrix, (rows_per_block, cols)
// elements in dynamic shared memory; grid (blocks), block k taking row blocks k, k + gridDim.x, ... of
// blocks_per_matrix x batch. Forward (scatter): (r, j) goes to column scatter_column(r, j) of its row.
// Inverse (gather): (r, j) takes the element of that column. The rows are packed, so the block's
// elements are one run that its threads read and write in order.
template <int E, bool kInverse>
__global__ void __launch_bounds__(plan::kShuffleThreads) shuffle_rows_kernel(unsigned char* data, ShuffleGeometry g) {
  extern __shared__ __align__(16) unsigned char shuffle_rows[];  // (rows_per_block, cols) elements
  const plan::ShuffleShape& s = g.shape;
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const std::int64_t first_row = (k - b * g.blocks_per_matrix) * g.rows_per_block;
    const std::int64_t rows = s.rows - first_row < g.rows_per_block ? s.rows - first_row : g.rows_per_block;
    unsigned char* const run = data + (b * g.batch_stride + first_row * s.cols) * E;
    const std::int64_t items = rows * s.cols;
    for (std::int64_t e = threadIdx.x; e < items; e += plan::kShuffleThreads) {
      std::int64_t slot = e;
      if (!kInverse) {
        const std::int64_t rr = plan::quot(e, s.by_cols);
        slot = rr * s.cols + plan::scatter_column(s, first_row + rr, e - rr * s.cols);
      }
      copy_element<E>(shuffle_rows + slot * E, run + e * E);
    }
    __syncthreads();
    for (std::int64_t e = threadIdx.x; e < items; e += plan::kShuffleThreads) {
      std::int64_t slot = e;
      if (kInverse) {
        const std::int64_t rr = plan::quot(e, s.by_cols);
        slot = rr * s.cols + plan::scatter_column(s, first_row + rr, e - rr * s.cols);
      }
      copy_element<E>(run + e * E, shuffle_rows + slot * E);
    }
    __syncthreads();
  }
}

}  // namespace xpose::gpu
