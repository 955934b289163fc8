// The in-place transpose's launch shape (square tile pairs, access width, grid), shared by the host
// planner and the GPU kernels.
#pragma once

#include <cstdint>

#include "plan/tiled_vec_shape.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::plan {

// Threads of the element kernel's blocks: 32 x 8.
constexpr int kInPlaceElementBlockX = 32;
constexpr int kInPlaceElementBlockY = 8;

// The vector kernel's shape for an element size: tile edge in elements, threads per block, and the
// blocks per SM its register cap keeps resident (65536 / (threads x min_blocks) registers a thread).
// Two tiles a block, in dynamic shared memory. Measured on an H200 against the first cut's shapes
// (64 x 64 tiles up to 4 bytes, 32 x 32 beyond, tiled_vec's thread counts; ratios to memcpy, 8192^2;
// bench/results/h200_2026-11-29i_in_place_first_cut.txt and _in_place_shapes_ab.txt):
// - u8: 128 x 128 tiles with 128 registers, 0.61 -> 0.80 (with 64 they spilled: 0.45; with 80, 0.73);
// - bf16: 64 x 64 with 64 registers, 0.76 -> 0.86 (a few bytes spilled, against three blocks of 85
//   registers without; 128 x 128 tiles 0.51-0.81);
// - f32: 64 x 64 by 512 threads, 0.87 (by 256 threads 0.73; 32 x 32 tiles 0.86, but 0.83 against 0.76
//   at 1024^2);
// - f64: 32 x 32, 0.94 (64 x 64 0.68-0.83); c128: 32 x 32, 0.90 (16 x 16 0.89).
struct InPlaceShape {
  int edge, threads, min_blocks;
};
constexpr InPlaceShape in_place_shape(int esize) {
  switch (esize) {
    case 1: return {128, 256, 2};
    case 2: return {64, 256, 4};
    case 4: return {64, 512, 2};
    default: return {32, 256, 4};  // 8- and 16-byte elements
  }
}

// Which kernel moves the tile pairs: whole vectors (in_place_pairs_kernel), aligned 16-byte chunks
// realigned in shared memory where rows lie off the 8-byte grid (in_place_realigned_kernel, elements
// of up to 4 bytes), or single elements (in_place_elements_kernel: 16-byte elements aligned to 8).
// Matrices with fewer rows than the vector tile's edge take no pairs: several whole matrices a block
// (in_place_small_squares_kernel), where the pairs gave each matrix a block and a mostly empty tile.
// Measured on an H200 (of memcpy, pairs / small squares, two rounds alike;
// bench/results/h200_2026-11-29p_in_place_small_squares.txt): u8 65536 x 32^2 0.074 / 0.728, bf16
// 32768 x 32^2 0.254 / 0.800, f32 16384 x 32^2 0.230 / 0.846, 6710 x 50^2 0.41 / 0.60, f64 32768 x
// 16^2 0.285 / 0.838, c128 16384 x 16^2 0.469 / 0.850; u8 6710 x 100^2 (one a block) level, 0.33.
enum class InPlaceKernel { vectors, realigned, elements, small_squares };

// The realigned kernel's shape (256 threads: tiled_unaligned's load phases). Both tiles' chunks are
// held in registers at once. Measured on an H200 (ratios to memcpy, 8191^2 in place;
// bench/results/h200_2026-11-29k_in_place_realigned_ab.txt):
// - u8: 128 x 128 tiles with 85 registers (3 blocks per SM), 0.46; with 64 registers they spill 240
//   bytes; 64 x 64 tiles (stored a chunk in each of 32 rows) 0.30, but 0.55 against 0.39 at 1023^2;
// - bf16: 64 x 64 with 64 registers, 0.51; 128 x 128 tiles spill over 2 KB;
// - f32: 64 x 64 with 85 registers, 0.70; 32 x 32 tiles 0.41.
constexpr InPlaceShape in_place_realigned_shape(int esize) {
  switch (esize) {
    case 1: return {128, 256, 3};
    case 2: return {64, 256, 4};
    default: return {64, 256, 3};  // 4-byte elements
  }
}

// Tile edge in elements: the vector kernel's shape, the realigned kernel's, or the element kernel's
// 32 x 32 tiles.
constexpr int in_place_tile_edge(int esize, InPlaceKernel kernel) {
  switch (kernel) {
    case InPlaceKernel::vectors: return in_place_shape(esize).edge;
    case InPlaceKernel::realigned: return in_place_realigned_shape(esize).edge;
    default: return 32;
  }
}
constexpr int in_place_threads(int esize, InPlaceKernel kernel) {
  switch (kernel) {
    case InPlaceKernel::vectors: return in_place_shape(esize).threads;
    case InPlaceKernel::realigned: return in_place_realigned_shape(esize).threads;
    default: return kInPlaceElementBlockX * kInPlaceElementBlockY;
  }
}

// At most this many blocks (the launch limit); beyond it each block loops over several tile pairs.
constexpr std::int64_t kInPlaceMaxBlocks = (std::int64_t{1} << 31) - 1;

struct InPlaceConfig {
  InPlaceKernel kernel = InPlaceKernel::vectors;
  int vector_bytes = 0;     // vectors: 16 or 8 bytes through tiled_vec's tile helpers; small_squares: the
                            // access, 1 to 16 bytes; otherwise 0
  int tile = 0;             // tile edge in elements (small_squares: the matrix's)
  int threads = 0;          // per block
  std::int64_t pairs = 0;   // tile pairs of one matrix: n (n + 1) / 2 for n tiles a side (a diagonal tile pairs itself)
  std::int64_t blocks = 0;  // grid (one-dimensional)
  int matrices_per_block = 1;  // small_squares: whole matrices a block holds
  int row_pitch = 0;           // small_squares: bytes between rows in shared memory
  // small_squares: the batch's matrices in groups of group_count (batch_stride apart), the groups
  // group_stride elements apart (the blocks of blocks and pieces, a row of blocks a group); 0: one group.
  std::int64_t group_count = 0, group_stride = 0;
  std::int64_t shared_bytes() const {
    return kernel == InPlaceKernel::small_squares ? std::int64_t{matrices_per_block} * tile * row_pitch : 0;
  }
};

// small_squares: a block's matrices fill up to this much shared memory (at least one matrix; the
// largest, u8 127 x 127 with rows 131 bytes apart, takes 16.6 KB), and there are at most
// kSmallSquaresMaxPerBlock of them (their offsets are kept in shared memory too).
constexpr std::int64_t kSmallSquaresSharedBytes = 16 << 10;
constexpr int kSmallSquaresMaxPerBlock = 256;
constexpr int kSmallSquaresBlockThreads = 256;

// The widest access (16, then 8 bytes, never narrower than the element) that the pointers'
// alignment, the row stride and the matrix stride allow; 0 where none does.
int in_place_vector_bytes(const TransposeDesc& resolved_desc, int alignment);

// small_squares' access: the widest power of two up to 16 bytes, not narrower than the element, that
// the alignment, the row's bytes, the row stride and the matrix stride allow.
int small_squares_access_bytes(const TransposeDesc& resolved_desc, int alignment);

// The launch shape for a resolved square descriptor and pointers aligned to `alignment` bytes.
InPlaceConfig choose_in_place(const TransposeDesc& resolved_desc, int alignment);

}  // namespace xpose::plan
