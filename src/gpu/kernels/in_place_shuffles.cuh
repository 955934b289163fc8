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
  // Column passes: W = 2^log2_width columns a block, taken by 2^log2_lanes threads a row (one element
  // or one word each); a thread's rows lie kShuffleColumnThreads / 2^log2_lanes apart, so k = r cols +
  // c steps by that many rows' worth: final_step_q rows' quotient, final_step_i remainder.
  int log2_width, log2_lanes;
  std::uint32_t final_step_q, final_step_i;
  // Row pass: rows_per_block rows a block; a thread's elements (or words) lie kShuffleRowThreads
  // elements (words) apart, which is step_r rows and step_j columns, and moves (j rows) mod cols by
  // step_jm; the next element of a word moves it by rows mod cols.
  std::uint32_t rows_per_block, step_r, step_j, step_jm, rows_mod_cols;
};

// A thread's access: one element, or a 4-byte word of kPack 1- or 2-byte elements (the first in its
// low bytes), which the kernels split and gather in shared memory.
template <int E, int kPack>
using Access = typename std::conditional<kPack == 1, typename ElementStorage<E>::type, std::uint32_t>::type;

template <int E, int kPack>
__device__ __forceinline__ typename ElementStorage<E>::type word_part(Access<E, kPack> w, int p) {
  if constexpr (kPack == 1) return w;
  else return static_cast<typename ElementStorage<E>::type>(w >> (8 * E * p));
}

template <int E, int kPack>
__device__ __forceinline__ Access<E, kPack> word_with(Access<E, kPack> w, int p, typename ElementStorage<E>::type x) {
  if constexpr (kPack == 1) return x;
  else return w | static_cast<std::uint32_t>(x) << (8 * E * p);
}

constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }

// Loads in flight per thread before the first lands in shared memory: 8 elements, 4 of 16 bytes or
// 4 words (the column passes' words: plan::ShuffleConfig::column_word_loads).
template <int E, int kPack = 1>
constexpr int shuffle_batch() {
  return E == 16 || kPack > 1 ? 4 : 8;
}

// Pass 1's source rows down columns j .. j + kPack - 1: rotated by (j + p) / b.
template <int kPack>
struct RotationCursor {
  std::uint32_t shift[kPack];
  __device__ RotationCursor(const ShuffleGeometry& g, std::uint32_t j, std::uint32_t) {
#pragma unroll
    for (int p = 0; p < kPack; ++p) shift[p] = fast_div(j + p, g.by_b);
  }
  __device__ void rows(const ShuffleGeometry& g, std::uint32_t r, std::uint32_t (&source)[kPack]) const {
#pragma unroll
    for (int p = 0; p < kPack; ++p) source[p] = plan::minus_mod(r, shift[p], g.rows);
  }
  __device__ void next(const ShuffleGeometry&) {}
};

// Pass 3's source rows down columns j .. j + kPack - 1: (k mod rows + (k / rows) / b) mod rows, k = r
// cols + j + p, with column j's quotient and remainder stepped from row to row and the other columns'
// counted on from them.
template <int kPack>
struct FinalRowsCursor {
  std::uint32_t i, q;
  __device__ FinalRowsCursor(const ShuffleGeometry& g, std::uint32_t j, std::uint32_t first_row) {
    const std::int64_t k = static_cast<std::int64_t>(first_row) * g.cols + j;
    const std::int64_t quotient = plan::quot(k, g.by_rows);
    q = static_cast<std::uint32_t>(quotient);
    i = static_cast<std::uint32_t>(k - quotient * g.rows);
  }
  __device__ void rows(const ShuffleGeometry& g, std::uint32_t, std::uint32_t (&source)[kPack]) const {
    std::uint32_t ip = i, qp = q;
#pragma unroll
    for (int p = 0; p < kPack; ++p) {
      const std::uint32_t s = ip + fast_div(qp, g.by_b);
      source[p] = s >= g.rows ? s - g.rows : s;
      if (++ip == g.rows) ip = 0, ++qp;
    }
  }
  __device__ void next(const ShuffleGeometry& g) {
    i += g.final_step_i;
    q += g.final_step_q;
    if (i >= g.rows) i -= g.rows, ++q;
  }
};

template <plan::ShuffleMap kMap, int kPack>
using ColumnCursor =
    typename std::conditional<kMap == plan::ShuffleMap::rotation, RotationCursor<kPack>, FinalRowsCursor<kPack>>::type;

