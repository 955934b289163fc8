// The production transpose: 16-byte global loads and stores on both sides, a swizzled shared-memory tile,
// and in-register byte/halfword transposes so 1- and 2-byte types move whole 32-bit words.
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "plan/tiled_vec_shape.hpp"  // kVecThreads, kVecBytes, tile sizes: the planner sizes grids by them

namespace xpose::gpu {

// Threads are handled in groups of 32 (a warp on NVIDIA, half a wavefront on CDNA): within a group,
// 8 threads walk input rows and 4 walk input columns in the store phase. The mapping only decides
// which bank each thread touches; correctness does not depend on the hardware warp width.
constexpr int kLaneGroup = 32;

// Shape of a tile of kTileBytes bytes, kRowBytes bytes per input row, for E-byte elements.
template <int E, int kRowBytes, int kTileBytes>
struct VecTile {
  static constexpr int kRows = kTileBytes / kRowBytes;        // input rows per tile
  static constexpr int kCols = kRowBytes / E;                 // input columns per tile
  static constexpr int kV = kVecBytes / E;                    // input rows per 16-byte output vector
  static constexpr int kUnit = E < 4 ? 4 : E;                 // bytes per shared-memory read
  static constexpr int kColsPerUnit = E < 4 ? 4 / E : 1;      // input columns per read (packed words)
  static constexpr int kChunksPerRow = kRowBytes / kVecBytes;
  // 16-byte chunk c of row r lives at chunk c ^ ((r / kV) & kSwizzle): the 8 threads that read one
  // column in the store phase (rows kV apart) then hit 8 different chunks, i.e. different banks,
  // while the 16-byte writes of the load phase stay whole.
  static constexpr int kSwizzle = (kChunksPerRow < 8 ? kChunksPerRow : 8) - 1;
  // Store phase: a group of 32 threads is kRowThreads (8, fewer for tiles of few rows) threads
  // down the rows, kV rows each, by kUnitThreads across the units.
  static constexpr int kRowThreads = kRows / kV < 8 ? kRows / kV : 8;
  static constexpr int kUnitThreads = kLaneGroup / kRowThreads;
  static constexpr int kRowGroups = kRows / (kRowThreads * kV);
  static constexpr int kUnitGroups = kRowBytes / kUnit / kUnitThreads;
  static constexpr int kLoadsPerThread = kTileBytes / kVecBytes / kVecThreads;
  static_assert(kRowThreads >= 1 && kRowGroups >= 1 && kUnitGroups >= 1, "tile too small for this element size");
  static_assert(kLoadsPerThread * kVecBytes * kVecThreads == kTileBytes, "tile must split evenly");
};

template <int E, int kRowBytes, int kTileBytes>
__device__ __forceinline__ int vec_tile_offset(int r, int byte_col) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
  const int chunk = (byte_col >> 4) ^ ((r / Tile::kV) & Tile::kSwizzle);
  return r * kRowBytes + (chunk << 4) + (byte_col & 15);
}

// Builds the 16-byte output vector for input column j of a unit from kV words read down the rows.
template <int E>
__device__ __forceinline__ uint4 gather_column(const std::uint32_t* w, int j);

template <>
__device__ __forceinline__ uint4 gather_column<1>(const std::uint32_t* w, int j) {
  // Byte j of 16 words (rows), four at a time: pick byte j of a,b then of c,d, then join the halves.
  const unsigned sel = static_cast<unsigned>(j) | (static_cast<unsigned>(j + 4) << 4);
  std::uint32_t out[4];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const std::uint32_t ab = __byte_perm(w[4 * q], w[4 * q + 1], sel);
    const std::uint32_t cd = __byte_perm(w[4 * q + 2], w[4 * q + 3], sel);
    out[q] = __byte_perm(ab, cd, 0x5410);
  }
  return make_uint4(out[0], out[1], out[2], out[3]);
}

template <>
__device__ __forceinline__ uint4 gather_column<2>(const std::uint32_t* w, int j) {
  // Halfword j of 8 words (rows), two rows per output word.
  const unsigned sel = j == 0 ? 0x5410u : 0x7632u;
  return make_uint4(__byte_perm(w[0], w[1], sel), __byte_perm(w[2], w[3], sel), __byte_perm(w[4], w[5], sel),
                    __byte_perm(w[6], w[7], sel));
}

