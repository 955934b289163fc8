// The gather kernel: no shared memory. Each thread loads 16 / E input rows of one unit (an E-byte
// element, or for 2-byte elements where the input strides allow a 4-byte word of 2 columns)
// straight from global memory, transposes them in registers and writes one 16-byte vector of each of
// its columns' output rows. Small transposes are bound by latency, not bandwidth: this path skips the
// shared-memory round trip and barrier of tiled_vec, which costs them more than its whole-sector
// loads save (see the planner's rule, src/plan/gpu_planner.cpp).
#pragma once

#include <cstdint>

#include "gpu/kernels/element.cuh"
#include "gpu/kernels/geometry.cuh"
#include "gpu/kernels/tiled_vec.cuh"  // VecWords, store_vec, gather_column, kLaneGroup

namespace xpose::gpu {

// A group of 32 threads is kRowThreads down the rows (kRowThreads x 16 contiguous bytes of each
// output row per store) by 32 / kRowThreads across the units; a block is kGroupsDown x kGroupsAcross
// such groups, and each thread does kRep row blocks, one kGroupsDown x kRowThreads x kV rows below the
// other (loads of all of them first, so that they are in flight together).
template <int E, bool kWords, int kRowThreadCount, int kGroupsDownCount, int kGroupsAcrossCount, int kRepCount>
struct GatherTile {
  static_assert(E == 1 || E == 2 || E == 4 || E == 8 || E == 16, "element sizes 1 to 16 bytes");
  static_assert(!kWords || E < 4, "word units pack 1- and 2-byte elements");
  static constexpr int kE = E;
  static constexpr bool kWordUnits = kWords;
  static constexpr int kV = 16 / E;                     // input rows per output vector
  static constexpr int kUnit = kWords ? 4 : E;          // bytes per load
  static constexpr int kCols = kUnit / E;               // input columns per thread
  static constexpr int kRowThreads = kRowThreadCount;
  static constexpr int kUnitThreads = kLaneGroup / kRowThreads;
  static constexpr int kGroupsDown = kGroupsDownCount;
  static constexpr int kGroupsAcross = kGroupsAcrossCount;
  static constexpr int kRep = kRepCount;
  static constexpr int kThreads = kLaneGroup * kGroupsDown * kGroupsAcross;
  static constexpr int kRepRows = kGroupsDown * kRowThreads * kV;  // rows between a thread's row blocks
  static constexpr int kRows = kRep * kRepRows;                     // tile rows
  static constexpr int kTileCols = kGroupsAcross * kUnitThreads * kCols;
  static_assert(kLaneGroup % kRowThreads == 0, "whole groups");
};

// The kV rows of a thread's unit, all inside the matrix: every load is issued before any is used, so
// that they are in flight together (loads guarded one by one were issued one after the other's use:
// u8 256^2 took 1.94x memcpy's time instead of 1.13x on an H200,
// bench/results/h200_2026-11-24j_gather_cli_ab_guarded_loads.txt).
template <typename Tile, typename Index>
__device__ __forceinline__ void load_whole(VecWords<16> (&vec)[Tile::kCols], const unsigned char* p,
                                           Index ld_in_bytes) {
  constexpr int E = Tile::kE, kV = Tile::kV;
  if constexpr (Tile::kWordUnits) {
    std::uint32_t u[kV];
#pragma unroll
    for (int i = 0; i < kV; ++i) u[i] = *reinterpret_cast<const std::uint32_t*>(p + i * ld_in_bytes);
#pragma unroll
    for (int j = 0; j < Tile::kCols; ++j) vec[j] = gather_column<E, 16>(u, j);
  } else if constexpr (E == 16) {
    vec[0] = load_vec<16>(p);
  } else if constexpr (E == 8) {
#pragma unroll
    for (int i = 0; i < kV; ++i) {
      const uint2 x = *reinterpret_cast<const uint2*>(p + i * ld_in_bytes);
      vec[0].w[2 * i] = x.x, vec[0].w[2 * i + 1] = x.y;
    }
  } else {
    using T = typename ElementStorage<E>::type;
    T x[kV];
#pragma unroll
    for (int i = 0; i < kV; ++i) x[i] = *reinterpret_cast<const T*>(p + i * ld_in_bytes);
    constexpr int kPer = 4 / E;  // elements per word
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      std::uint32_t w = 0;
#pragma unroll
      for (int m = 0; m < kPer; ++m) w |= static_cast<std::uint32_t>(x[q * kPer + m]) << (8 * E * m);
      vec[0].w[q] = w;
    }
  }
}

// What the kernel reads of the layout, in byte strides of type Index, in the order it needs them, so
// that with the pointers before them the fields of a single matrix lie in the first 64 bytes of the
// parameters: a small transpose waits on each constant-bank fetch on the way to its first load.
// Measured on an H200 (time over memcpy's, bench/results/h200_2026-11-24j_gather_overheads.txt and
// _gather_vs_tiled_vec.txt), f32 256^2: MatrixGeometry and TileGrid 1.103, these fields 1.091, with
// interior tiles unchecked (gather_block) 1.079, reordered like this 1.060; the same gather without
// any edge handling, 1.048. The batch decode as a template parameter: 1.055 against that 1.053 in a
// later run (h200_2026-11-24k_gather_vs_tiled_vec.txt).
template <typename Index>
struct GatherArgs {
  FastDiv tiles_y;  // tile rows per matrix
  Index ld_in_bytes, ld_out_bytes;
  Index rows, cols;
  FastDiv tiles_c;  // tile columns per matrix (divided by only in a batch)
  Index bs_in_bytes, bs_out_bytes;
};

