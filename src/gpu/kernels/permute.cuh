// The general permutation kernels: 2-D slices (the input's innermost dimension against the
// output's) through a shared-memory tile, and runs that stay innermost gathered into the output.
#pragma once

#include <cstdint>

#include "core/permute_shape.hpp"

namespace xpose::gpu {

constexpr int kPermuteWarp = 32;       // blocks of (kPermuteWarp, kPermuteBlockRows) threads for slices
constexpr int kPermuteBlockRows = 8;
constexpr int kPermuteRunBlock = 256;  // threads per block for runs

// Units a thread of the runs kernel moves per pass, loads first: a block covers
// kPermuteRunBlock x kPermuteRunUnroll units of an output span.
constexpr int kPermuteRunUnroll = 4;

// Where slice s of `dims` slice dimensions (numbered in output order) starts in each tensor, in
// elements. The loop has a fixed trip count so that the geometry's arrays are indexed by constants.
__device__ __forceinline__ void permute_slice_offsets(const core::PermuteGeometry& g, int dims, std::int64_t s,
                                                      std::int64_t& in_at, std::int64_t& out_at) {
  in_at = out_at = 0;
#pragma unroll
  for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
    if (i < dims) {
      const std::int64_t q = s / g.slice_extent[i], r = s - q * g.slice_extent[i];
      in_at += r * g.slice_in_stride[i];
      out_at += r * g.slice_out_stride[i];
      s = q;
    }
  }
}

// A block's walk over consecutive tiles, a-tiles fastest, then b-tiles, then slices: the first
// tile's position comes from divisions, each later one from adding one with carries, so that small
// tiles do not pay a 64-bit division per slice dimension each (all threads of a block keep the same
// walker).
struct PermuteTileWalk {
  std::int64_t ta = 0, tb = 0;
  std::int64_t in_at = 0, out_at = 0;  // where the tile's slice starts
  std::int64_t digit[core::kMaxSliceDims] = {};

  __device__ __forceinline__ void start(const core::PermuteGeometry& g, std::int64_t t, std::int64_t tiles_a,
                                        std::int64_t tiles_b) {
    ta = t % tiles_a;
    t /= tiles_a;
    tb = t % tiles_b;
    t /= tiles_b;
    in_at = out_at = 0;
#pragma unroll
    for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
      if (i < g.slice_dims) {
        const std::int64_t q = t / g.slice_extent[i];
        digit[i] = t - q * g.slice_extent[i];
        in_at += digit[i] * g.slice_in_stride[i];
        out_at += digit[i] * g.slice_out_stride[i];
        t = q;
      }
    }
  }

  __device__ __forceinline__ void next(const core::PermuteGeometry& g, std::int64_t tiles_a, std::int64_t tiles_b) {
    if (++ta < tiles_a) return;
    ta = 0;
    if (++tb < tiles_b) return;
    tb = 0;
#pragma unroll
    for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
      if (i < g.slice_dims) {
        in_at += g.slice_in_stride[i];
        out_at += g.slice_out_stride[i];
        if (++digit[i] < g.slice_extent[i]) return;
        in_at -= g.slice_extent[i] * g.slice_in_stride[i];
        out_at -= g.slice_extent[i] * g.slice_out_stride[i];
        digit[i] = 0;
      }
    }
  }
};

// The tiles [first, last) a block takes: the tiles split evenly over the grid, in order.
__device__ __forceinline__ void permute_block_tiles(std::int64_t tiles, unsigned block, unsigned blocks,
                                                    std::int64_t& first, std::int64_t& last) {
  first = tiles * block / blocks;
  last = tiles * (block + 1) / blocks;
}

// One (kT x kT) tile of a slice at (ta, tb): rows along b read along a (the input's contiguous
// dimension) into `tile`, then written along b (the output's). (tx, ty): the thread in its block.
// Each thread's loads are issued together, then stored, so that they travel at the same time.
template <typename T, int kT>
__device__ __forceinline__ void permute_tile(const T* in, T* out, const core::PermuteGeometry& g, std::int64_t ta,
                                             std::int64_t tb, std::int64_t in_at, std::int64_t out_at, int tx, int ty,
                                             T (*tile)[kT + 1]) {
  constexpr int kRows = kT / kPermuteBlockRows, kCols = kT / kPermuteWarp;
  const std::int64_t a0 = ta * kT, b0 = tb * kT;
  T v[kRows][kCols];
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c) {
      const std::int64_t a = a0 + tx + c * kPermuteWarp, b = b0 + ty + i * kPermuteBlockRows;
      if (a < g.extent_a && b < g.extent_b) v[i][c] = in[in_at + b * g.in_stride_b + a];
    }
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c) tile[ty + i * kPermuteBlockRows][tx + c * kPermuteWarp] = v[i][c];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c) {
      const std::int64_t a = a0 + ty + i * kPermuteBlockRows, b = b0 + tx + c * kPermuteWarp;
      if (a < g.extent_a && b < g.extent_b)
        out[out_at + a * g.out_stride_a + b] = tile[tx + c * kPermuteWarp][ty + i * kPermuteBlockRows];
    }
  __syncthreads();
}