// Block (plan::kShuffleColumnThreads) over W = 2^log2_width columns of every row of one matrix,
// (rows, W) elements in dynamic shared memory; grid (blocks), block k taking column blocks k, k +
// gridDim.x, ... of blocks_per_matrix x batch. Forward (gather): (r, j) takes the element of the
// map's source row (ColumnCursor) of column j. Inverse (scatter): the element of (r, j) goes to that
// row. Threads take kPack consecutive columns (one element or one word) of kShuffleColumnThreads /
// 2^log2_lanes rows at a time, so a warp reads and writes whole row pieces; each thread has kBatch
// loads in flight. With words the view's rows and W are whole words, so a word's columns are all in
// the matrix or all past it.
template <int E, plan::ShuffleMap kMap, bool kInverse, int kPack, int kBatch>
__device__ __forceinline__ void shuffle_columns(unsigned char* data, ShuffleGeometry g) {
  using T = typename ElementStorage<E>::type;
  using A = Access<E, kPack>;
  constexpr int kLog2Pack = log2_of(kPack);
  extern __shared__ __align__(16) unsigned char column_block_smem[];
  T* const slots = reinterpret_cast<T*>(column_block_smem);  // (rows, W)
  A* const words = reinterpret_cast<A*>(column_block_smem);  // the same, a thread's kPack slots as one
  const std::uint32_t row_step = plan::kShuffleColumnThreads >> g.log2_lanes;
  const std::uint32_t c = (threadIdx.x & ((1u << g.log2_lanes) - 1)) << kLog2Pack;
  const std::uint32_t first_row = threadIdx.x >> g.log2_lanes;
  const std::uint32_t pitch = g.cols >> kLog2Pack;  // of the rows, in accesses
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const std::int64_t j = ((k - b * g.blocks_per_matrix) << g.log2_width) + c;
    const bool active = j < g.cols;
    A* const column = reinterpret_cast<A*>(data + (b * g.batch_stride + j) * E);
    if (active) {
      ColumnCursor<kMap, kPack> cursor(g, static_cast<std::uint32_t>(j), first_row);
      for (std::uint32_t r = first_row; r < g.rows; r += kBatch * row_step) {
        A v[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u)
          if (r + u * row_step < g.rows) v[u] = column[static_cast<std::int64_t>(r + u * row_step) * pitch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const std::uint32_t ru = r + u * row_step;
          if (ru >= g.rows) break;
          if (kInverse) {
            std::uint32_t source[kPack];
            cursor.rows(g, ru, source);
#pragma unroll
            for (int p = 0; p < kPack; ++p) slots[(source[p] << g.log2_width) + c + p] = word_part<E, kPack>(v[u], p);
            cursor.next(g);
          } else {
            words[((ru << g.log2_width) + c) >> kLog2Pack] = v[u];
          }
        }
      }
    }
    __syncthreads();
    if (active) {
      ColumnCursor<kMap, kPack> cursor(g, static_cast<std::uint32_t>(j), first_row);
      for (std::uint32_t r = first_row; r < g.rows; r += row_step) {
        A v{};
        if (kInverse) {
          v = words[((r << g.log2_width) + c) >> kLog2Pack];
        } else {
          std::uint32_t source[kPack];
          cursor.rows(g, r, source);
#pragma unroll
          for (int p = 0; p < kPack; ++p) v = word_with<E, kPack>(v, p, slots[(source[p] << g.log2_width) + c + p]);
          cursor.next(g);
        }
        column[static_cast<std::int64_t>(r) * pitch] = v;
      }
    }
    __syncthreads();  // the next column block reuses the shared columns
  }
}

// The kernels: plain, and for the word passes with 4 loads in flight held to 32 registers, two blocks
// an SM (their column blocks fit; a minimum of one block in the bounds raised the plain kernels'
// registers, 32 -> 48 for f32's column scatter).
template <int E, plan::ShuffleMap kMap, bool kInverse, int kPack, int kBatch>
__global__ void __launch_bounds__(plan::kShuffleColumnThreads) shuffle_columns_kernel(unsigned char* data,
                                                                                       ShuffleGeometry g) {
  shuffle_columns<E, kMap, kInverse, kPack, kBatch>(data, g);
}

template <int E, plan::ShuffleMap kMap, bool kInverse, int kPack>
__global__ void __launch_bounds__(plan::kShuffleColumnThreads, 2)
    shuffle_columns_two_per_sm_kernel(unsigned char* data, ShuffleGeometry g) {
  shuffle_columns<E, kMap, kInverse, kPack, 4>(data, g);
}

