// The CPU's in-place transposes: the oracle, the blocked tile pairs of square matrices, and for
// non-square ones square blocks and pieces where the sides share a large factor, else the row and
// column shuffles.
#pragma once

#include <cstdint>

#include "plan/piece_cycles.hpp"
#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Plain loops, the test oracle: for square matrices, swaps element (r, c) with (c, r) for every r < c;
// for others (packed rows), each matrix copied aside and written back transposed. `desc` is resolved;
// the matrices are laid out as its input.
void reference_transpose_in_place(const TransposeDesc& desc, void* data);

// The same through tile pairs: tile (i, j) transposed into a buffer, tile (j, i) transposed into
// its place, the buffer copied into (j, i)'s place, each tile by the blocked transpose's register
// blocks stored straight out (blocked_tile_transpose), or for 1- and 2-byte tiles whose rows lie a
// multiple of 4 KiB apart through packed buffers; pairs split across threads.
void blocked_transpose_in_place(const TransposeDesc& desc, void* data);

// Non-square matrices with packed rows (ld_in == cols), each becoming cols x rows packed in its own
// place: columns rotated, rows scattered and columns gathered with scratch of one block of columns
// or one row per thread (src/cpu/in_place_shuffles.cpp).
void shuffled_transpose_in_place(const TransposeDesc& desc, void* data);

// Non-square matrices with packed rows whose sides share a factor g of at least 32 elements or 256
// bytes, or tall ones (the columns dividing the rows) with g of at least 8 (square_blocks_fit): each
// g x g block transposed in place by the tile pairs, then the rows' pieces of g elements moved to
// their places along segments of their cycles, split across the threads (src/cpu/in_place_blocks.cpp).
// square_blocks_plan finds the pieces' cycles and cuts them into segments once (a walk over every
// piece), for any number of executions.
struct SquareBlocksPlan {
  plan::PieceMap pieces;
  plan::PieceSegments segments;  // the same for every matrix of the batch
  std::int64_t threads = 1;
};
bool square_blocks_fit(const TransposeDesc& desc);
SquareBlocksPlan square_blocks_plan(const TransposeDesc& desc);
void square_blocks_transpose_in_place(const TransposeDesc& desc, const SquareBlocksPlan& plan, void* data);

}  // namespace xpose::cpu
