// The untiled rungs of the ladder: the copy baseline and the two naive transposes.
#pragma once

#include "gpu/kernels/geometry.cuh"
#include "gpu/runtime.hpp"

namespace xpose::gpu {

// Every ladder kernel runs blocks of kLadderBlockX x kLadderBlockY threads. 32 along x makes a row
// of 4-byte elements one 128-byte segment; nothing here relies on the warp width (an AMD wavefront
// of 64 simply spans two rows).
constexpr int kLadderBlockX = 32;
constexpr int kLadderBlockY = 8;
// The copy baseline moves a kLadderTile x kLadderTile tile per block, kLadderTile / kLadderBlockY rows
// per thread, the same shape as the tiled transposes, so the comparison is like for like.
constexpr int kLadderTile = 32;

// Copies tile (tile_r, tile_c) of one matrix; `ld` serves both sides (out has in's layout).
template <typename T>
__device__ void copy_tile(const T* in, T* out, const MatrixGeometry& g, std::int64_t tile_r,
                          std::int64_t tile_c, int tx, int ty) {
  const std::int64_t c = tile_c * kLadderTile + tx;
  if (c >= g.cols) return;
  for (int j = ty; j < kLadderTile; j += kLadderBlockY) {
    const std::int64_t r = tile_r * kLadderTile + j;
    if (r < g.rows) out[r * g.ld_in + c] = in[r * g.ld_in + c];
  }
}

// Block (32, 8); tile 32 x 32 of the input. Grid (tiles of cols, tiles of rows, batch).
template <typename T>
__global__ void __launch_bounds__(kLadderBlockX * kLadderBlockY)
    copy_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t tr = blockIdx.y; tr < g.tiles_y; tr += gridDim.y)
      copy_tile(in + b * g.bs_in, out + b * g.bs_in, g, tr, blockIdx.x, threadIdx.x, threadIdx.y);
}

// Source element (r, c) -> destination (c, r). Adjacent threads read adjacent columns (coalesced)
// and write addresses ld_out apart (one memory transaction each).
template <typename T>
__device__ void naive_read_element(const T* in, T* out, const MatrixGeometry& g, std::int64_t r,
                                   std::int64_t c) {
  if (r < g.rows && c < g.cols) out[c * g.ld_out + r] = in[r * g.ld_in + c];
}

// Block (32, 8): one thread per source element, x along the input's columns.
template <typename T>
__global__ void __launch_bounds__(kLadderBlockX * kLadderBlockY)
    naive_read_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * kLadderBlockX + threadIdx.x;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t ty = blockIdx.y; ty < g.tiles_y; ty += gridDim.y)
      naive_read_element(in + b * g.bs_in, out + b * g.bs_out, g, ty * kLadderBlockY + threadIdx.y, c);
}

// Destination element (oc, orow) with orow = source column: adjacent threads write adjacent
// addresses (coalesced) and read addresses ld_in apart.
template <typename T>
__device__ void naive_write_element(const T* in, T* out, const MatrixGeometry& g, std::int64_t orow,
                                    std::int64_t ocol) {
  if (orow < g.cols && ocol < g.rows) out[orow * g.ld_out + ocol] = in[ocol * g.ld_in + orow];
}

// Block (32, 8): one thread per destination element, x along the output's columns (= input rows).
template <typename T>
__global__ void __launch_bounds__(kLadderBlockX * kLadderBlockY)
    naive_write_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  const std::int64_t ocol = static_cast<std::int64_t>(blockIdx.x) * kLadderBlockX + threadIdx.x;
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t ty = blockIdx.y; ty < g.tiles_y; ty += gridDim.y)
      naive_write_element(in + b * g.bs_in, out + b * g.bs_out, g, ty * kLadderBlockY + threadIdx.y, ocol);
}

}  // namespace xpose::gpu
