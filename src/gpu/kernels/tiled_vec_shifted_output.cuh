// tiled_vec for an output pointer off the 16-byte grid where each tile's output is one contiguous run:
// packed output rows (ld_out == rows) exactly one tile tall (rows == the tile's rows). A tile of C
// columns then writes C x rows elements back to back, so the block stages that run in shared memory
// and writes it in aligned 16-byte chunks, each cut from the two stage chunks around it; only the
// run's first and last chunks, which the neighbouring tiles share, are written in pieces. Few-rows
// matrices with the output one element off had no tiled path (a lead of rows needs 16 tile rows),
// and skinny's slabs ran them at 0.62-0.80 of memcpy on an H200, these tiles at 0.86-0.90
// (configure_shifted_output_tiled_vec).
#pragma once

#include <cstdint>

#include "gpu/kernels/byte_window.cuh"
#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/tiled_vec.cuh"

namespace xpose::gpu {

// 16-byte chunk q of the staged run in shared memory: XOR-ing the chunk's place within its 128 bytes
// with q / 16 moves the staging stores of units 16 chunks apart. A replay of the stores counts one
// wavefront per quarter group in three of the four built tiles, two in the u8 tile of 64 rows; a
// swizzle that makes that one whole too (q ^ ((q >> 2) & 4)) ran it level and the other three 1% slower
// on an H200 (bench/results/h200_2026-11-30j_shifted_output_swizzle.txt), so this one stays. 8
// consecutive chunks, which the store phase's reads take, keep 8 different places.
__device__ __forceinline__ int staged_chunk_offset(int q) { return 16 * (q ^ ((q >> 4) & 7)); }

// Gathers the tile's output vectors as vec_store_tile does (every tile row is valid here: rows ==
// kRows; the built tiles, tiled_vec_shifted_output_built, cover them in one pass of the store mapping),
// then, after the whole block has read the tile, stages them in it as one run: output row c of the
// tile at run bytes [c * kRows * E, (c + 1) * kRows * E). Columns past bytes_valid are not staged.
template <typename Tile>
__device__ __forceinline__ void stage_output_run(unsigned char* tile, int bytes_valid, int tid) {
  constexpr int E = Tile::kE, V = Tile::kVBytes;
  constexpr int kGroups = Tile::kThreads / kLaneGroup;
  constexpr int kPasses = Tile::kUnitGroups / kGroups;
  static_assert(Tile::kRowGroups == 1 && kPasses * kGroups == Tile::kUnitGroups, "one pass covers every row");
  const int lane = tid % kLaneGroup, group = tid / kLaneGroup;
  const int tr = lane % Tile::kRowThreads, tu = lane / Tile::kRowThreads;
  const int rb = tr * Tile::kV;
  const auto unit_byte = [&](int pass) { return ((group + pass * kGroups) * Tile::kUnitThreads + tu) * Tile::kUnit; };
  VecWords<V> vec[kPasses][Tile::kColsPerUnit];
#pragma unroll
  for (int i = 0; i < kPasses; ++i) {
    const int cb = unit_byte(i);
    // A unit cut by the last column reads whole words of the tile; its columns past the matrix are
    // dropped below.
    if (cb < bytes_valid) vec_gather_unit<Tile>(tile, rb, cb, vec[i]);
  }
  __syncthreads();  // the whole tile is read: it becomes the stage
#pragma unroll
  for (int i = 0; i < kPasses; ++i) {
    const int cb = unit_byte(i);
#pragma unroll
    for (int j = 0; j < Tile::kColsPerUnit; ++j)
      if (cb + j * E < bytes_valid)
        store_vec<V>(tile + staged_chunk_offset(((cb / E + j) * Tile::kRows + rb) * E / 16), vec[i][j]);
  }
}

// Writes the staged run of n bytes to `dst` (element-aligned, off the 16-byte grid by s bytes): aligned
// chunk q holds run bytes [16 q - s, 16 q - s + 16), cut from stage chunks q - 1 and q; each lane
// takes chunk q - 1 from the lane below (lane 0 reads it). The first and last chunks are written in
// pieces, leaving the bytes of the neighbouring runs alone.
template <typename Tile>
__device__ __forceinline__ void store_shifted_run(unsigned char* dst, const unsigned char* stage, int n, int tid) {
  const int s = static_cast<int>(reinterpret_cast<std::uintptr_t>(dst) & 15);
  unsigned char* grid = dst - s;  // aligned chunk q at grid + 16 q
  const int chunks = (s + n + 15) / 16;
  const int lane = tid % kLaneGroup;
  const auto stage_chunk = [stage, n](int q) {
    return q >= 0 && 16 * q < n ? *reinterpret_cast<const uint4*>(stage + staged_chunk_offset(q))
                                : make_uint4(0, 0, 0, 0);
  };
  with_word_offset(16 - s, [&](auto words) {
    // Whole rounds of the block, so that every lane of a group reaches each shuffle.
    for (int q0 = 0; q0 < chunks; q0 += Tile::kThreads) {
      const int q = q0 + tid;
      const uint4 cur = stage_chunk(q);
      uint4 prev = shfl_chunk_up(cur);
      if (lane == 0) prev = stage_chunk(q - 1);
      if (q >= chunks) continue;
      const uint4 chunk = byte_window_at<decltype(words)::value>(prev, cur, 16 - s);
      const int lo = q == 0 ? s : 0;
      const int hi = s + n - 16 * q < 16 ? s + n - 16 * q : 16;
      if (lo == 0 && hi == 16) *reinterpret_cast<uint4*>(grid + 16 * q) = chunk;
      else store_chunk_part(grid + 16 * q, chunk, lo, hi);
    }
  });
}

// Block (Tile::kThreads), one tile per block, grid in TileGrid's order (one tile row: rows == kRows);
// the input as tiled_vec_kernel needs it (16-byte aligned pointer and strides), the output pointer
// element-aligned off the 16-byte grid (a shift of 0 is not one: the launcher refuses it) with ld_out ==
// kRows. Capped as the plain kernel is.
template <typename Tile>
__global__ void __launch_bounds__(Tile::kThreads, kVecMinThreadsPerSm / Tile::kThreads)
    tiled_vec_shifted_output_kernel(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
                                    MatrixGeometry g, TileGrid grid) {
  alignas(16) __shared__ unsigned char tile[Tile::kTileB];  // the swizzled tile, then the staged run
  const int tid = threadIdx.x;
  const VecTilePos p = vec_tile_position<Tile, TileGrid>(in, out, g, grid, blockIdx.x);
  {
    VecWords<Tile::kVBytes> v[Tile::kLoadsPerThread];
    vec_issue_loads<Tile>(p, g.ld_in * Tile::kE, tid, v);
    vec_commit_loads<Tile>(p, tid, v, tile);
  }
  __syncthreads();
  stage_output_run<Tile>(tile, p.bytes_valid, tid);
  __syncthreads();
  store_shifted_run<Tile>(p.dst, tile, p.bytes_valid * Tile::kRows, tid);
}

}  // namespace xpose::gpu
