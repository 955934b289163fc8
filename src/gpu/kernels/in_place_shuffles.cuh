// In-place transposes of non-square matrices: the passes of plan/shuffle_maps.hpp, each moving
// elements only within the columns, or only within the rows, of the buffer seen as rows x cols. A
// block reads its columns (or rows) whole into shared memory before it writes any of them back, so
// no other block's elements are touched; only rows longer than shared memory go through scratch
// (the long-row kernels at the end).
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "plan/in_place_shuffles.hpp"
#include "plan/shuffle_maps.hpp"

namespace xpose::gpu {

// One pass's launch. The view's extents are below 2^31 (the planner refuses longer sides), so the
// maps run in 32-bit arithmetic, each thread stepping its map's state from one of its elements to the
// next instead of dividing; the values are the plan's 64-bit maps' (checked on the CPU), the stepping
// by the GPU tests.
struct ShuffleGeometry {
  std::uint32_t rows, cols;    // the view
  FastDiv by_b, by_cols;       // b = cols / gcd(rows, cols)
  plan::Div64 by_rows;         // a column cursor's start
  std::int64_t batch, batch_stride;  // elements
  std::int64_t blocks_per_matrix;
  plan::Div64 by_blocks_per_matrix;
  // Column passes: W = 2^log2_width columns a block; a thread's rows lie kShuffleColumnThreads / W
  // apart, so k = r cols + c steps by that many rows' worth: final_step_q rows' quotient, final_step_i
  // remainder.
  int log2_width;
  std::uint32_t final_step_q, final_step_i;
  // Row pass: rows_per_block rows a block; a thread's elements lie kShuffleRowThreads apart, which is
  // step_r rows and step_j columns, and moves (j rows) mod cols by step_jm.
  std::uint32_t rows_per_block, step_r, step_j, step_jm;
};

// Loads in flight per thread before the first lands in shared memory.
template <int E>
constexpr int shuffle_batch() {
  return E == 16 ? 4 : 8;
}

// Pass 1's source rows down column j: rotated by j / b.
struct RotationCursor {
  std::uint32_t shift, rows;
  __device__ RotationCursor(const ShuffleGeometry& g, std::uint32_t j, std::uint32_t) : shift(fast_div(j, g.by_b)), rows(g.rows) {}
  __device__ std::uint32_t row(std::uint32_t r) const { return plan::minus_mod(r, shift, rows); }
  __device__ void next(const ShuffleGeometry&) {}
};

// Pass 3's source rows down column j: (k mod rows + (k / rows) / b) mod rows, k = r cols + j, with k's
// quotient and remainder stepped.
struct FinalRowsCursor {
  std::uint32_t i, q;
  __device__ FinalRowsCursor(const ShuffleGeometry& g, std::uint32_t j, std::uint32_t first_row) {
    const std::int64_t k = static_cast<std::int64_t>(first_row) * g.cols + j;
    const std::int64_t quotient = plan::quot(k, g.by_rows);
    q = static_cast<std::uint32_t>(quotient);
    i = static_cast<std::uint32_t>(k - quotient * g.rows);
  }
  __device__ std::uint32_t row(const ShuffleGeometry& g) const {
    const std::uint32_t s = i + fast_div(q, g.by_b);
    return s >= g.rows ? s - g.rows : s;
  }
  __device__ void next(const ShuffleGeometry& g) {
    i += g.final_step_i;
    q += g.final_step_q;
    if (i >= g.rows) i -= g.rows, ++q;
  }
};

template <plan::ShuffleMap kMap>
using ColumnCursor = typename std::conditional<kMap == plan::ShuffleMap::rotation, RotationCursor, FinalRowsCursor>::type;

template <plan::ShuffleMap kMap>
__device__ __forceinline__ std::uint32_t source_row(const ColumnCursor<kMap>& cursor, const ShuffleGeometry& g,
                                                    std::uint32_t r) {
  if constexpr (kMap == plan::ShuffleMap::rotation) return cursor.row(r);
  else return cursor.row(g);
}

// Block (plan::kShuffleColumnThreads) over W = 2^log2_width columns of every row of one matrix,
// (rows, W) elements in dynamic shared memory; grid (blocks), block k taking column blocks k, k +
// gridDim.x, ... of blocks_per_matrix x batch. Forward (gather): (r, j) takes the element of row
// source_row(r) of column j. Inverse (scatter): the element of (r, j) goes to that row. Threads take W
// consecutive columns of kShuffleColumnThreads / W rows at a time (W <= kShuffleColumnThreads), so a
// warp reads and writes whole row pieces; each thread has shuffle_batch<E>() loads in flight.
template <int E, plan::ShuffleMap kMap, bool kInverse>
__global__ void __launch_bounds__(plan::kShuffleColumnThreads) shuffle_columns_kernel(unsigned char* data,
                                                                                       ShuffleGeometry g) {
  using T = typename ElementStorage<E>::type;
  constexpr int kBatch = shuffle_batch<E>();
  extern __shared__ __align__(16) unsigned char shuffle_columns[];
  T* const slots = reinterpret_cast<T*>(shuffle_columns);  // (rows, W)
  const std::uint32_t row_step = plan::kShuffleColumnThreads >> g.log2_width;
  const std::uint32_t c = threadIdx.x & ((1u << g.log2_width) - 1);
  const std::uint32_t first_row = threadIdx.x >> g.log2_width;
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const std::int64_t j = ((k - b * g.blocks_per_matrix) << g.log2_width) + c;
    const bool active = j < g.cols;
    T* const column = reinterpret_cast<T*>(data + (b * g.batch_stride + j) * E);
    if (active) {
      ColumnCursor<kMap> cursor(g, static_cast<std::uint32_t>(j), first_row);
      for (std::uint32_t r = first_row; r < g.rows; r += kBatch * row_step) {
        T v[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u)
          if (r + u * row_step < g.rows) v[u] = column[static_cast<std::int64_t>(r + u * row_step) * g.cols];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const std::uint32_t ru = r + u * row_step;
          if (ru >= g.rows) break;
          const std::uint32_t slot = kInverse ? source_row<kMap>(cursor, g, ru) : ru;
          slots[(slot << g.log2_width) + c] = v[u];
          if (kInverse) cursor.next(g);
        }
      }
    }
    __syncthreads();
    if (active) {
      ColumnCursor<kMap> cursor(g, static_cast<std::uint32_t>(j), first_row);
      for (std::uint32_t r = first_row; r < g.rows; r += row_step) {
        const std::uint32_t slot = kInverse ? r : source_row<kMap>(cursor, g, r);
        column[static_cast<std::int64_t>(r) * g.cols] = slots[(slot << g.log2_width) + c];
        if (!kInverse) cursor.next(g);
      }
    }
    __syncthreads();  // the next column block reuses the shared columns
  }
}