template <>
__device__ __forceinline__ uint4 gather_column<4>(const std::uint32_t* w, int) {
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// Where tile number `tile` (in tile_coord's order) lies, and how much of it is inside the matrix.
struct VecTilePos {
  const unsigned char* src;  // input element (r0, c0) of the tile
  unsigned char* dst;        // output element (c0, r0)
  int rows_valid, bytes_valid;
};

template <int E, int kRowBytes, int kTileBytes>
__device__ VecTilePos vec_tile_position(const unsigned char* in, unsigned char* out, const MatrixGeometry& g,
                                        const TileGrid& grid, std::uint32_t tile) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
  const TileCoord t = tile_coord(tile, grid);
  const std::int64_t r0 = t.tr * Tile::kRows, c0 = t.tc * Tile::kCols;
  VecTilePos p;
  p.src = in + (t.b * g.bs_in + r0 * g.ld_in + c0) * E;
  p.dst = out + (t.b * g.bs_out + c0 * g.ld_out + r0) * E;
  p.rows_valid = static_cast<int>(g.rows - r0 < Tile::kRows ? g.rows - r0 : Tile::kRows);
  p.bytes_valid = static_cast<int>(g.cols - c0 < Tile::kCols ? (g.cols - c0) * E : kRowBytes);
  return p;
}

// Load phase, first half: issue the tile's whole 16-byte chunks into registers, all before any is
// used, so they are in flight together.
template <int E, int kRowBytes, int kTileBytes>
__device__ __forceinline__ void vec_issue_loads(const VecTilePos& p, std::int64_t ld_in_bytes, int tid,
                                                uint4 (&v)[VecTile<E, kRowBytes, kTileBytes>::kLoadsPerThread]) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
#pragma unroll
  for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
    const int idx = k * kVecThreads + tid;
    const int r = idx / Tile::kChunksPerRow, cb = (idx % Tile::kChunksPerRow) * kVecBytes;
    if (r < p.rows_valid && cb + kVecBytes <= p.bytes_valid)
      v[k] = *reinterpret_cast<const uint4*>(p.src + r * ld_in_bytes + cb);
  }
}

// Load phase, second half: the registers into the swizzled tile; chunks cut by the matrix edge are
// copied element by element from global memory.
template <int E, int kRowBytes, int kTileBytes>
__device__ __forceinline__ void vec_commit_loads(const VecTilePos& p, std::int64_t ld_in_bytes, int tid,
                                                 const uint4 (&v)[VecTile<E, kRowBytes, kTileBytes>::kLoadsPerThread],
                                                 unsigned char* tile /* (kRows, kRowBytes) bytes */) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
#pragma unroll
  for (int k = 0; k < Tile::kLoadsPerThread; ++k) {
    const int idx = k * kVecThreads + tid;
    const int r = idx / Tile::kChunksPerRow, cb = (idx % Tile::kChunksPerRow) * kVecBytes;
    if (r >= p.rows_valid || cb >= p.bytes_valid) continue;
    if (cb + kVecBytes <= p.bytes_valid) {
      *reinterpret_cast<uint4*>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(r, cb)) = v[k];
    } else {
      for (int b = cb; b < p.bytes_valid; b += E)
        copy_element<E>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(r, b), p.src + r * ld_in_bytes + b);
    }
  }
}

