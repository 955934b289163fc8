// The CPU's in-place transposes of square matrices: the oracle's swaps and the blocked tile pairs.
#pragma once

#include "xpose/descriptor.hpp"

namespace xpose::cpu {

// Swaps element (r, c) with (c, r) for every r < c of every matrix: plain loops, the test oracle.
// `desc` is resolved and square; the matrices are laid out as its input.
void reference_transpose_in_place(const TransposeDesc& desc, void* data);

// The same through tile pairs: tile (i, j) transposed into a buffer, tile (j, i) transposed into
// its place, the buffer copied into (j, i)'s place, each tile by the blocked transpose's register
// blocks stored straight out (blocked_tile_transpose); pairs split across threads.
void blocked_transpose_in_place(const TransposeDesc& desc, void* data);

}  // namespace xpose::cpu
