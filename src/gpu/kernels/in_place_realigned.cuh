// In-place transposes of square matrices whose rows lie off the 8-byte grid (odd extents or leading
// dimensions of 1-, 2- and 4-byte elements): the tile pairs of in_place.cuh, each tile read as
// aligned 16-byte chunks and realigned row by row in shared memory with tiled_unaligned's load phases,
// and written as aligned 16-byte chunks of its output rows. A chunk cut by the tile's edge is shared
// with the tiles beside it, which other blocks are moving: of such a chunk only the tile's own bytes
// are written (store_chunk_part), and the bytes read past them are dropped.
#pragma once

#include <cstdint>

#include "gpu/kernels/chunk_part.cuh"
#include "gpu/kernels/in_place.cuh"
#include "gpu/kernels/tiled_unaligned.cuh"

namespace xpose::gpu {

// The store phase's lanes along one output row (runs of 16-byte chunks; the warp's other lanes take
// as many rows) and the padding words per shared row. Measured on an H200 (ratios to memcpy, 8191^2 in
// place, bench/results/h200_2026-11-29k_in_place_realigned_ab.txt; wavefronts per shared load from
// bench/in_place_banks.py, the worst over leading dimensions 1001, 4095, 8191 and 8193):
// - u8: runs of 2 chunks, no padding, 0.46 (1.8-way); one chunk in each of 32 rows (conflict-free)
//   0.38;
// - bf16: runs of 2, no padding, 0.51 (1.8-way); runs of 4 with a word of padding 0.47 (1.7-way);
// - f32: runs of 4 with 2 words of padding (conflict-free) 0.70; one chunk in each of 32 rows 0.48.
// A thread per chunk along whole rows, as first written (9 to 17 chunks of a row in one warp, rows a
// multiple of 16 bytes apart in one bank): ncu counted 37 M of f32's 42 M shared wavefronts as bank
// conflicts (0.56), 7.7 M of u8's 11.3 M (0.44).
constexpr int realigned_run_lanes(int esize) { return esize == 4 ? 4 : 2; }
constexpr int realigned_pad_words(int esize) { return esize == 4 ? 2 : 0; }

// A kEdge x kEdge tile of E-byte elements in shared memory: rows of kEdge * E bytes starting anywhere
// touch kInChunks aligned chunks; element x of row r lies at byte 16 + x * E of the row's slot
// (raw_row_data), behind a 4-word margin for the row's shift into its first chunk.
template <int E, int kEdge>
struct RealignedTile {
  static constexpr int kE = E;
  static constexpr int kElementBytes = E;  // load_wide's name
  static constexpr int kRows = kEdge, kCols = kEdge;
  static constexpr int kInChunks = kEdge * E / 16 + 1;
  static constexpr int kRunLanes = realigned_run_lanes(E);
  static constexpr int kPitchWords = 4 * kInChunks + 4 + realigned_pad_words(E);
  static constexpr int kLoadItems = kRows * kInChunks;
  static constexpr int kLoadsPerThread = (kLoadItems + kUnalignedThreads - 1) / kUnalignedThreads;
  static constexpr int kWords = kRows * kPitchWords;
  static_assert(E == 1 || E == 2 || E == 4, "realigned tiles are for elements of up to 4 bytes");
  static_assert(kEdge * E % 16 == 0 && 32 % kRunLanes == 0, "tile rows of whole chunks, warps of whole runs");
};

// The registers that hold a thread's chunks of one tile between the halves of its load phase.
template <typename Tile>
struct RealignedLoad {
  static constexpr int kRegisters =
      Tile::kE < 4 ? PackedLoad<Tile::kRows, Tile::kInChunks>::kPerThread : Tile::kLoadsPerThread;
  using Registers = uint4[kRegisters];
};
// Half kHalf (LoadHalves) of the load phase of the tile at `p`, realigned into shared memory through
// the registers v. data, data_end: the caller's whole buffer, which no chunk reaches outside.
template <typename Tile, int kHalf>
__device__ __forceinline__ void load_realigned(typename RealignedLoad<Tile>::Registers& v, std::uint32_t* tile,
                                               const VecTilePos& p, const unsigned char* data,
                                               const unsigned char* data_end, std::int64_t ld_bytes, int shift_step) {
  const int shift0 = static_cast<int>(reinterpret_cast<std::uintptr_t>(p.src) & 15);
  if constexpr (Tile::kE < 4)
    load_packed_halves<Tile::kE, Tile::kRows, Tile::kInChunks, Tile::kPitchWords, SlotIsRow, kHalf>(
        v, tile, p.src, data, data_end, ld_bytes, p.rows_valid, p.bytes_valid, shift0, shift_step);
  else
    load_wide_halves<Tile, kHalf>(v, tile, p.src, data, data_end, ld_bytes, p.rows_valid, p.bytes_valid, shift0,
                                  shift_step);
}

// The tile's transpose from shared memory to its output rows (column c of the tile is output row c,
// rows_valid elements long). A warp takes runs of Tile::kRunLanes chunks in each of 32 / kRunLanes
// output rows; each chunk gathers its 16 / E elements from as many tile rows, one column.
template <typename Tile>
__device__ __forceinline__ void store_realigned(const std::uint32_t* tile, const VecTilePos& p, std::int64_t ld_bytes) {
  constexpr int E = Tile::kE, kRunLanes = Tile::kRunLanes, kRowsPerWarp = 32 / kRunLanes;
  constexpr int kRowGroups = (Tile::kCols + kRowsPerWarp - 1) / kRowsPerWarp;
  constexpr int kRuns = (Tile::kInChunks + kRunLanes - 1) / kRunLanes;
  const int out_bytes = p.rows_valid * E, cols_valid = p.bytes_valid / E;
  const int lane = threadIdx.x % 32;
  for (int item = threadIdx.x / 32; item < kRowGroups * kRuns; item += kUnalignedThreads / 32) {
    const int c = item % kRowGroups * kRowsPerWarp + lane / kRunLanes;
    const int q = item / kRowGroups * kRunLanes + lane % kRunLanes;
    if (c >= cols_valid || q >= Tile::kInChunks) continue;
    unsigned char* row = p.dst + c * ld_bytes;
    const int lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(row) & 15);
    const int first = 16 * q - lead;  // the chunk's first byte, in bytes of the output row (may be < 0)
    if (first >= out_bytes) continue;
    std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
    for (int m = 0; m < 16 / E; ++m) {
      const int byte = first + m * E;
      if (byte >= 0 && byte < out_bytes) put_element<E>(w, m, raw_row_data(tile, Tile::kPitchWords, byte / E) + c * E);
    }
    const uint4 v = make_uint4(w[0], w[1], w[2], w[3]);
    unsigned char* chunk = row + first;
    if (first >= 0 && first + 16 <= out_bytes)
      *reinterpret_cast<uint4*>(chunk) = v;
    else
      store_chunk_part(chunk, v, first < 0 ? -first : 0, out_bytes - first < 16 ? out_bytes - first : 16);
  }
}