// Store phase: thread (tr, tu) of each group of 32 reads kV rows of one unit (kColsPerUnit input
// columns) and writes kColsPerUnit 16-byte output vectors; the kRowThreads tr-threads write
// kRowThreads x 16 contiguous bytes of each output row. Blocks cut by the matrix edge are written
// element by element.
template <int E, int kRowBytes, int kTileBytes>
__device__ void vec_store_tile(unsigned char* out, std::int64_t ld_out_bytes, int rows_valid, int bytes_valid,
                               const unsigned char* tile /* (kRows, kRowBytes) bytes */, int tid) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
  const int lane = tid % kLaneGroup, group = tid / kLaneGroup;
  const int tr = lane % Tile::kRowThreads, tu = lane / Tile::kRowThreads;
  constexpr int kGroups = kVecThreads / kLaneGroup;
  for (int s = group; s < Tile::kRowGroups * Tile::kUnitGroups; s += kGroups) {
    const int rb = ((s % Tile::kRowGroups) * Tile::kRowThreads + tr) * Tile::kV;      // first input row of the block
    const int cb = ((s / Tile::kRowGroups) * Tile::kUnitThreads + tu) * Tile::kUnit;  // byte column of the unit
    if (rb >= rows_valid || cb >= bytes_valid) continue;
    const int col0 = cb / E;  // first input column of the unit = first output row
    if (rb + Tile::kV <= rows_valid && cb + Tile::kUnit <= bytes_valid) {
      uint4 vec[Tile::kColsPerUnit];
      if constexpr (E <= 4) {
        std::uint32_t w[Tile::kV];
#pragma unroll
        for (int i = 0; i < Tile::kV; ++i)
          w[i] = *reinterpret_cast<const std::uint32_t*>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(rb + i, cb));
#pragma unroll
        for (int j = 0; j < Tile::kColsPerUnit; ++j) vec[j] = gather_column<E>(w, j);
      } else if constexpr (E == 8) {
        const uint2 a = *reinterpret_cast<const uint2*>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(rb, cb));
        const uint2 b = *reinterpret_cast<const uint2*>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(rb + 1, cb));
        vec[0] = make_uint4(a.x, a.y, b.x, b.y);
      } else {
        vec[0] = *reinterpret_cast<const uint4*>(tile + vec_tile_offset<E, kRowBytes, kTileBytes>(rb, cb));
      }
#pragma unroll
      for (int j = 0; j < Tile::kColsPerUnit; ++j)
        *reinterpret_cast<uint4*>(out + (col0 + j) * ld_out_bytes + rb * E) = vec[j];
    } else {
      for (int j = 0; j < Tile::kColsPerUnit && cb + j * E < bytes_valid; ++j)
        for (int r = rb; r < rb + Tile::kV && r < rows_valid; ++r)
          copy_element<E>(out + (col0 + j) * ld_out_bytes + r * E,
                          tile + vec_tile_offset<E, kRowBytes, kTileBytes>(r, cb + j * E));
    }
  }
}

// Block (kVecThreads), one tile per block; tile VecTile<E, kRowBytes, kTileBytes>::kRows x kRowBytes
// bytes of input, swizzled, in kTileBytes of shared memory; grid (tiles): the order of
// vec_tile_position. Needs 16-byte aligned base pointers and row/batch strides that are
// multiples of 16 bytes. The register cap keeps kVecMinBlocksPerSm blocks per SM resident.
// (A persistent variant that loaded the next tile while storing this one measured slower on an
// H200 and needed registers enough to spill the 1-byte kernels: gone.)
template <int E, int kRowBytes, int kTileBytes>
__global__ void __launch_bounds__(kVecThreads, kVecMinBlocksPerSm)
    tiled_vec_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, MatrixGeometry g,
                     TileGrid grid) {
  using Tile = VecTile<E, kRowBytes, kTileBytes>;
  alignas(16) __shared__ unsigned char tile[kTileBytes];  // (kRows, kRowBytes) bytes, swizzled
  const std::int64_t ld_in_bytes = g.ld_in * E, ld_out_bytes = g.ld_out * E;
  const int tid = threadIdx.x;
  const VecTilePos p = vec_tile_position<E, kRowBytes, kTileBytes>(in, out, g, grid, blockIdx.x);
  {
    uint4 v[Tile::kLoadsPerThread];
    vec_issue_loads<E, kRowBytes, kTileBytes>(p, ld_in_bytes, tid, v);
    vec_commit_loads<E, kRowBytes, kTileBytes>(p, ld_in_bytes, tid, v, tile);
  }
  __syncthreads();
  vec_store_tile<E, kRowBytes, kTileBytes>(p.dst, ld_out_bytes, p.rows_valid, p.bytes_valid, tile, tid);
}

}  // namespace xpose::gpu