// Pass 2's destination column of element (first_row + rr, j): (j rows + i) mod cols, i = (r - j / b)
// mod rows, with rr, j and (j rows) mod cols stepped.
struct RowCursor {
  std::uint32_t rr, j, jm;
  __device__ std::uint32_t column(const ShuffleGeometry& g, std::uint32_t first_row) const {
    const std::uint32_t r = first_row + rr, shift = fast_div(j, g.by_b);
    std::uint32_t i = plan::minus_mod(r, shift, g.rows);
    i -= fast_div(i, g.by_cols) * g.cols;
    const std::uint32_t col = jm + i;
    return col >= g.cols ? col - g.cols : col;
  }
  __device__ void next(const ShuffleGeometry& g) {
    rr += g.step_r;
    j += g.step_j;
    jm += g.step_jm;
    if (j >= g.cols) j -= g.cols, ++rr;
    if (jm >= g.cols) jm -= g.cols;
  }
};

// Block (plan::kShuffleRowThreads) over rows_per_block rows of one matrix, (rows_per_block, cols)
// elements in dynamic shared memory; grid (blocks), block k taking row blocks k, k + gridDim.x, ... of
// blocks_per_matrix x batch. Forward (scatter): (r, j) goes to column RowCursor::column of its row.
// Inverse (gather): (r, j) takes the element of that column. The rows are packed, so the block's
// elements are one run that its threads read and write in order. kSwizzle: the shared rows at
// plan::shuffle_row_slot, against the scatter's bank conflicts.
template <int E, bool kSwizzle>
__device__ __forceinline__ std::uint32_t row_slot(std::uint32_t x) {
  if constexpr (kSwizzle) return plan::shuffle_row_slot(x, E);
  else return x;
}