// Pass 2's destination columns of elements (first_row + rr, j + p), p < kPack: (j' rows + i) mod cols,
// i = (r - j' / b) mod rows, j' = j + p, with rr, j and (j rows) mod cols stepped. A word's elements
// share their row (the rows are whole words).
struct RowCursor {
  std::uint32_t rr, j, jm;
  template <int kPack>
  __device__ void columns(const ShuffleGeometry& g, std::uint32_t first_row, std::uint32_t (&column)[kPack]) const {
    const std::uint32_t r = first_row + rr;
    std::uint32_t jp = j, jmp = jm;
#pragma unroll
    for (int p = 0; p < kPack; ++p) {
      std::uint32_t i = plan::minus_mod(r, fast_div(jp, g.by_b), g.rows);
      i -= fast_div(i, g.by_cols) * g.cols;
      const std::uint32_t col = jmp + i;
      column[p] = col >= g.cols ? col - g.cols : col;
      ++jp;
      jmp += g.rows_mod_cols;
      if (jmp >= g.cols) jmp -= g.cols;
    }
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
// blocks_per_matrix x batch. Forward (scatter): (r, j) goes to column RowCursor::columns of its row.
// Inverse (gather): (r, j) takes the element of that column. The rows are packed, so the block's
// elements are one run that its threads read and write in order, an element or a word of kPack at a
// time (with words the rows are whole words). kSwizzle: the shared rows at plan::shuffle_row_slot,
// against the scatter's bank conflicts; it keeps each word's elements together.
template <int E, bool kSwizzle>
__device__ __forceinline__ std::uint32_t row_slot(std::uint32_t x) {
  if constexpr (kSwizzle) return plan::shuffle_row_slot(x, E);
  else return x;
}

template <int E, bool kInverse, bool kSwizzle, int kPack>
__device__ __forceinline__ void shuffle_rows(unsigned char* data, ShuffleGeometry g) {
  using T = typename ElementStorage<E>::type;
  using A = Access<E, kPack>;
  constexpr int kBatch = shuffle_batch<E, kPack>(), kLog2Pack = log2_of(kPack);
  constexpr std::uint32_t kThreads = plan::kShuffleRowThreads;
  extern __shared__ __align__(16) unsigned char row_block_smem[];
  T* const slots = reinterpret_cast<T*>(row_block_smem);  // (rows_per_block, cols) at row_slot
  A* const words = reinterpret_cast<A*>(row_block_smem);
  // Every block's run starts on a row, so a thread's first element is the same in each.
  const QuotRem first = fast_divmod(threadIdx.x << kLog2Pack, g.by_cols);
  const auto first_jm = static_cast<std::uint32_t>(static_cast<std::uint64_t>(first.rem) * g.rows % g.cols);
  for (std::int64_t k = blockIdx.x; k < g.blocks_per_matrix * g.batch; k += gridDim.x) {
    const std::int64_t b = plan::quot(k, g.by_blocks_per_matrix);
    const auto first_row = static_cast<std::uint32_t>((k - b * g.blocks_per_matrix) * g.rows_per_block);
    const std::uint32_t rows = g.rows - first_row < g.rows_per_block ? g.rows - first_row : g.rows_per_block;
    A* const run =
        reinterpret_cast<A*>(data + (b * g.batch_stride + static_cast<std::int64_t>(first_row) * g.cols) * E);
    const std::uint32_t items = (rows * g.cols) >> kLog2Pack;  // accesses
    RowCursor cursor{first.quot, first.rem, first_jm};
    for (std::uint32_t e = threadIdx.x; e < items; e += kBatch * kThreads) {
      A v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u)
        if (e + u * kThreads < items) v[u] = run[e + u * kThreads];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const std::uint32_t eu = e + u * kThreads;
        if (eu >= items) break;
        if (kInverse) {
          words[row_slot<E, kSwizzle>(eu << kLog2Pack) >> kLog2Pack] = v[u];
        } else {
          std::uint32_t column[kPack];
          cursor.columns(g, first_row, column);
#pragma unroll
          for (int p = 0; p < kPack; ++p)
            slots[row_slot<E, kSwizzle>(cursor.rr * g.cols + column[p])] = word_part<E, kPack>(v[u], p);
          cursor.next(g);
        }
      }
    }
    __syncthreads();
    for (std::uint32_t e = threadIdx.x; e < items; e += kThreads) {
      A v{};
      if (kInverse) {
        std::uint32_t column[kPack];
        cursor.columns(g, first_row, column);
#pragma unroll
        for (int p = 0; p < kPack; ++p)
          v = word_with<E, kPack>(v, p, slots[row_slot<E, kSwizzle>(cursor.rr * g.cols + column[p])]);
        cursor.next(g);
      } else {
        v = words[row_slot<E, kSwizzle>(e << kLog2Pack) >> kLog2Pack];
      }
      run[e] = v;
    }
    __syncthreads();
  }
}

// The kernels: elements, and words held to 40 (u8) or 32 registers, 6 or 8 blocks an SM where the
// smaller row blocks fit them. On an H200 that gained 1.2-1.5% where the rows are swizzled (u8 65536 x
// 1024 264 -> 260 us, bf16 32768 x 1024 199.5 -> 197.5), and nothing measurable elsewhere.
template <int E, bool kInverse, bool kSwizzle>
__global__ void __launch_bounds__(plan::kShuffleRowThreads)
    shuffle_rows_kernel(unsigned char* data, ShuffleGeometry g) {
  shuffle_rows<E, kInverse, kSwizzle, 1>(data, g);
}

template <int E, bool kInverse, bool kSwizzle>
__global__ void __launch_bounds__(plan::kShuffleRowThreads, E == 1 ? 6 : 8)
    shuffle_rows_words_kernel(unsigned char* data, ShuffleGeometry g) {
  shuffle_rows<E, kInverse, kSwizzle, plan::shuffle_word_elements(E)>(data, g);
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
