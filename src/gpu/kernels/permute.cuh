// The general permutation kernels: 2-D slices (the input's innermost dimension against the
// output's) through a shared-memory tile, and runs that stay innermost copied whole.
#pragma once

#include <cstdint>

#include "core/permute_shape.hpp"

namespace xpose::gpu {

constexpr int kPermuteTile = 32;       // (kPermuteTile, kPermuteTile + 1) elements of shared memory
constexpr int kPermuteBlockRows = 8;   // blocks of (kPermuteTile, kPermuteBlockRows) threads
constexpr int kPermuteRunGroup = 32;   // threads that copy one piece of a run together
constexpr int kPermuteRunPiece = 1024; // elements of a run one group copies
constexpr int kPermuteRunBlock = 256;

// Where slice s (numbered in output order) starts in each tensor, in elements. The loop has a fixed
// trip count so that the geometry's arrays are indexed by constants.
__device__ __forceinline__ void permute_slice_offsets(const core::PermuteGeometry& g, std::int64_t s,
                                                      std::int64_t& in_at, std::int64_t& out_at) {
  in_at = out_at = 0;
#pragma unroll
  for (int i = core::kMaxSliceDims - 1; i >= 0; --i) {
    if (i < g.slice_dims) {
      const std::int64_t q = s / g.slice_extent[i], r = s - q * g.slice_extent[i];
      in_at += r * g.slice_in_stride[i];
      out_at += r * g.slice_out_stride[i];
      s = q;
    }
  }
}

// One (kPermuteTile x kPermuteTile) tile of a slice: rows along b read along a (the input's
// contiguous dimension), written back along b (the output's). `ta`, `tb`: the tile's position.
template <typename T>
__device__ __forceinline__ void permute_tile(const T* in, T* out, const core::PermuteGeometry& g, std::int64_t ta,
                                             std::int64_t tb, std::int64_t in_at, std::int64_t out_at, int tx, int ty,
                                             T (*tile)[kPermuteTile + 1]) {
  const std::int64_t a0 = ta * kPermuteTile, b0 = tb * kPermuteTile;
  for (int i = ty; i < kPermuteTile; i += kPermuteBlockRows) {
    const std::int64_t a = a0 + tx, b = b0 + i;
    if (a < g.extent_a && b < g.extent_b) tile[i][tx] = in[in_at + b * g.in_stride_b + a];
  }
  __syncthreads();
  for (int i = ty; i < kPermuteTile; i += kPermuteBlockRows) {
    const std::int64_t a = a0 + i, b = b0 + tx;
    if (a < g.extent_a && b < g.extent_b) out[out_at + a * g.out_stride_a + b] = tile[tx][i];
  }
  __syncthreads();
}

// Blocks of (kPermuteTile, kPermuteBlockRows) threads walk the tiles of every slice, a-tiles
// fastest, then b-tiles, then slices.
template <typename T>
__global__ void __launch_bounds__(kPermuteTile* kPermuteBlockRows)
    permute_tiled_kernel(const T* in, T* out, core::PermuteGeometry g, std::int64_t tiles_a, std::int64_t tiles_b) {
  __shared__ T tile[kPermuteTile][kPermuteTile + 1];  // (kPermuteTile, kPermuteTile + 1)
  const std::int64_t tiles = g.slices * tiles_a * tiles_b;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::int64_t ta = t % tiles_a, rest = t / tiles_a, tb = rest % tiles_b, s = rest / tiles_b;
    std::int64_t in_at = 0, out_at = 0;
    permute_slice_offsets(g, s, in_at, out_at);
    permute_tile(in, out, g, ta, tb, in_at, out_at, threadIdx.x, threadIdx.y, tile);
  }
}

// Blocks of kPermuteRunBlock threads; each group of kPermuteRunGroup copies pieces of
// kPermuteRunPiece elements of the runs (extent_a elements, contiguous on both sides).
template <typename T>
__global__ void __launch_bounds__(kPermuteRunBlock) permute_runs_kernel(const T* in, T* out, core::PermuteGeometry g) {
  const std::int64_t pieces_per_run = (g.extent_a + kPermuteRunPiece - 1) / kPermuteRunPiece;
  const std::int64_t pieces = g.slices * pieces_per_run;
  const int lane = threadIdx.x % kPermuteRunGroup;
  const std::int64_t groups = std::int64_t{gridDim.x} * (kPermuteRunBlock / kPermuteRunGroup);
  for (std::int64_t p = std::int64_t{blockIdx.x} * (kPermuteRunBlock / kPermuteRunGroup) + threadIdx.x / kPermuteRunGroup;
       p < pieces; p += groups) {
    const std::int64_t s = p / pieces_per_run, first = (p % pieces_per_run) * kPermuteRunPiece;
    const std::int64_t last = first + kPermuteRunPiece < g.extent_a ? first + kPermuteRunPiece : g.extent_a;
    std::int64_t in_at = 0, out_at = 0;
    permute_slice_offsets(g, s, in_at, out_at);
    for (std::int64_t j = first + lane; j < last; j += kPermuteRunGroup) out[out_at + j] = in[in_at + j];
  }
}

}  // namespace xpose::gpu