// A thread's kRep row blocks of kV rows by kCols columns, from `src` (its first element) to `dst`.
// kEdge: the tile is cut by the matrix's edge, `rows_left` and `cols_here` say how much of the
// thread's part is inside (element by element where not all of it); else everything is, and no
// check stands between the thread's first instruction and its loads.
template <typename Tile, bool kEdge, typename Index>
__device__ __forceinline__ void gather_block(const unsigned char* src, unsigned char* dst, Index ld_in_bytes,
                                             Index ld_out_bytes, Index rows_left, int cols_here) {
  constexpr int E = Tile::kE, kV = Tile::kV, kCols = Tile::kCols;
  VecWords<16> vec[Tile::kRep][kCols];
#pragma unroll
  for (int k = 0; k < Tile::kRep; ++k) {
    const unsigned char* p = src + k * Tile::kRepRows * ld_in_bytes;
    const Index left = rows_left - k * Tile::kRepRows;
    if (!kEdge || (left >= kV && cols_here == kCols)) {
      load_whole<Tile>(vec[k], p, ld_in_bytes);
    } else {
#pragma unroll
      for (int j = 0; j < kCols; ++j) vec[k][j] = VecWords<16>{};
#pragma unroll
      for (int i = 0; i < kV; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j)
          if (i < left && j < cols_here) put_element<E>(vec[k][j].w, i, p + i * ld_in_bytes + j * E);
    }
  }
#pragma unroll
  for (int k = 0; k < Tile::kRep; ++k) {
    unsigned char* q = dst + k * Tile::kRepRows * E;
    const Index left = rows_left - k * Tile::kRepRows;
#pragma unroll
    for (int j = 0; j < kCols; ++j) {
      if (!kEdge || (left >= kV && j < cols_here)) {
        store_vec<16>(q + j * ld_out_bytes, vec[k][j]);
      } else if (j < cols_here) {
#pragma unroll
        for (int i = 0; i < kV; ++i)
          if (i < left) take_element<E>(vec[k][j].w, i, q + j * ld_out_bytes + i * E);
      }
    }
  }
}

// Block Tile::kThreads, one tile per block, tiles down the matrix first. Needs a 16-byte aligned
// output with row and batch strides that are multiples of 16 bytes; input aligned to its unit (4
// bytes for word units, else the element; 16-byte elements are read whole). Index: the type of the
// offsets, 32-bit where both buffers span less than 2^31 bytes (fewer instructions on the way to the
// first load), else 64-bit. kBatched: more than one matrix (the tile number is then divided twice).
// kTilesWhole: the tiles cover the matrices exactly, so that no block checks whether its tile is
// cut on the way to its loads (H200, us, in one process, checked -> kTilesWhole; bf16 256^2 2.743 ->
// 2.700, u8 256^2 2.645 -> 2.610, f64 1024^2 6.949 -> 6.835; bench/results/h200_2026-11-30l_gather_probe.txt).
template <typename Tile, typename Index, bool kBatched, bool kTilesWhole = false>
__global__ void __launch_bounds__(Tile::kThreads)
    gather_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, GatherArgs<Index> a) {
  constexpr int E = Tile::kE, kV = Tile::kV, kCols = Tile::kCols;
  const QuotRem down = fast_divmod(blockIdx.x, a.tiles_y);
  const QuotRem across = kBatched ? fast_divmod(down.quot, a.tiles_c) : QuotRem{0, down.quot};
  const int lane = threadIdx.x % kLaneGroup, group = threadIdx.x / kLaneGroup;
  const int tr = lane % Tile::kRowThreads, tu = lane / Tile::kRowThreads;
  const int gd = group % Tile::kGroupsDown, ga = group / Tile::kGroupsDown;
  const Index tile_r = static_cast<Index>(down.rem) * Tile::kRows;
  const Index tile_c = static_cast<Index>(across.rem) * Tile::kTileCols;
  const Index r0 = tile_r + (gd * Tile::kRowThreads + tr) * kV;  // the thread's first row
  const Index c = tile_c + (ga * Tile::kUnitThreads + tu) * kCols;  // and column
  const bool interior = kTilesWhole || (tile_r + Tile::kRows <= a.rows && tile_c + Tile::kTileCols <= a.cols);
  if (!interior && (c >= a.cols || r0 >= a.rows)) return;  // no barrier follows
  const Index b = static_cast<Index>(across.quot);
  const unsigned char* src = in + b * a.bs_in_bytes + r0 * a.ld_in_bytes + c * E;
  unsigned char* dst = out + b * a.bs_out_bytes + c * a.ld_out_bytes + r0 * E;
  if (interior)
    gather_block<Tile, false>(src, dst, a.ld_in_bytes, a.ld_out_bytes, a.rows - r0, kCols);
  else
    gather_block<Tile, true>(src, dst, a.ld_in_bytes, a.ld_out_bytes, a.rows - r0,
                             static_cast<int>(a.cols - c < kCols ? a.cols - c : kCols));
}

}  // namespace xpose::gpu
