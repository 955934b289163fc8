// The shared-memory rungs of the ladder: a tile staged through shared memory, with or without padding.
#pragma once

#include "gpu/kernels/geometry.cuh"
#include "gpu/runtime.hpp"

namespace xpose::gpu {

// Tile edge in elements: one tile row of 4-byte words covers every shared-memory bank once.
constexpr int kTiledTile = rt::kSmemBanks;
// Padding of tiled_padded: kTiledTile + 1 is coprime with the bank count, so a tile column lands
// in as many banks as it has elements.
constexpr int kTiledPad = 1;
constexpr int kTiledBlockY = 8;   // block is (kTiledTile, kTiledBlockY): each thread moves 4 rows

// Moves input tile (tile_r, tile_c) to its transposed place through `tile`.
// Read: threads along x read one input row (coalesced). Write: threads along x write one output
// row, reading a column of `tile`: with kPad = 0 the column's elements sit kTiledTile words apart,
// all in one bank (the conflicts the ladder shows); kPad = kTiledPad spreads them over every bank.
template <typename T, int kPad>
__device__ void transpose_tile_smem(const T* in, T* out, const MatrixGeometry& g, std::int64_t tile_r,
                                    std::int64_t tile_c, int tx, int ty,
                                    T (*tile)[kTiledTile + kPad] /* (kTiledTile, kTiledTile + kPad) */) {
  const std::int64_t r0 = tile_r * kTiledTile, c0 = tile_c * kTiledTile;
  if (c0 + tx < g.cols)
    for (int j = ty; j < kTiledTile; j += kTiledBlockY)
      if (r0 + j < g.rows) tile[j][tx] = in[(r0 + j) * g.ld_in + c0 + tx];
  __syncthreads();
  if (r0 + tx < g.rows)
    for (int j = ty; j < kTiledTile; j += kTiledBlockY)
      if (c0 + j < g.cols) out[(c0 + j) * g.ld_out + r0 + tx] = tile[tx][j];
  __syncthreads();  // the tile is reused by the next loop iteration
}

// Block (kTiledTile, kTiledBlockY) = (32, 8); tile 32 x (32 + kPad) in shared memory.
// Grid (tiles of cols, tiles of rows, batch).
template <typename T, int kPad>
__global__ void __launch_bounds__(kTiledTile * kTiledBlockY)
    tiled_kernel(const T* __restrict__ in, T* __restrict__ out, MatrixGeometry g) {
  __shared__ T tile[kTiledTile][kTiledTile + kPad];  // (kTiledTile, kTiledTile + kPad)
  for (std::int64_t b = blockIdx.z; b < g.batch; b += gridDim.z)
    for (std::int64_t tr = blockIdx.y; tr < g.tiles_y; tr += gridDim.y)
      transpose_tile_smem<T, kPad>(in + b * g.bs_in, out + b * g.bs_out, g, tr, blockIdx.x, threadIdx.x,
                                   threadIdx.y, tile);
}

}  // namespace xpose::gpu
