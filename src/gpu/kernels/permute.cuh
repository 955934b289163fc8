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

// Blocks of (kPermuteWarp, kPermuteBlockRows) threads walk the (kT x kT) tiles of every slice,
// a-tiles fastest, then b-tiles, then slices.
template <typename T, int kT>
__global__ void __launch_bounds__(kPermuteWarp* kPermuteBlockRows)
    permute_tiled_kernel(const T* in, T* out, core::PermuteGeometry g, std::int64_t tiles_a, std::int64_t tiles_b) {
  __shared__ T tile[kT][kT + 1];  // (kT, kT + 1)
  const std::int64_t tiles = g.slices * tiles_a * tiles_b;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::int64_t ta = t % tiles_a, rest = t / tiles_a, tb = rest % tiles_b, s = rest / tiles_b;
    std::int64_t in_at = 0, out_at = 0;
    permute_slice_offsets(g, g.slice_dims, s, in_at, out_at);
    permute_tile<T, kT>(in, out, g, ta, tb, in_at, out_at, threadIdx.x, threadIdx.y, tile);
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