template <int E, bool kInverse, bool kSwizzle>
__global__ void __launch_bounds__(plan::kShuffleRowThreads) shuffle_rows_kernel(unsigned char* data, ShuffleGeometry g) {
  using T = typename ElementStorage<E>::type;
  constexpr int kBatch = shuffle_batch<E>();
  constexpr std::uint32_t kThreads = plan::kShuffleRowThreads;
  extern __shared__ __align__(16) unsigned char shuffle_rows[];
  T* const slots = reinterpret_cast<T*>(shuffle_rows);  // (rows_per_block, cols) at row_slot
  // Every block's run starts on a row, so a thread's first element is the same in each.
  const QuotRem first = fast_divmod(threadIdx.x, g.by_cols);
  const auto first_jm = static_cast<std::uint32_t>(static_cast<std::uint64_t>(first.rem) * g.rows % g.cols);
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const auto first_row = static_cast<std::uint32_t>((k - b * g.blocks_per_matrix) * g.rows_per_block);
    const std::uint32_t rows = g.rows - first_row < g.rows_per_block ? g.rows - first_row : g.rows_per_block;
    T* const run = reinterpret_cast<T*>(data + (b * g.batch_stride + static_cast<std::int64_t>(first_row) * g.cols) * E);
    const std::uint32_t items = rows * g.cols;
    RowCursor cursor{first.quot, first.rem, first_jm};
    for (std::uint32_t e = threadIdx.x; e < items; e += kBatch * kThreads) {
      T v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u)
        if (e + u * kThreads < items) v[u] = run[e + u * kThreads];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const std::uint32_t eu = e + u * kThreads;
        if (eu >= items) break;
        if (kInverse) {
          slots[row_slot<E, kSwizzle>(eu)] = v[u];
        } else {
          slots[row_slot<E, kSwizzle>(cursor.rr * g.cols + cursor.column(g, first_row))] = v[u];
          cursor.next(g);
        }
      }
    }
    __syncthreads();
    for (std::uint32_t e = threadIdx.x; e < items; e += kThreads) {
      if (kInverse) {
        run[e] = slots[row_slot<E, kSwizzle>(cursor.rr * g.cols + cursor.column(g, first_row))];
        cursor.next(g);
      } else {
        run[e] = slots[row_slot<E, kSwizzle>(e)];
      }
    }
    __syncthreads();
  }
}

// Pass 2 for rows longer than a block's shared memory: `count` rows of one matrix, from row first_row of
// the view on, copied into `scratch` before the launch, go back into their place at `rows`, element by
// element. Forward (scatter): element j of row r goes to column plan::scatter_column(r, j). Inverse
// (gather): (r, j) takes the element of that column. Block (plan::kShuffleRowThreads), any grid: the
// threads step through the rows' elements in order, so the scratch side (forward) or the rows' side
// (inverse) is read or written in whole sectors.
template <int E, bool kInverse>
__global__ void __launch_bounds__(plan::kShuffleRowThreads)
    shuffle_long_rows_kernel(unsigned char* rows, const unsigned char* scratch, plan::ShuffleShape s,
                             std::int64_t first_row, std::int64_t count) {
  using T = typename ElementStorage<E>::type;
  T* const out = reinterpret_cast<T*>(rows);
  const T* const in = reinterpret_cast<const T*>(scratch);
  const std::int64_t items = count * s.cols;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * plan::kShuffleRowThreads + threadIdx.x; e < items;
       e += static_cast<std::int64_t>(gridDim.x) * plan::kShuffleRowThreads) {
    const std::int64_t rr = plan::quot(e, s.by_cols), j = e - rr * s.cols;
    const std::int64_t there = rr * s.cols + plan::scatter_column(s, first_row + rr, j);
    if (kInverse)
      out[e] = in[there];
    else
      out[there] = in[e];
  }
}

