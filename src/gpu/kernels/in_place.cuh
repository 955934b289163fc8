// In-place transposes of square matrices: each block swaps a pair of mirrored tiles, (i, j) and
// (j, i), through shared memory, or transposes a tile of the diagonal onto itself.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_vec.cuh"
#include "plan/in_place.hpp"

namespace xpose::gpu {

// Tile pair k of a matrix with tiles a side, numbered by upper-triangle column: k = j (j + 1) / 2 + i
// for tile row i <= tile column j, so consecutive blocks take one tile column's tiles down to the
// diagonal, and their mirrors along one tile row. (The square root only starts the search: the
// loops correct its rounding.)
struct TilePair {
  std::int64_t i, j;
};
__device__ __forceinline__ TilePair tile_pair(std::int64_t k) {
  auto j = static_cast<std::int64_t>((sqrt(8.0 * static_cast<double>(k) + 1.0) - 1.0) / 2.0);
  while (j * (j + 1) / 2 > k) --j;
  while ((j + 1) * (j + 2) / 2 <= k) ++j;
  return TilePair{k - j * (j + 1) / 2, j};
}

// Where tile (ti, tj) of matrix b lies: its input at tile row ti, column tj; its transpose goes to
// tile (tj, ti), which is where that tile's input lies (square tiles, one layout).
template <typename Tile>
__device__ __forceinline__ VecTilePos in_place_tile(unsigned char* data, const MatrixGeometry& g, std::int64_t b,
                                                    std::int64_t ti, std::int64_t tj) {
  constexpr int E = Tile::kE;
  const std::int64_t r0 = ti * Tile::kRows, c0 = tj * Tile::kCols;
  VecTilePos p;
  p.src = data + (b * g.bs_in + r0 * g.ld_in + c0) * E;
  p.dst = data + (b * g.bs_in + c0 * g.ld_in + r0) * E;
  p.rows_valid = static_cast<int>(g.rows - r0 < Tile::kRows ? g.rows - r0 : Tile::kRows);
  p.bytes_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? (g.cols - c0) * E : Tile::kCols * E);
  return p;
}

// Block (Tile::kThreads); two square tiles of Tile::kTileB bytes in dynamic shared memory (2 x
// kTileB bytes), swizzled as tiled_vec's; grid (blocks), block k taking tile pairs k, k + gridDim.x,
// ... of pairs x batch. Both tiles' loads are in flight before either is stored, and every load of
// the pair lands in shared memory before the barrier, so no store can overwrite a byte still to be
// read. Needs V-byte aligned data, rows and matrices a multiple of V bytes apart. kMinBlocksPerSm:
// plan::in_place_shape's register cap.
template <typename Tile, int kMinBlocksPerSm>
__global__ void __launch_bounds__(Tile::kThreads, kMinBlocksPerSm)
    in_place_pairs_kernel(unsigned char* data, MatrixGeometry g, std::int64_t pairs) {
  static_assert(Tile::kRows == Tile::kCols, "mirrored tiles must be square");
  extern __shared__ __align__(16) unsigned char in_place_tiles[];  // 2 x (kRows, kRowBytes) bytes, swizzled
  unsigned char* const upper_tile = in_place_tiles;
  unsigned char* const lower_tile = in_place_tiles + Tile::kTileB;
  const std::int64_t ld_bytes = g.ld_in * Tile::kE;
  const int tid = threadIdx.x;
  for (std::int64_t k = blockIdx.x; k < pairs * g.batch; k += gridDim.x) {
    const TilePair t = tile_pair(k % pairs);
    const std::int64_t b = k / pairs;
    const VecTilePos upper = in_place_tile<Tile>(data, g, b, t.i, t.j);
    const VecTilePos lower = in_place_tile<Tile>(data, g, b, t.j, t.i);
    const bool mirrored = t.i != t.j;
    {
      VecWords<Tile::kVBytes> u[Tile::kLoadsPerThread], l[Tile::kLoadsPerThread];
      vec_issue_loads<Tile>(upper, ld_bytes, tid, u);
      if (mirrored) vec_issue_loads<Tile>(lower, ld_bytes, tid, l);
      vec_commit_loads<Tile>(upper, tid, u, upper_tile);
      if (mirrored) vec_commit_loads<Tile>(lower, tid, l, lower_tile);
    }
    __syncthreads();
    vec_store_tile<Tile>(upper.dst, ld_bytes, upper.rows_valid, upper.bytes_valid, upper_tile, tid);
    if (mirrored) vec_store_tile<Tile>(lower.dst, ld_bytes, lower.rows_valid, lower.bytes_valid, lower_tile, tid);
    __syncthreads();  // the tiles are read before the next pair's loads land
  }
}

// Any alignment the element allows: block (32, 8), two kEdge x kEdge tiles of elements padded a
// column against bank conflicts, each thread moving kEdge^2 / 256 elements of each; the same pairs
// as above.
template <typename T, int kEdge>
__global__ void __launch_bounds__(plan::kInPlaceElementBlockX * plan::kInPlaceElementBlockY)
    in_place_elements_kernel(T* data, MatrixGeometry g, std::int64_t pairs) {
  constexpr int kStepX = plan::kInPlaceElementBlockX, kStepY = plan::kInPlaceElementBlockY;
  __shared__ T tiles[2][kEdge][kEdge + 1];  // 2 x (kEdge, kEdge + 1) elements
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (std::int64_t k = blockIdx.x; k < pairs * g.batch; k += gridDim.x) {
    const TilePair t = tile_pair(k % pairs);
    T* m = data + k / pairs * g.bs_in;
    const std::int64_t r_up = t.i * kEdge, c_up = t.j * kEdge;  // upper tile's origin; the lower's is mirrored
    const bool mirrored = t.i != t.j;
#pragma unroll
    for (int r = ty; r < kEdge; r += kStepY)
#pragma unroll
      for (int x = tx; x < kEdge; x += kStepX) {
        if (r_up + r < g.rows && c_up + x < g.cols) tiles[0][r][x] = m[(r_up + r) * g.ld_in + c_up + x];
        if (mirrored && c_up + r < g.rows && r_up + x < g.cols) tiles[1][r][x] = m[(c_up + r) * g.ld_in + r_up + x];
      }
    __syncthreads();
    // Row r of the mirror tile's place gets column r of the upper tile, and the other way round.
#pragma unroll
    for (int r = ty; r < kEdge; r += kStepY)
#pragma unroll
      for (int x = tx; x < kEdge; x += kStepX) {
        if (c_up + r < g.rows && r_up + x < g.cols) m[(c_up + r) * g.ld_in + r_up + x] = tiles[0][x][r];
        if (mirrored && r_up + r < g.rows && c_up + x < g.cols) m[(r_up + r) * g.ld_in + c_up + x] = tiles[1][x][r];
      }
    __syncthreads();
  }
}

}  // namespace xpose::gpu
