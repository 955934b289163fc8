// Large slices of 4- to 16-byte elements: square tiles of elements (64 x 64, or 32 x 32 for
// 16-byte elements) through shared memory, each thread moving one element per access. Measured
// on an H200, this beats the vector tiles of permute.cuh there (f32 slices of 256 x 256: 0.92 of
// memcpy against 0.82); the vector tiles win for narrow slices and 1- and 2-byte elements.
#pragma once

#include <cstdint>

#include "core/permute_shape.hpp"

namespace xpose::gpu {

constexpr int kPermuteWarp = 32;  // blocks of (kPermuteWarp, kPermuteBlockRows) threads
constexpr int kPermuteBlockRows = 8;

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

}  // namespace xpose::gpu