// The tiles of shuffle_long_rows_tiled_kernel: view rows R (the short side) dividing the row length C,
// b = C / R; tiles of R x tile elements of a row seen as R x b (forward) or b x R (inverse).
struct LongRowTiles {
  std::uint32_t rows, tile;        // R, and the tile's extent along b
  std::int64_t b, tiles_per_row;
  plan::Div64 by_tiles_per_row;
  FastDiv by_rows, by_tile;
};

// Pass 2 for long rows where R divides C: forward, element q b + p of row r goes to p R + (r - q) mod
// R, so the row seen as R x b is transposed into b x R with its short index rotated; inverse, the
// reverse. Each block moves tiles of R x tile elements from `scratch` (the rows, copied there before
// the launch) to their place at `rows` through shared memory, reading and writing runs of whole
// rows of the tile. Block (plan::kShuffleRowThreads), (R, tile + 1) elements of dynamic shared memory
// (a padding column, so that steps of one along R fall in different banks); any grid.
template <int E, bool kInverse>
__global__ void __launch_bounds__(plan::kShuffleRowThreads)
    shuffle_long_rows_tiled_kernel(unsigned char* rows, const unsigned char* scratch, LongRowTiles g,
                                   std::int64_t first_row, std::int64_t count) {
  using T = typename ElementStorage<E>::type;
  extern __shared__ __align__(16) unsigned char long_row_tile[];
  T* const tile = reinterpret_cast<T*>(long_row_tile);  // (R, g.tile + 1): [short index][index along b]
  const std::uint32_t pitch = g.tile + 1, items = g.rows * g.tile;
  const std::int64_t row_length = g.b * g.rows;
  for (std::int64_t k = blockIdx.x; k < count * g.tiles_per_row; k += gridDim.x) {
    const std::int64_t rr = plan::quot(k, g.by_tiles_per_row);
    const std::int64_t p0 = (k - rr * g.tiles_per_row) * g.tile;
    const auto width = static_cast<std::uint32_t>(g.b - p0 < g.tile ? g.b - p0 : g.tile);
    const auto r = static_cast<std::uint32_t>(first_row + rr);  // < R
    const T* const in = reinterpret_cast<const T*>(scratch) + rr * row_length;
    T* const out = reinterpret_cast<T*>(rows) + rr * row_length;
    // shuffle_batch<E>() loads in flight per thread before the first lands in shared memory.
    constexpr int kBatch = shuffle_batch<E>();
    for (std::uint32_t x0 = threadIdx.x; x0 < items; x0 += kBatch * plan::kShuffleRowThreads) {
      T v[kBatch];
      std::uint32_t slot[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const std::uint32_t x = x0 + u * plan::kShuffleRowThreads;
        slot[u] = ~0u;
        if (kInverse) {  // (p, t) of the b x R run from p0 R on
          if (x < width * g.rows) {
            const QuotRem pt = fast_divmod(x, g.by_rows);
            slot[u] = pt.rem * pitch + pt.quot;
            v[u] = in[p0 * g.rows + x];
          }
        } else if (x < items) {  // (q, p) of the R x b row, p from p0 on
          const QuotRem qp = fast_divmod(x, g.by_tile);
          if (qp.rem < width) {
            slot[u] = qp.quot * pitch + qp.rem;
            v[u] = in[qp.quot * g.b + p0 + qp.rem];
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u)
        if (slot[u] != ~0u) tile[slot[u]] = v[u];
    }
    __syncthreads();
    for (std::uint32_t x = threadIdx.x; x < items; x += plan::kShuffleRowThreads) {
      if (kInverse) {  // (q, p): row q's run from p0 on takes short index (r - q) mod R
        const QuotRem qp = fast_divmod(x, g.by_tile);
        const std::uint32_t t = plan::minus_mod(r, qp.quot, g.rows);
        if (qp.rem < width) out[qp.quot * g.b + p0 + qp.rem] = tile[t * pitch + qp.rem];
      } else {  // (p, t) of the b x R run from p0 R on takes row (r - t) mod R of the tile
        if (x >= width * g.rows) break;
        const QuotRem pt = fast_divmod(x, g.by_rows);
        const std::uint32_t q = plan::minus_mod(r, pt.rem, g.rows);
        out[p0 * g.rows + x] = tile[q * pitch + pt.quot];
      }
    }
    __syncthreads();
  }
}

}  // namespace xpose::gpu