// Block (kUnalignedThreads); two tiles in static shared memory; grid (blocks), block k taking tile
// pairs k, k + gridDim.x, ... of pairs x batch, as in_place_pairs_kernel. data_end: one past the
// buffer's last byte. kMinBlocksPerSm: plan::in_place_realigned_shape's register cap.
template <int E, int kEdge, int kMinBlocksPerSm>
__global__ void __launch_bounds__(kUnalignedThreads, kMinBlocksPerSm)
    in_place_realigned_kernel(unsigned char* data, const unsigned char* data_end, MatrixGeometry g,
                              std::int64_t pairs) {
  using Tile = RealignedTile<E, kEdge>;
  alignas(16) __shared__ std::uint32_t tiles[2][Tile::kWords];
  const std::int64_t ld_bytes = g.ld_in * E;
  const int shift_step = static_cast<int>(ld_bytes & 15);
  for (std::int64_t k = blockIdx.x; k < pairs * g.batch; k += gridDim.x) {
    const TilePair t = tile_pair(k % pairs);
    const std::int64_t b = k / pairs;
    const VecTilePos upper = in_place_tile<Tile>(data, g, b, t.i, t.j);
    const VecTilePos lower = in_place_tile<Tile>(data, g, b, t.j, t.i);
    const bool mirrored = t.i != t.j;
    {
      // Both tiles' chunks in flight before either lands in shared memory.
      typename RealignedLoad<Tile>::Registers u, l;
      load_realigned<Tile, kIssueHalf>(u, tiles[0], upper, data, data_end, ld_bytes, shift_step);
      if (mirrored) load_realigned<Tile, kIssueHalf>(l, tiles[1], lower, data, data_end, ld_bytes, shift_step);
      load_realigned<Tile, kCommitHalf>(u, tiles[0], upper, data, data_end, ld_bytes, shift_step);
      if (mirrored) load_realigned<Tile, kCommitHalf>(l, tiles[1], lower, data, data_end, ld_bytes, shift_step);
    }
    __syncthreads();
    store_realigned<Tile>(tiles[0], upper, ld_bytes);
    if (mirrored) store_realigned<Tile>(tiles[1], lower, ld_bytes);
    __syncthreads();  // the tiles are read before the next pair's loads land
  }
}

}  // namespace xpose::gpu
