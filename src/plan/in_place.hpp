// The in-place transpose's launch shape (square tile pairs, access width, grid), shared by the host
// planner and the GPU kernels.
#pragma once

#include <cstdint>

#include "plan/tiled_vec_shape.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::plan {

// Threads of the element kernel's blocks: 32 x 8, each moving 4 elements of a 32 x 32 tile.
constexpr int kInPlaceElementBlockX = 32;
constexpr int kInPlaceElementBlockY = 8;

// Tile edge in elements. Vector accesses: 64 x 64 tiles for 1- to 4-byte elements (4, 8 and 16 KiB)
// and 32 x 32 for 8- and 16-byte ones (8 and 16 KiB), tiled_vec's shapes, so that a block holding
// two tiles stays within 32 KiB of shared memory; the element kernel takes 32 x 32.
constexpr int in_place_tile_edge(int esize, int vector_bytes) { return vector_bytes > 0 && esize <= 4 ? 64 : 32; }
constexpr int in_place_tile_bytes(int esize, int vector_bytes) {
  return in_place_tile_edge(esize, vector_bytes) * in_place_tile_edge(esize, vector_bytes) * esize;
}
// Threads per block: tiled_vec's count for the tile (vector accesses), else the element kernel's.
constexpr int in_place_threads(int esize, int vector_bytes) {
  return vector_bytes > 0 ? tiled_vec_threads(esize, in_place_tile_bytes(esize, vector_bytes))
                          : kInPlaceElementBlockX * kInPlaceElementBlockY;
}

// Blocks per SM the vector kernels' register cap keeps resident: tiled_vec's (kVecMinThreadsPerSm
// threads, 64 registers a thread), but three quarters of that for 2-byte elements, whose two tiles'
// halfword gathers spilled under 64 registers.
constexpr int in_place_min_blocks_per_sm(int esize, int threads) {
  return esize == 2 ? kVecMinThreadsPerSm * 3 / 4 / threads : kVecMinThreadsPerSm / threads;
}

// Blocks beyond this take several tile pairs each.
constexpr std::int64_t kInPlaceMaxBlocks = (std::int64_t{1} << 31) - 1;

struct InPlaceConfig {
  int vector_bytes = 0;     // 16 or 8: whole vectors through tiled_vec's tile helpers; 0: element by element
  int tile = 0;             // tile edge in elements
  int threads = 0;          // per block
  std::int64_t pairs = 0;   // tile pairs of one matrix: n (n + 1) / 2 for n tiles a side, the diagonal's single
  std::int64_t blocks = 0;  // grid (one-dimensional)
};

// The widest access (16, then 8 bytes, never narrower than the element) that the pointers'
// alignment, the row stride and the matrix stride allow; 0 where none does.
int in_place_vector_bytes(const TransposeDesc& resolved_desc, int alignment);

// The launch shape for a resolved square descriptor and pointers aligned to `alignment` bytes.
InPlaceConfig choose_in_place(const TransposeDesc& resolved_desc, int alignment);

}  // namespace xpose::plan