// Blocks of (kPermuteWarp, kPermuteBlockRows) threads, each taking a run of consecutive (kT x kT)
// tiles (PermuteTileWalk's order).
template <typename T, int kT>
__global__ void __launch_bounds__(kPermuteWarp* kPermuteBlockRows)
    permute_tiled_kernel(const T* in, T* out, core::PermuteGeometry g, std::int64_t tiles_a, std::int64_t tiles_b) {
  __shared__ T tile[kT][kT + 1];  // (kT, kT + 1)
  std::int64_t first = 0, last = 0;
  permute_block_tiles(g.slices * tiles_a * tiles_b, blockIdx.x, gridDim.x, first, last);
  PermuteTileWalk w;
  if (first < last) w.start(g, first, tiles_a, tiles_b);
  for (std::int64_t t = first; t < last; ++t, w.next(g, tiles_a, tiles_b))
    permute_tile<T, kT>(in, out, g, w.ta, w.tb, w.in_at, w.out_at, threadIdx.x, threadIdx.y, tile);
}

// Slices with a side under 32 elements: a (1 << lb) x (1 << la) tile, each side the slice's extent
// rounded up to a power of two (the longer one cut so that a tile holds at most kNarrowTile
// elements), so that the threads of a block stay busy where a 32 x 32 tile would be mostly empty.
// Blocks of kPermuteRunBlock threads, each taking a run of consecutive tiles (PermuteTileWalk's
// order): loads walk a tile with a fastest (along the input's rows), stores with b fastest (along
// the output's); rows of the tile are (1 << la) + 1 elements apart.
constexpr int kNarrowTile = 1024;
template <typename T>
__global__ void __launch_bounds__(kPermuteRunBlock)
    permute_narrow_kernel(const T* in, T* out, core::PermuteGeometry g, int la, int lb, std::int64_t tiles_a,
                          std::int64_t tiles_b) {
  __shared__ T tile[kNarrowTile * 3 / 2];  // (1 << lb, (1 << la) + 1): at most 512 x 3 or 2 x 513
  constexpr int kPer = kNarrowTile / kPermuteRunBlock;
  const int width = 1 << la, height = 1 << lb, pitch = width + 1, count = width * height;
  std::int64_t first = 0, last = 0;
  permute_block_tiles(g.slices * tiles_a * tiles_b, blockIdx.x, gridDim.x, first, last);
  PermuteTileWalk w;
  if (first < last) w.start(g, first, tiles_a, tiles_b);
  for (std::int64_t t = first; t < last; ++t, w.next(g, tiles_a, tiles_b)) {
    const std::int64_t in_at = w.in_at, out_at = w.out_at;
    const std::int64_t a0 = w.ta * width, b0 = w.tb * height;
    T v[kPer];
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      const int i = static_cast<int>(threadIdx.x) + k * kPermuteRunBlock;
      const std::int64_t a = a0 + (i & (width - 1)), b = b0 + (i >> la);
      if (i < count && a < g.extent_a && b < g.extent_b) v[k] = in[in_at + b * g.in_stride_b + a];
    }
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      const int i = static_cast<int>(threadIdx.x) + k * kPermuteRunBlock;
      if (i < count) tile[(i >> la) * pitch + (i & (width - 1))] = v[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      const int i = static_cast<int>(threadIdx.x) + k * kPermuteRunBlock;
      const int bi = i & (height - 1), ai = i >> lb;
      const std::int64_t a = a0 + ai, b = b0 + bi;
      if (i < count && a < g.extent_a && b < g.extent_b) out[out_at + a * g.out_stride_a + b] = tile[bi * pitch + ai];
    }
    __syncthreads();
  }
}

// Runs of extent_a elements that stay innermost. The output is packed, so the runs follow one
// another there: for each index of the outer slice dimensions (all but the innermost in output
// order, whose n1 runs lie n1_stride elements apart in the input), the output is one contiguous
// span of n1 x extent_a elements, gathered from n1 runs of the input. Blocks of kPermuteRunBlock
// threads: blockIdx.y walks the outer indices, blockIdx.x pieces of kPermuteRunBlock x
// kPermuteRunUnroll elements of the span. Index is 32-bit where the span fits (a 32-bit division
// per element instead of a 64-bit one).
template <typename T, typename Index>
__global__ void __launch_bounds__(kPermuteRunBlock)
    permute_runs_kernel(const T* in, T* out, core::PermuteGeometry g, std::int64_t outers, Index span,
                        std::int64_t n1_stride) {
  constexpr Index kPiece = kPermuteRunBlock * kPermuteRunUnroll;
  const Index run = static_cast<Index>(g.extent_a);
  for (std::int64_t o = blockIdx.y; o < outers; o += gridDim.y) {
    std::int64_t in_at = 0, out_at = 0;  // out_at unused: the output spans are back to back
    permute_slice_offsets(g, g.slice_dims - 1, o, in_at, out_at);
    const T* src = in + in_at;
    T* dst = out + o * static_cast<std::int64_t>(span);
    for (Index first = static_cast<Index>(blockIdx.x) * kPiece + threadIdx.x; first < span;
         first += static_cast<Index>(gridDim.x) * kPiece) {
      T v[kPermuteRunUnroll];
#pragma unroll
      for (int k = 0; k < kPermuteRunUnroll; ++k) {
        const Index t = first + k * kPermuteRunBlock, r = t / run, j = t - r * run;
        if (t < span) v[k] = src[static_cast<std::int64_t>(r) * n1_stride + j];
      }
#pragma unroll
      for (int k = 0; k < kPermuteRunUnroll; ++k) {
        const Index t = first + k * kPermuteRunBlock;
        if (t < span) dst[t] = v[k];
      }
    }
  }
}

}  // namespace xpose::gpu
